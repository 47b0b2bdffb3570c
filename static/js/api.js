// The move server's HTTP API: fetch with a timeout, one retry for a transient failure, no request
// at all while the server's limit on searches refuses this address, and every failure mapped to an
// ApiError the page can explain.  When the server cannot be reached, what the browser can answer
// itself is answered here (static/js/offline.js: 3x3 against the engine, how any board stands).

import { toPositionText } from "./position-text.js";
import { LIMITED_WORDS, secondsLeft } from "./refusal.js";
import { isFreeSize } from "./server-sets.js";

const DEFAULT_TIMEOUT_MS = 20000; // the engine's budget is ~1 s; big boards and cold caches take longer
const RETRY_DELAY_MS = 400;
// A 503 that asks for a longer wait than this is not sent again by itself: the player decides.
const MAX_AUTO_RETRY_WAIT_S = 5;
// A 429 that names no wait (no Retry-After, no retry_after) is waited out this long.
const DEFAULT_LIMIT_WAIT_S = 60;

/**
 * A failed request: `kind` is timeout|offline|busy (503)|limited (429)|server|rejected; `retryable`
 * says whether Retry may help; `retryAfter` is the wait in seconds a 429 or 503 asked for (else
 * null); a "limited" error's `until` is when (Date.now()'s clock) this address may search again.
 */
export class ApiError extends Error {
  constructor(kind, message, { status = null, retryAfter = null, until = null } = {}) {
    super(message);
    this.name = "ApiError";
    this.kind = kind;
    this.status = status;
    this.retryable = kind !== "rejected";
    this.retryAfter = retryAfter;
    this.until = until;
  }
}

/**
 * An API client: move(payload), analyze(payload), state(payload), engines(), position(rows, k),
 * trace(rows, k, engine, node); each
 * resolves to the JSON answer or rejects with ApiError (or AbortError when `signal` aborts).
 * After a 429 every call is refused at once with a "limited" ApiError, without a request, until
 * the server's Retry-After has passed; but a call about a board of a size the server searches for
 * free (server-sets.js) is sent, since the server answers it all the same.  When the server cannot
 * be reached, a call the browser can answer is answered here (offline.js); with `offlineWords`
 * (the lab, whose every figure is the server's), none is, and the failure adds those words.
 */
export function createApi({ baseUrl = "", timeoutMs = DEFAULT_TIMEOUT_MS, retries = 1, offlineWords = null } = {}) {
  let refusedUntil = 0; // Date.now() before which the server refuses this address's searches
  const send = (url, payload, signal, board = payload?.board) => withRetry(async () => {
    if (Date.now() < refusedUntil && !free(board)) throw limitedError(refusedUntil);
    try {
      return await requestJson(url, payload, timeoutMs, signal);
    } catch (error) {
      if (error instanceof ApiError && error.kind === "limited") refusedUntil = error.until;
      throw error;
    }
  }, retries, signal);
  const orHere = (path, payload, ask) => orOffline(path, payload, ask, offlineWords);
  const post = (path) => (payload, signal) => orHere(path, payload, () => send(baseUrl + path, payload, signal));
  // A GET of `path` with `query` (its URLSearchParams); `payload`: what offline.js reads of it.
  const get = (path, query, payload) => (signal) => {
    const url = query ? `${path}?${query.toString().replaceAll("%2F", "/")}` : path;
    return orHere(path, payload, () => send(baseUrl + url, null, signal, payload?.board));
  };
  /** What GET /position answers for `rows` with `k`: a GET, so the browser's cache answers repeats. */
  const position = (rows, k, signal) => {
    const query = new URLSearchParams({ board: toPositionText(rows), k: String(k) });
    return get("/position", query, { board: rows, k })(signal);
  };
  /** GET /trace: `engine`'s search tree of `rows` (k null: the server's default), from node `node`. */
  const trace = (rows, k, engine, node = 0, signal) => {
    const query = new URLSearchParams({ board: toPositionText(rows), engine, node: String(node) });
    if (k !== null && k !== undefined) query.set("k", String(k));
    return get("/trace", query, { board: rows, k, engine })(signal);
  };
  return {
    move: post("/move"), analyze: post("/analyze"), state: post("/state"), engines: get("/engines"), position,
    trace,
  };
}

/**
 * `ask()`'s answer; when the server cannot be reached (or the browser knows it is offline, and then
 * nothing is sent), the answer the browser makes itself (offline.js) for `path` with `payload`, or
 * an "offline" ApiError that says in words what waits for the server (`words`, when given: then
 * nothing is answered here).
 */
