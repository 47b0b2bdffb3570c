// The service worker (static/sw.js) in node: its script run in a sandbox whose `self`, `caches`,
// `clients` and `fetch` are stand-ins, and events handed to it as the browser would.  What it
// answers and from where, what it keeps, and what it never touches.

import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { test } from "node:test";
import vm from "node:vm";

const SOURCE = await readFile(new URL("../../static/sw.js", import.meta.url), "utf-8");
const ORIGIN = "https://tictactoe.example";
const PRECACHE = ["/", "/?room=", "/lab", "/static/css/app.css", "/static/js/main.js"];

/** A worker of deploy `version` over `stored` ({cache name: Map(url -> body)}) and `pages` ({client id: url}). */
function worker({ version = "v2", stored = {}, pages = {}, online = true } = {}) {
  const handlers = {};
  const fetched = [];
  const caches = {
    keys: async () => Object.keys(stored),
    delete: async (name) => delete stored[name],
    open: async (name) => {
      stored[name] ??= new Map();
      const cache = stored[name];
      return {
        addAll: async (requests) => {
          if (!online) throw new TypeError("Failed to fetch");
          for (const request of requests) {
            fetched.push(request.url);
            cache.set(request.url, `${request.cache} ${request.url}`);
          }
        },
        put: async (key, response) => cache.set(key, response),
        match: async (key) => cache.get(key),
      };
    },
  };
  const sandbox = {
    DEPLOY: { version, precache: PRECACHE },
    URL,
    Request: class {
      constructor(url, { cache }) {
        this.url = url;
        this.cache = cache;
      }
    },
    self: {
      location: { origin: ORIGIN },
      addEventListener: (type, handler) => { handlers[type] = handler; },
      clients: {
        claim: async () => { handlers.claimed = true; },
        get: async (id) => (pages[id] ? { url: pages[id] } : undefined),
      },
      skipWaiting: () => { handlers.skipped = true; },
    },
    caches,
    fetch: async (request) => {
      if (!online) throw new TypeError("Failed to fetch");
      fetched.push(request.url);
      return { ok: true, body: `network ${request.url}`, clone() { return `kept ${this.body}`; } };
    },
  };
  vm.runInNewContext(SOURCE, sandbox);
  return { handlers, fetched, stored };
}

/**
 * Hand the worker a fetch event for `url` (a path on the site, or a whole address); resolves to its
 * answer, or to null when it left the request alone.
 */
async function ask(handlers, { url, method = "GET", mode = "cors", clientId = "", resultingClientId = "" }) {
  let answer = null;
  const later = [];
  handlers.fetch({
    waitUntil: (promise) => later.push(promise),
    request: { url: url.startsWith("https:") ? url : ORIGIN + url, method, mode },
    clientId,
    resultingClientId,
    respondWith: (promise) => { answer = promise; },
  });
  const made = answer === null ? null : await answer;
  await Promise.all(later);
  return made?.body ?? made;
}

test("install keeps every file of the deploy's list, as the server has it now", async () => {
  const { handlers, stored } = worker();
  let done;
  handlers.install({ waitUntil: (promise) => { done = promise; } });
  await done;
  assert.deepEqual([...stored["tictactoe-v2"].keys()], PRECACHE);
  assert.ok([...stored["tictactoe-v2"].values()].every((body) => body.startsWith("no-cache ")));
});

test("activation deletes the other deploys' caches, nobody else's, and takes the pages", async () => {
  const stored = { "tictactoe-v1": new Map(), "tictactoe-v2": new Map(), "someone-else": new Map() };
  const { handlers } = worker({ stored });
  let done;
  handlers.activate({ waitUntil: (promise) => { done = promise; } });
  await done;
  assert.deepEqual(Object.keys(stored), ["tictactoe-v2", "someone-else"]);
  assert.equal(handlers.claimed, true);
});

test("it takes over only when a page asks", () => {
  const { handlers } = worker();
  handlers.message({ data: { type: "hello" } });
  assert.equal(handlers.skipped, undefined);
  handlers.message({ data: { type: "take-over" } });
  assert.equal(handlers.skipped, true);
});

test("the game page and the lab come from the deploy's cache; a room's link gets the room's copy", async () => {
  const stored = { "tictactoe-v2": new Map([["/", "game"], ["/?room=", "room game"], ["/lab", "lab"]]) };
  const { handlers, fetched } = worker({ stored });
  const navigate = (url) => ask(handlers, { url, mode: "navigate", resultingClientId: "page" });
  assert.equal(await navigate("/"), "game");
  assert.equal(await navigate("/?size=7x7&moves=d4"), "game");
  assert.equal(await navigate("/?room=AbCd1234#host=secret"), "room game");
  assert.equal(await navigate("/lab?board=x2/1o1/3"), "lab");
  assert.deepEqual(fetched, []);
});

