// A room's game on this page: the room as the server tells it (its state, then the events of its
// stream), this page's seat (none for a spectator), the moves and rematches it sends, and the
// state of its connection.  The page decides nothing: a move shows once the server took it (its
// answer, or the stream's event, whichever comes first).

import { requestJson } from "./api.js";
import {
  fromState, historyOf, lastMove, presenceWords, scoreOf, sideOf, winnerOf, withAnswer, withEvent,
} from "./room-state.js";

const TIMEOUT_MS = 10000;
const EVENTS = ["state", "move", "end", "join", "leave", "rematch"];
// After the server refused the stream (a 429 or 503: its streams are full), a new one is tried
// this long after: the Retry-After the server sends (web/rooms/budget.py), which EventSource hides.
const RECONNECT_MS = 5000;
// A stream the browser is reconnecting is said lost only once it has been down this long.
const LOST_AFTER_MS = 4000;

/** The rooms' API; each call resolves to the JSON answer or rejects with an ApiError. */
export const roomApi = {
  create: (rules) => requestJson("/rooms", rules, TIMEOUT_MS),
  seat: (id, invite) => requestJson(`/rooms/${id}/seats`, { invite }, TIMEOUT_MS),
  state: (id) => requestJson(`/rooms/${id}`, null, TIMEOUT_MS),
  move: (id, token, row, col) => requestJson(`/rooms/${id}/moves`, { token, move: { row, col } }, TIMEOUT_MS),
  rematch: (id, token) => requestJson(`/rooms/${id}/rematch`, { token }, TIMEOUT_MS),
};

/**
 * The game of room `state` (a RoomState) for `seat` ({seat, token}, or null for a spectator).
 * `onChange(view)` after every change; `onGameOver(winner)` once per game that ends while the page
 * watches ("x", "o" or null for a draw).  Returns {view, start, play, rematch, stop}.
 */
export function createRoomGame({
  state, seat, api = roomApi, onChange, onGameOver = () => {}, openEvents = (url) => new EventSource(url),
}) {
  const id = state.room;
  const model = { room: fromState(state), connection: "connecting", busy: null, error: null };
  let source = null;
  let retry = 0;
  let lostTimer = 0;
  const changed = () => onChange(view());
  const mySide = () => sideOf(model.room, seat?.seat);

  /** Take in the room's next state; a game that ends here is told once. */
  function update(next) {
    const before = model.room;
    model.room = next;
    if (before.game === next.game && before.status === "in_progress" && next.status !== "in_progress") {
      onGameOver(winnerOf(next));
    }
    changed();
  }

  function connect() {
    const query = seat ? `?token=${encodeURIComponent(seat.token)}` : "";
    source = openEvents(`/rooms/${id}/events${query}`);
    source.addEventListener("open", () => {
      clearTimeout(lostTimer);
      model.connection = "open";
      changed();
    });
    source.addEventListener("error", () => {
      if (source.readyState === 2) { // CLOSED: the server answered with an error
        model.connection = "lost";
        changed();
        refused();
        return;
      }
      // The browser reconnects by itself: the server ends every stream after its lifetime, and the
      // new one is open within its 2 s retry; only a connection still down later is said lost.
      clearTimeout(lostTimer);
      lostTimer = setTimeout(() => {
        model.connection = "lost";
        changed();
      }, LOST_AFTER_MS);
    });
    for (const type of EVENTS) {
      source.addEventListener(type, (message) => {
        const event = { id: Number(message.lastEventId), type, data: JSON.parse(message.data) };
        update(withEvent(model.room, event));
      });
    }
  }

  /** The stream was refused: ask the room why; a room that is still there is streamed again soon. */
  async function refused() {
    try {
      update(withAnswer(model.room, await api.state(id)));
      retry = setTimeout(connect, RECONNECT_MS);
    } catch (error) {
      model.error = { message: error.message, retryable: false };
      changed();
    }
  }

  async function send(busy, call) {
    model.busy = busy;
    model.error = null;
    changed();
    try {
      const answer = await call();
      model.busy = null;
      update(withAnswer(model.room, answer));
    } catch (error) {
      model.busy = null;
      model.error = { message: error.message || "Something went wrong.", retryable: false };
      changed();
    }
  }

  function primary(room, me) {
    if (!me || room.status === "in_progress") return { label: "Rematch", hidden: true };
    if (room.rematch.includes(me)) return { label: "Rematch asked", disabled: true };
    return { label: room.rematch.length ? "Accept the rematch" : "Rematch" };
  }

  function view() {
    const room = model.room;
    const me = mySide();
    const history = historyOf(room);
    const over = room.status !== "in_progress";
    return {
      mode: "room",
      rows: room.rows, cols: room.cols, k: room.k, level: null, human: me ?? "x",
      board: history[history.length - 1], history,
      toMove: room.toMove, status: room.status, line: room.line, last: lastMove(room),
      pending: null, busy: model.busy, error: model.error, hints: null, engine: null, engines: null, watching: false,
      humanCanPlay: Boolean(me) && !over && room.toMove === me && !model.busy,
      canUndo: false, canRestore: false, canRedo: false, canHint: false,
      score: scoreOf(room),
      primary: primary(room, me),
      room: {
        id, me, seat: seat?.seat ?? null, game: room.game, connection: model.connection,
        presence: presenceWords(room, me, model.connection), friendSeated: room.players.x.seated && room.players.o.seated,
      },
    };
  }

  return {
    view,

    /** Draw the room, then open its stream. */
    start() {
      changed();
      connect();
    },

    /** This seat's stone on (row, col), sent to the server; ignored when it is not this page's to play. */
    play(row, col) {
      const room = model.room;
      const me = mySide();
      const board = historyOf(room)[room.moves.length];
      if (!me || model.busy || room.status !== "in_progress" || room.toMove !== me || board[row][col] !== ".") {
        return false;
      }
      send("move", () => api.move(id, seat.token, row, col));
      return true;
    },

    /** Ask for a rematch (or accept the friend's), once the game has ended. */
    rematch() {
      if (!mySide() || model.busy || model.room.status === "in_progress") return;
      send("rematch", () => api.rematch(id, seat.token));
    },

    /** Close the stream (the page leaves the room). */
    stop() {
      clearTimeout(retry);
      clearTimeout(lostTimer);
      source?.close();
    },
  };
}
