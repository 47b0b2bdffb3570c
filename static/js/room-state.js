// A room as the page holds it: the server's state (GET /rooms/{id}, a move's answer, the stream's
// "state" event) and every event after it, applied in order.  Pure functions, and no rules: the
// status, the winning line, the side to move and the score are the server's words.
//
// room = {
//   id, rows, cols, k, game,           // the rules, and the game's number in the room
//   moves: [[row, col], ...],          // the current game's moves, X's first
//   status, line, toMove,              // as the server says ("in_progress", [[r, c]...] | null, "x" | null)
//   reason,                            // why a finished game ended ("line", "resigned"...), else null
//   players: {x: {seat, seated, connected, wins, name, away}, o: {...}},  // seat: "host" | "guest"
//   draws, rematch: ["x"?, "o"?],      // the sides asking for a rematch
//   offer: {kind, side} | null,        // a draw or a takeback asked for, waiting for its answer
//   claimAfter,                        // seconds a friend must be away before the game may be claimed
//   event,                             // the id of the last event taken in
// }

import { EMPTY } from "./state.js";

const MARK = { x: "X", o: "O" };

/** A room from the server's state (the RoomState of /openapi.json). */
export function fromState(state) {
  return {
    id: state.room,
    rows: state.rows,
    cols: state.cols,
    k: state.k,
    game: state.game,
    moves: state.moves,
    status: state.status,
    line: state.line ?? null,
    toMove: state.to_move ?? null,
    reason: state.reason ?? null,
    players: state.players,
    draws: state.draws,
    rematch: state.rematch ?? [],
    offer: state.offer ?? null,
    claimAfter: state.claim_after ?? 60,
    event: state.event,
  };
}

/** Whether `event` follows on from what `room` holds (no event missed between them). */
export function followsOn(room, { id, type }) {
  return type === "state" || type === "heartbeat" || !room || id <= room.event + 1;
}

/**
 * The room after an event `{id, type, data}` of its stream; an event it already holds (an id not
 * above its own) changes nothing.  A "state" event (or an answer with a later event) replaces it.
 */
export function withEvent(room, { id, type, data }) {
  if (type === "state") return room && id < room.event ? room : fromState(data);
  if (type === "heartbeat" || !room || id <= room.event) return room;
  const next = { ...room, event: id };
  switch (type) {
    case "move":
      if (data.game !== room.game) return next;
      return {
        ...next,
        moves: [...room.moves, [data.move.row, data.move.col]],
        status: data.status,
        line: data.line ?? null,
        toMove: data.to_move ?? null,
        offer: null, // a move withdraws any offer
      };
    case "end":
      return {
        ...next, status: data.status, line: data.line ?? null, toMove: null, reason: data.reason ?? null,
        players: data.players, draws: data.draws, offer: null,
      };
    case "join":
    case "leave":
    case "name":
      return { ...next, players: data.players };
    case "offer":
      return { ...next, offer: data.status === "made" ? { kind: data.kind, side: data.side } : null };
    case "takeback":
      if (data.game !== room.game) return next;
      return { ...next, moves: room.moves.slice(0, data.ply), toMove: data.to_move, status: "in_progress", line: null };
    case "rematch":
      if (!data.started) return { ...next, rematch: [...new Set([...room.rematch, ...data.offers])].sort() };
      return {
        ...next, game: data.game, moves: [], status: "in_progress", line: null, toMove: "x", reason: null,
        players: data.players, rematch: [], offer: null,
      };
    default:
      return next;
  }
}

/** The room after a move's or a rematch's answer (a RoomState), unless the stream already took it further. */
export function withAnswer(room, state) {
  return !room || state.event > room.event ? fromState(state) : room;
}

/** Every position of the current game, from the empty board: the stones placed in the order played. */
export function historyOf(room) {
  const history = [Array.from({ length: room.rows }, () => EMPTY.repeat(room.cols))];
  room.moves.forEach(([row, col], ply) => {
    const board = history[history.length - 1];
    const mark = ply % 2 === 0 ? "x" : "o"; // X always moves first
    history.push(board.map((text, r) => (r !== row ? text : text.slice(0, col) + mark + text.slice(col + 1))));
  });
  return history;
}

/** The side `seat` ("host" | "guest") plays in the current game, or null (a spectator). */
export function sideOf(room, seat) {
  if (!seat) return null;
  return ["x", "o"].find((side) => room.players[side].seat === seat) ?? null;
}

/** The score by side in the current game: each side's seat's wins, and the draws. */
export function scoreOf(room) {
  return { x: room.players.x.wins, o: room.players.o.wins, draw: room.draws };
}

/** The last move of the current game, {row, col, by}, or null. */
export function lastMove(room) {
  const count = room.moves.length;
  if (count === 0) return null;
  const [row, col] = room.moves[count - 1];
  return { row, col, by: count % 2 === 1 ? "x" : "o" };
}

/** The winner of a finished game ("x", "o"), or null (a draw, or a game still on). */
export function winnerOf(room) {
  return room.status === "x_won" ? "x" : room.status === "o_won" ? "o" : null;
}

/**
 * What the room panel says of the other side and of this page's connection, in words: `me` is this
 * page's side (null: a spectator), `connection` "connecting" | "open" | "lost".
 */
export function presenceWords(room, me, connection) {
  if (connection === "reconnecting") return "Reconnecting to the room…";
  if (connection === "refused") return "The server is busy: connecting again in a few seconds…";
  if (connection === "connecting") return "Connecting to the room…";
  if (!me) {
    const here = ["x", "o"].filter((side) => room.players[side].connected).map((side) => playerName(room, side));
    const who = here.length === 2 ? "Both players are here" : here.length === 1 ? `${here[0]} is here`
      : "Neither player is here";
    return `You are watching. ${who}.`;
  }
  const friend = room.players[me === "x" ? "o" : "x"];
  const name = friend.name ?? "Your friend";
  if (!friend.seated) return "Your friend has not opened the invite yet.";
  return friend.connected ? `${name} is here.` : `${name} is away (the page is closed or offline).`;
}

/** A side as a spectator names it: its seat's name and mark ("Ada (X)"), or the mark alone. */
export function playerName(room, side) {
  const name = room.players[side].name;
  return name ? `${name} (${MARK[side]})` : MARK[side];
}

/** Whether the friend of `me` has been away long enough for `me` to claim the game, at the page's
 * clock `now` (ms), `since` being when the page last heard how long the friend had been away. */
export function claimable(room, me, now, since) {
  if (!me || room.status !== "in_progress") return false;
  const friend = room.players[me === "x" ? "o" : "x"];
  if (!friend.seated || friend.connected || friend.away == null) return false;
  return friend.away + (now - since) / 1000 >= room.claimAfter;
}
