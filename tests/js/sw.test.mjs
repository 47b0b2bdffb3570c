// The service worker (static/sw.js) in node: its script run in a sandbox whose `self`, `caches`,
// `clients` and `fetch` are stand-ins, and events handed to it as the browser would.  What it
// answers and from where, what it keeps, and what it never touches.

import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { test } from "node:test";
import vm from "node:vm";

const SOURCE = await readFile(new URL("../../static/sw.js", import.meta.url), "utf-8");
const ORIGIN = "https://tictactoe.example";
const PRECACHE = ["/", "/?room=", "/lab", "/manifest.webmanifest", "/static/css/app.css", "/static/js/main.js"];

/** A worker of deploy `version` over `stored` ({cache name: Map(url -> body)}) and `pages` ({client id: url}). */
function worker({ version = "v2", stored = {}, pages = {} } = {}) {
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
          for (const request of requests) cache.set(request.url, `${request.cache} ${request.url}`);
        },
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
      fetched.push(request.url);
      return `network ${request.url}`;
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
  handlers.fetch({
    request: { url: url.startsWith("https:") ? url : ORIGIN + url, method, mode },
    clientId,
    resultingClientId,
    respondWith: (promise) => { answer = promise; },
  });
  return answer === null ? null : await answer;
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
