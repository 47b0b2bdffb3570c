// A room's game on this page: the room as the server tells it (its state, then the events of its
// stream), this page's seat (none for a spectator), what it sends (moves, rematches, offers and
// their answers, a resignation, a claim, its name), and the state of its connection.  The page
// decides nothing: a move shows once the server took it (its answer, or the stream's event,
// whichever comes first); what the server refuses is said in its words.

import { requestJson } from "./api.js";
import { cellName } from "./cells.js";
import {
  claimable, followsOn, fromState, historyOf, lastMove, presenceWords, scoreOf, sideOf, winnerOf, withAnswer,
  withEvent,
} from "./room-state.js";
import { openRoomStream } from "./room-stream.js";

const TIMEOUT_MS = 10000;

/** The rooms' API; each call resolves to the JSON answer or rejects with an ApiError. */
export const roomApi = {
  create: (rules) => requestJson("/rooms", rules, TIMEOUT_MS),
  seat: (id, invite) => requestJson(`/rooms/${id}/seats`, { invite }, TIMEOUT_MS),
  state: (id) => requestJson(`/rooms/${id}`, null, TIMEOUT_MS),
  move: (id, token, row, col) => requestJson(`/rooms/${id}/moves`, { token, move: { row, col } }, TIMEOUT_MS),
  rematch: (id, token) => requestJson(`/rooms/${id}/rematch`, { token }, TIMEOUT_MS),
  // resign, claim, draw, takeback, decline: a seat's action, answered by the room after it.
  act: (id, action, token) => requestJson(`/rooms/${id}/${action}`, { token }, TIMEOUT_MS),
  name: (id, token, name) => requestJson(`/rooms/${id}/name`, { token, name }, TIMEOUT_MS),
  holder: (id, token) => requestJson(`/rooms/${id}/holder`, { token }, TIMEOUT_MS),
  inviteCode: async (id, invite) => {
    const answer = await fetch(`/rooms/${id}/invite-code`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ invite }),
    });
    if (!answer.ok) throw new Error("no code");
    return answer.text();
  },
};

/**
 * The game of room `state` (a RoomState) for `seat` ({seat, token}, or null for a spectator).
 * `onChange(view)` after every change; `onGameOver(winner)` once per game that ends while the page
 * watches ("x", "o" or null for a draw); `onTurn()` when it becomes this seat's turn by the friend's
 * move.  Returns {view, start, play, rematch, act, name, stop}.
 */
