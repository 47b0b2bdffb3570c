// The move server's HTTP API: fetch with a timeout, one retry for transient
// failures, and every failure mapped to an ApiError the page can explain.

import { toPositionText } from "./position-text.js";

const DEFAULT_TIMEOUT_MS = 20000; // the engine's budget is ~1 s; big boards and cold caches take longer
const RETRY_DELAY_MS = 400;

/** A failed request: `kind` is timeout|offline|busy|server|rejected; `retryable` says whether Retry may help. */
export class ApiError extends Error {
  constructor(kind, message, status = null) {
    super(message);
    this.name = "ApiError";
    this.kind = kind;
    this.status = status;
    this.retryable = kind !== "rejected";
  }
}

/**
 * An API client: move(payload), analyze(payload), state(payload), engines(), position(rows, k),
 * trace(rows, k, engine, node); each
 * resolves to the JSON answer or rejects with ApiError (or AbortError when `signal` aborts).
 */
export function createApi({ baseUrl = "", timeoutMs = DEFAULT_TIMEOUT_MS, retries = 1 } = {}) {
  const post = (path) => (payload, signal) =>
    withRetry(() => requestJson(baseUrl + path, payload, timeoutMs, signal), retries, signal);
  const get = (path) => (signal) =>
    withRetry(() => requestJson(baseUrl + path, null, timeoutMs, signal), retries, signal);
  /** What GET /position answers for `rows` with `k`: a GET, so the browser's cache answers repeats. */
  const position = (rows, k, signal) => {
    const query = new URLSearchParams({ board: toPositionText(rows), k: String(k) });
    return get(`/position?${query.toString().replaceAll("%2F", "/")}`)(signal);
  };
  /** GET /trace: `engine`'s search tree of `rows` (k null: the server's default), from node `node`. */
  const trace = (rows, k, engine, node = 0, signal) => {
    const query = new URLSearchParams({ board: toPositionText(rows), engine, node: String(node) });
    if (k !== null && k !== undefined) query.set("k", String(k));
    return get(`/trace?${query.toString().replaceAll("%2F", "/")}`)(signal);
  };
  return {
    move: post("/move"), analyze: post("/analyze"), state: post("/state"), engines: get("/engines"), position,
    trace,
  };
}

async function withRetry(attempt, retries, signal) {
  for (let tries = 0; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      const transient = error instanceof ApiError && ["offline", "busy"].includes(error.kind);
      if (!transient || tries >= retries || signal?.aborted) throw error;
      await delay(RETRY_DELAY_MS * (tries + 1), signal);
    }
  }
}

// A POST of `payload` as JSON, or a GET when `payload` is null.
async function requestJson(url, payload, timeoutMs, outerSignal) {
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
  throw errorFor(response.status, body);
}

function errorFor(status, body) {
  const detail = body && typeof body.error === "string" ? body.error : "";
  if (status === 503 || status === 429) {
    return new ApiError("busy", "The server is busy right now.", status);
  }
  if (status >= 500 || status === 200) {
    return new ApiError("server", `The server had a problem (HTTP ${status}).`, status);
  }
  // 400/409/413: the request itself was refused; sending it again will not help.
  return new ApiError("rejected", detail || `The server refused the request (HTTP ${status}).`, status);
}

function offlineMessage() {
  return navigator.onLine === false
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
