// The service worker: this deploy's pages and files, kept in the browser so that the game loads
// and plays without a network.  The server serves it at /sw.js (scope: the whole site) behind one
// line of its own, `const DEPLOY = {version, precache}` (web/pages/service_worker.py).
//
// What it answers, and from where:
// - a navigation to the game page ("/", any query but a room's: the page reads its query itself;
//   a room's link gets the game page as a room opens it) or to the lab: the kept page;
// - a file of the kept list, asked by one of those pages: the kept file, so that a page and
//   every module it loads are of one deploy;
// - everything else, it leaves alone and the browser asks the network as if no worker were
//   there: every POST (moves, hints, rooms), the rooms' streams and every /rooms/ address,
//   /metrics, /healthz and /livez, GET /position (the browser's own cache keeps proven answers),
//   the embed (its page is made from its query string) and the files the embed asks for.
//
// A new deploy's worker installs beside this one (keeping its own files in its own cache) and
// waits; the page offers the new version (static/js/offline-app.js), whose "take-over" message
// makes it take over and delete the other caches; the pages then reload onto it.
/* global DEPLOY */

const CACHE = `tictactoe-${DEPLOY.version}`;
const CACHES = "tictactoe-"; // the start of every deploy's cache name
// The pages kept, by path: the kept copy a navigation there gets (a room's link: its own copy).
const SHELL = new Set(["/", "/lab"]);

self.addEventListener("install", (event) => {
  // "no-cache": the files as the server has them now, never an older copy from the HTTP cache.
  const requests = DEPLOY.precache.map((url) => new Request(url, { cache: "no-cache" }));
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(requests)));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const names = await caches.keys();
    await Promise.all(names.filter((name) => name.startsWith(CACHES) && name !== CACHE)
      .map((name) => caches.delete(name)));
    // The first worker takes the page that installed it, so that it plays offline without a reload.
    await self.clients.claim();
  })());
});

self.addEventListener("message", (event) => {
  if (event.data?.type === "take-over") self.skipWaiting();
});

// The pages left to the network (the embed), by client id: their files come from the network too.
// Lost when the browser stops this worker between two events; a file then goes by its page's
// address (fileFor).
const networkPages = new Set();

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    const page = keptPage(url);
    if (page) event.respondWith(kept(page, request));
    else if (event.resultingClientId) networkPages.add(event.resultingClientId);
    return;
  }
  // A page left to the network gets its files from there too: it may be of a newer deploy.
  if (!DEPLOY.precache.includes(url.pathname) || networkPages.has(event.clientId)) return;
  event.respondWith(fileFor(event.clientId, url.pathname, request));
});

/** The kept page a navigation to `url` gets, or null for a page this worker does not keep. */
function keptPage(url) {
  if (!SHELL.has(url.pathname)) return null;
  return url.pathname === "/" && url.searchParams.has("room") ? "/?room=" : url.pathname;
}

/** A kept file for the page `clientId`: from the cache for a kept page, from the network for another. */
async function fileFor(clientId, path, request) {
  const client = clientId ? await self.clients.get(clientId) : null;
  if (client && !SHELL.has(new URL(client.url).pathname)) return fetch(request);
  return kept(path, request);
}

/** The kept answer for `key`, or the network's when the cache has lost it. */
async function kept(key, request) {
  const cache = await caches.open(CACHE);
  return (await cache.match(key)) ?? fetch(request);
}
