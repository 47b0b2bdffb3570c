// A JSON store over localStorage that never throws.
//
// Storage can be missing or refused (private modes, a third-party iframe with
// storage blocked, a full quota); the game must still play, it just forgets.
// A frame in another site's page, refused localStorage, may still keep a little
// in a partitioned cookie (CHIPS: kept for this embedding site only, and allowed
// where third-party cookies are blocked): `cookieBackend` is that store.

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

/** localStorage when this document may use it, else null. */
export function defaultBackend() {
  try {
    return window.localStorage;
  } catch {
    return null; // reading the property itself throws when storage is blocked
  }
}

/**
 * A getItem/setItem store in partitioned cookies of `path` (a page's own path: the cookie goes to
 * the server with that page's requests only, and the server reads none of it), kept `days` days.
 */
export function cookieBackend(path, days = 7) {
  const attributes = `; Path=${path}; Max-Age=${days * 86400}; Secure; SameSite=None; Partitioned`;
  return {
    getItem(key) {
      const name = `${encodeURIComponent(key)}=`;
      const found = document.cookie.split("; ").find((cookie) => cookie.startsWith(name));
      return found === undefined ? null : decodeURIComponent(found.slice(name.length));
    },
    setItem(key, value) {
      document.cookie = `${encodeURIComponent(key)}=${encodeURIComponent(value)}${attributes}`;
    },
  };
}