async function orOffline(path, payload, ask, words) {
  let failure = new ApiError("offline", offlineMessage());
  if (globalThis.navigator?.onLine !== false) {
    try {
      return await ask();
    } catch (error) {
      if (!(error instanceof ApiError) || error.kind !== "offline") throw error;
      failure = error;
    }
  }
  let why = words;
  if (why === null) {
    let offline;
    try {
      offline = await import("./offline.js");
    } catch {
      throw failure; // the page was not kept for offline use (no service worker): it cannot load more
    }
    const answer = await offline.answerOffline(path, payload).catch(() => null);
    if (answer) return answer;
    why = offline.unavailableWords(path, payload);
  }
  throw new ApiError("offline", `${failure.message} ${why}`);
}

// Whether `board` (rows of text) is of a size the server searches for free; false for no board.
function free(board) {
  return Array.isArray(board) && board.length > 0 && isFreeSize(board.length, board[0].length);
}

async function withRetry(attempt, retries, signal) {
  for (let tries = 0; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      const wait = retryDelay(error, tries);
      if (wait === null || tries >= retries || signal?.aborted) throw error;
      await delay(wait, signal);
    }
  }
}

// The ms to wait before sending a failed request again by itself, or null when it must not be: a
// lost connection and a busy worker (after its Retry-After) may pass; a 429 is the player's to retry.
function retryDelay(error, tries) {
  if (!(error instanceof ApiError)) return null;
  const backoff = RETRY_DELAY_MS * (tries + 1);
  if (error.kind === "offline") return backoff;
  if (error.kind !== "busy") return null;
  if (error.retryAfter === null) return backoff;
  return error.retryAfter <= MAX_AUTO_RETRY_WAIT_S ? error.retryAfter * 1000 : null;
}

// A POST of `payload` as JSON, or a GET when `payload` is null; its JSON answer, or an ApiError.
export async function requestJson(url, payload, timeoutMs, outerSignal) {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const forwardAbort = () => controller.abort();
  outerSignal?.addEventListener("abort", forwardAbort, { once: true });
  let response;
  try {
    response = await fetch(url, payload === null
      ? { method: "GET", headers: { Accept: "application/json" }, signal: controller.signal }
      : {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify(payload),
        signal: controller.signal,
      });
  } catch (error) {
    if (outerSignal?.aborted) throw abortError();
    if (timedOut) throw new ApiError("timeout", "The server took too long to answer.");
    throw new ApiError("offline", offlineMessage());
  } finally {
    clearTimeout(timer);
    outerSignal?.removeEventListener("abort", forwardAbort);
  }
  const body = await response.json().catch(() => null);
  if (response.ok && body) return body;
  throw errorFor(response.status, body, retryAfterOf(response, body));
}

function errorFor(status, body, retryAfter) {
  const detail = body && typeof body.error === "string" ? body.error : "";
  if (status === 429) {
    // "0" would invite an immediate, equally refused request.
    const wait = Math.max(1, retryAfter ?? DEFAULT_LIMIT_WAIT_S);
    return limitedError(Date.now() + wait * 1000, status);
  }
  if (status === 503) {
    return new ApiError("busy", "The server is busy right now.", { status, retryAfter });
  }
  if (status >= 500 || status === 200) {
    return new ApiError("server", `The server had a problem (HTTP ${status}).`, { status });
  }
  // 400/409/413: the request itself was refused; sending it again will not help.
  return new ApiError("rejected", detail || `The server refused the request (HTTP ${status}).`, { status });
}

/** The refusal of a search until `until`: from a 429 (`status`), or the client's own before then. */
function limitedError(until, status = null) {
  return new ApiError("limited", LIMITED_WORDS, { status, retryAfter: secondsLeft(until), until });
}

// The wait a refusal asks for, in whole seconds: its Retry-After (seconds or an HTTP date), else the
// JSON body's retry_after, else null.
function retryAfterOf(response, body) {
  const header = response.headers.get("Retry-After")?.trim();
  if (header && /^[0-9]+$/.test(header)) return Number(header);
  const date = header ? Date.parse(header) : NaN;
  if (!Number.isNaN(date)) return secondsLeft(date);
  const seconds = body?.retry_after;
  return Number.isFinite(seconds) && seconds >= 0 ? Math.ceil(seconds) : null;
}

function offlineMessage() {
  return globalThis.navigator?.onLine === false
    ? "You appear to be offline."
    : "Could not reach the server.";
}

function abortError() {
  return new DOMException("The request was cancelled.", "AbortError");
}

function delay(ms, signal) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(abortError());
    }, { once: true });
  });
}
