// The puzzles' HTTP API (web/puzzles/routes.py): read, list, the day's one, and a move judged by
// the server.  Each call resolves to the JSON answer or rejects with api.js's ApiError.

import { requestJson } from "./api.js";

const TIMEOUT_MS = 20000;

/** A client: puzzle(id), daily(), list({board, task, after, limit}), move(id, moves, reveal). */
export function createPuzzleApi({ baseUrl = "", timeoutMs = TIMEOUT_MS } = {}) {
  const get = (path, signal) => requestJson(baseUrl + path, null, timeoutMs, signal);
  return {
    puzzle: (id, signal) => get(`/puzzles/${encodeURIComponent(id)}`, signal),
    daily: (signal) => get("/puzzles/daily", signal),
    list({ board = "", task = "", after = "", limit = 100 } = {}, signal) {
      const query = new URLSearchParams({ limit: String(limit) });
      if (board) query.set("board", board);
      if (task) query.set("task", task);
      if (after) query.set("after", after);
      return get(`/puzzles?${query}`, signal);
    },
    /** POST /puzzles/{id}/moves: `moves` are {row, col} from 0, the new one last (or, with reveal, none). */
    move: (id, moves, reveal = false, signal) =>
      requestJson(`${baseUrl}/puzzles/${encodeURIComponent(id)}/moves`, { moves, reveal }, timeoutMs, signal),
  };
}
