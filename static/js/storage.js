// A JSON store over localStorage that never throws.
//
// Storage can be missing or refused (private modes, a third-party iframe with
// storage blocked, a full quota); the game must still play, it just forgets.

/** A store whose get(key) returns the parsed value or null, and set(key, value) saves it. */
export function createStore(prefix, backend = defaultBackend()) {
  return {
    get(key) {
      if (!backend) return null;
      try {
        const text = backend.getItem(prefix + key);
        return text === null ? null : JSON.parse(text);
      } catch {
        return null;
      }
    },
    set(key, value) {
      if (!backend) return;
      try {
        backend.setItem(prefix + key, JSON.stringify(value));
      } catch {
        // Quota or access refused: keep playing without persistence.
      }
    },
  };
}

/** A store that keeps nothing (for pages that must not persist, such as an embed). */
export function createMemoryStore() {
  const data = new Map();
  return {
    get: (key) => (data.has(key) ? JSON.parse(data.get(key)) : null),
    set: (key, value) => data.set(key, JSON.stringify(value)),
  };
}

function defaultBackend() {
  try {
    return window.localStorage;
  } catch {
    return null; // reading the property itself throws when storage is blocked
  }
}