test("POSTs, rooms and their streams, health, metrics and positions are left to the network", async () => {
  const { handlers, fetched } = worker({ pages: { page: `${ORIGIN}/` } });
  for (const request of [
    { url: "/move", method: "POST" },
    { url: "/rooms", method: "POST" },
    { url: "/rooms/AbCd1234/events" },
    { url: "/rooms/AbCd1234" },
    { url: "/metrics" },
    { url: "/healthz" },
    { url: "/livez" },
    { url: "/position?board=x2/1o1/3&k=3" },
    { url: "/sw.js" },
    { url: "/manifest.webmanifest?lang=fr" },
    { url: "/static/images/share.png" },
    { url: "https://elsewhere.example/static/js/main.js" },
  ]) {
    assert.equal(await ask(handlers, { ...request, clientId: "page" }), null, request.url);
  }
  assert.deepEqual(fetched, []);
});

test("the embed's page and its files go to the network, whatever the worker remembers", async () => {
  const stored = { "tictactoe-v2": new Map([["/static/js/main.js", "kept main"]]) };
  const { handlers, fetched } = worker({ stored, pages: { game: `${ORIGIN}/?size=3x3`, embed: `${ORIGIN}/embed` } });
  assert.equal(await ask(handlers, { url: "/embed?size=3x3", mode: "navigate", resultingClientId: "frame" }), null);
  // The frame the worker saw arrive: left alone.
  assert.equal(await ask(handlers, { url: "/static/js/main.js", clientId: "frame" }), null);
  // An embed it has forgotten (the worker was stopped in between): fetched by its page's address.
  assert.equal(await ask(handlers, { url: "/static/js/main.js", clientId: "embed" }), `network ${ORIGIN}/static/js/main.js`);
  // The game page's own: the kept copy.
  assert.equal(await ask(handlers, { url: "/static/js/main.js", clientId: "game" }), "kept main");
  assert.deepEqual(fetched, [`${ORIGIN}/static/js/main.js`]);
});

test("an address in a language gets its copy: from the network once, then kept with the other pages in it", async () => {
  const stored = { "tictactoe-v2": new Map([["/", "game"], ["/?room=", "room game"], ["/lab", "lab"]]) };
  const { handlers, fetched } = worker({ stored });
  const navigate = (url) => ask(handlers, { url, mode: "navigate", resultingClientId: "page" });
  assert.equal(await navigate("/?size=7x7&lang=fr"), `network ${ORIGIN}/?size=7x7&lang=fr`);
  assert.deepEqual(fetched, [`${ORIGIN}/?size=7x7&lang=fr`, "/?room=&lang=fr", "/lab?lang=fr"]);
  const kept = stored["tictactoe-v2"];
  assert.equal(kept.get("/?lang=fr"), `kept network ${ORIGIN}/?size=7x7&lang=fr`);
  assert.equal(kept.get("/?room=&lang=fr"), "no-cache /?room=&lang=fr");
  assert.equal(kept.get("/lab?lang=fr"), "no-cache /lab?lang=fr");
  // Then every page in French comes from the cache; without ?lang=, the reader's copy.
  fetched.length = 0;
  assert.equal(await navigate("/?lang=fr"), `kept network ${ORIGIN}/?size=7x7&lang=fr`);
  assert.equal(await navigate("/?room=AbCd1234&lang=fr#host=secret"), "no-cache /?room=&lang=fr");
  assert.equal(await navigate("/lab?board=x2/1o1/3&lang=fr"), "no-cache /lab?lang=fr");
  assert.equal(await navigate("/"), "game");
  assert.deepEqual(fetched, []);
});

test("offline, an address in a language never opened gets the reader's copy", async () => {
  const stored = { "tictactoe-v2": new Map([["/", "game"], ["/lab", "lab"]]) };
  const { handlers } = worker({ stored, online: false });
  assert.equal(await ask(handlers, { url: "/lab?lang=de", mode: "navigate", resultingClientId: "page" }), "lab");
});

/** Send the worker the picker's "language" message; resolves to its reply. */
async function choose(handlers, tag) {
  let replied;
  const reply = new Promise((resolve) => { replied = resolve; });
  let done;
  handlers.message({
    data: { type: "language", tag }, ports: [{ postMessage: replied }], waitUntil: (promise) => { done = promise; },
  });
  await done;
  return reply;
}

test("the picker's language: the reader's pages fetched again, or offline taken from the copies in it", async () => {
  const stored = { "tictactoe-v2": new Map([["/", "game"], ["/?room=", "room game"], ["/lab", "lab"]]) };
  const online = worker({ stored });
  assert.equal(await choose(online.handlers, "es"), "kept");
  assert.deepEqual(online.fetched, ["/", "/?room=", "/lab"]);
  assert.equal(stored["tictactoe-v2"].get("/lab"), "no-cache /lab");

  const french = new Map([["/?lang=fr", "jeu"], ["/?room=&lang=fr", "partie"], ["/lab?lang=fr", "labo"]]);
  const offline = worker({ stored: { "tictactoe-v2": new Map([["/", "game"], ...french]) }, online: false });
  assert.equal(await choose(offline.handlers, "fr"), "kept");
  assert.equal(await ask(offline.handlers, { url: "/", mode: "navigate" }), "jeu");
  assert.equal(await ask(offline.handlers, { url: "/lab", mode: "navigate" }), "labo");
  // A language with no copies kept: the reader's pages stay as they were, and the page is told.
  assert.equal(await choose(offline.handlers, "de"), "not kept");
  assert.equal(await ask(offline.handlers, { url: "/", mode: "navigate" }), "jeu");
});
