// The page as an app: its service worker registered (/sw.js keeps this deploy's pages and files
// for play offline: static/sw.js), a new deploy offered in words, the network's going and coming
// back said in words, and on iOS, where no browser offers to install a page, once, how to put the
// game on the home screen.  Loaded by the game page and the lab after their load; the embed,
// which lives in other sites' pages, registers nothing.  The notes' module comes when a note does.

const WORKER = "/sw.js";
const IOS_HINT_KEY = "ios-hint";
const BACK_ONLINE_MS = 8000; // the "back online" note goes by itself after this

/**
 * Start it on the page: `box` holds the notes, `store` remembers the iOS hint,
 * `words` = {offline, online} say what the page can do without the network and that it is back,
 * `onOnline()` runs when the network comes back.
 */
export function startApp({ box, store, words, onOnline = () => {} }) {
  const notices = lazyNotices(box);
  register(notices);
  const offline = () => notices.show("network", { words: words.offline });
  window.addEventListener("offline", offline);
  window.addEventListener("online", () => {
    notices.show("network", { words: words.online, closeAfter: BACK_ONLINE_MS });
    onOnline();
  });
  if (navigator.onLine === false) offline();
  if (store) hintOnIos(notices, store);
}

/** The notes of `box` (notices.js), loaded when the first one is shown: most visits show none. */
function lazyNotices(box) {
  let loaded = null;
  const notices = () => {
    loaded ??= import("./notices.js").then(({ createNotices }) => createNotices(box), (error) => {
      loaded = null; // not loaded (offline, and nothing kept it): the next note tries again
      throw error;
    });
    return loaded;
  };
  return {
    show: (key, note) => notices().then((made) => made.show(key, note)).catch(() => {}),
  };
}

/** Register the worker; offer a new deploy's worker once it is installed, and reload when one takes over. */
async function register(notices) {
  if (!("serviceWorker" in navigator)) return;
  const workers = navigator.serviceWorker;
  let registration;
  try {
    registration = await workers.register(WORKER);
  } catch {
    return; // refused (a private window, a policy): the page works online as it always has
  }
  if (!registration) return; // blocked without a refusal (as a test browser can be)
  // A page a worker answered runs that deploy's files: when a newer worker takes over (asked here
  // or in another tab), the page reloads to run the new deploy's, never a mix.  The first worker
  // taking over the page that installed it changes nothing: the page came from the network.
  let controlled = Boolean(workers.controller);
  workers.addEventListener("controllerchange", () => {
    if (controlled) window.location.reload();
    controlled = true;
  });
  const offer = (worker) => notices.show("update", {
    words: "A new version of the game is ready.",
    action: { label: "Reload", run: () => worker.postMessage({ type: "take-over" }) },
  });
  if (registration.waiting && workers.controller) offer(registration.waiting);
  registration.addEventListener("updatefound", () => {
    const worker = registration.installing;
    worker?.addEventListener("statechange", () => {
      if (worker.state === "installed" && workers.controller) offer(worker);
    });
  });
  // A page left open for days asks again when the network comes back.
  window.addEventListener("online", () => registration.update().catch(() => {}));
}

/** On iOS outside an installed app, say once how to add the game to the home screen. */
function hintOnIos(notices, store) {
  const ios = /iPhone|iPad|iPod/.test(navigator.userAgent) ||
    (navigator.platform === "MacIntel" && navigator.maxTouchPoints > 1); // an iPad asks for the desktop site
  const installed = navigator.standalone === true || window.matchMedia("(display-mode: standalone)").matches;
  if (!ios || installed || store.get(IOS_HINT_KEY)) return;
  store.set(IOS_HINT_KEY, "shown");
  notices.show("install", { words: "To put the game on your home screen, tap Share, then Add to Home Screen." });
}