export function createRoomGame({
  state, seat, api = roomApi, onChange, onGameOver = () => {}, onTurn = () => {},
  openEvents, locks, Channel, clock = globalThis, now = () => Date.now(),
}) {
  const id = state.room;
  const model = {
    room: fromState(state), connection: "connecting", busy: null, error: null, notice: null, heardAt: now(),
  };
  let stream = null;
  let wasDown = false;
  let claimTimer = 0;
  const changed = () => onChange(view());
  const mySide = () => sideOf(model.room, seat?.seat);

  /** Take in the room's next state; a game that ends here is told once, as is the turn coming back. */
  function update(next) {
    const before = model.room;
    model.room = next;
    if (before.players !== next.players) model.heardAt = now();
    if (before.game === next.game && before.status === "in_progress" && next.status !== "in_progress") {
      onGameOver(winnerOf(next));
    }
    const me = mySide();
    if (me && next.status === "in_progress" && next.toMove === me && before.toMove !== me && next.moves.length) {
      onTurn();
    }
    scheduleClaim();
    changed();
  }

  /** Redraw when the friend's absence makes the game claimable (the page's own clock says when). */
  function scheduleClaim() {
    clock.clearTimeout(claimTimer);
    const me = mySide();
    const friend = me && model.room.players[me === "x" ? "o" : "x"];
    if (!friend || friend.connected || friend.away == null || model.room.status !== "in_progress") return;
    const wait = (model.room.claimAfter - friend.away) * 1000 - (now() - model.heardAt);
    if (wait > 0) claimTimer = clock.setTimeout(changed, wait + 50);
  }

  async function refresh() {
    try {
      update(fromState(await api.state(id)));
    } catch (error) {
      model.error = { message: error.message, retryable: false };
      changed();
    }
  }

  function heard(event) {
    if (event.type === "heartbeat") return;
    if (!followsOn(model.room, event)) {
      refresh(); // an event was missed (this tab came in between two): the room as it stands
      return;
    }
    const before = model.room;
    const next = withEvent(before, event);
    if (wasDown && event.type === "state") {
      wasDown = false;
      model.notice = backWords(before, next);
    } else if (next !== before && event.type !== "join" && event.type !== "leave") {
      model.notice = null;
    }
    if (next !== before) update(next);
  }

  /** What the page says once its stream is back: the move it missed, if any. */
  function backWords(before, after) {
    if (after.game === before.game && after.moves.length > before.moves.length) {
      const last = lastMove(after);
      const who = last.by === mySide() ? "You" : mySide() ? (after.players[last.by].name ?? "Your friend") : last.by.toUpperCase();
      return `Back: ${who} played ${cellName(last.row, last.col)}.`;
    }
    return "Back: nothing was played meanwhile.";
  }

  function connect() {
    const query = seat ? `?token=${encodeURIComponent(seat.token)}` : "";
    stream = openRoomStream({
      url: `/rooms/${id}/events${query}`,
      key: `tictactoe-room:${id}:${seat?.seat ?? "watch"}`,
      onEvent: heard,
      onConnection: (connection) => {
        if (connection !== "open") wasDown = true;
        // Back: a request that failed for want of a network is no longer the page's news.
        if (connection === "open" && model.error?.network) model.error = null;
        model.connection = connection;
        changed();
      },
      onRefused: refresh,
      ...(openEvents ? { openEvents } : {}), ...(locks !== undefined ? { locks } : {}),
      ...(Channel !== undefined ? { Channel } : {}),
    });
  }

  async function send(busy, call) {
    model.busy = busy;
    model.error = null;
    changed();
    try {
      const answer = await call();
      model.busy = null;
      model.notice = null;
      update(withAnswer(model.room, answer));
    } catch (error) {
      model.busy = null;
      const lost = error.kind === "offline" || error.kind === "timeout";
      // Not sent, or sent without an answer: the stream is opened again, and its state says which.
      if (lost) stream?.reconnect();
      model.error = {
        message: lost ? "The move could not be confirmed: reconnecting to the room to see where it stands."
          : error.message || "Something went wrong.",
        retryable: false,
        network: lost,
      };
      changed();
    }
  }

  function primary(room, me) {
    if (!me || room.status === "in_progress") return { label: "Rematch", hidden: true };
    if (room.rematch.includes(me)) return { label: "Rematch asked", disabled: true };
    return { label: room.rematch.length ? "Accept the rematch" : "Rematch" };
  }

  /** What this seat may do now besides moving, each with the words the room panel shows. */
  function choices(room, me) {
    if (!me) return { offer: room.offer, canResign: false, canClaim: false, canDraw: false, canTakeback: false };
    const playing = room.status === "in_progress";
    const mine = room.moves.some((_, ply) => (ply % 2 === 0 ? "x" : "o") === me);
    return {
      offer: room.offer,
      offerIsMine: room.offer?.side === me,
      canResign: playing,
      canClaim: claimable(room, me, now(), model.heardAt),
      canDraw: playing && !room.offer,
      canTakeback: playing && !room.offer && mine,
    };
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
        id, me, seat: seat?.seat ?? null, game: room.game, connection: model.connection, reason: room.reason,
        presence: model.notice ?? presenceWords(room, me, model.connection),
        friendSeated: room.players.x.seated && room.players.o.seated,
        names: { x: room.players.x.name ?? null, o: room.players.o.name ?? null },
        rematchAsked: room.rematch.filter((side) => side !== me),
        ...choices(room, me),
      },
    };
  }

  return {
    view,

    /** Draw the room, then follow its stream. */
    start() {
      changed();
      scheduleClaim();
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

    /** A seat's action: "resign", "claim", "draw", "takeback" (each also accepts the friend's), "decline". */
    act(action) {
      if (!mySide() || model.busy) return;
      send(action, () => api.act(id, action, seat.token));
    },

    /** Give this seat a name (or take it away with ""). */
    name(given) {
      if (!mySide() || model.busy) return;
      send("name", () => api.name(id, seat.token, given));
    },

    /** Stop following the room (the page leaves it). */
    stop() {
      clock.clearTimeout(claimTimer);
      stream?.stop();
    },
  };
}
