// room-state.js: a room as the page holds it, from the server's state and its stream's events.
// Nothing here decides the game: status, line, side to move and score are the server's words,
// written by hand in these tests as the server sends them.

import "./server-sets.mjs";
import { test } from "node:test";
import assert from "node:assert/strict";

import {
  claimable, followsOn, fromState, historyOf, lastMove, playerName, presenceWords, scoreOf, sideOf, winnerOf,
  withAnswer, withEvent,
} from "../../static/js/room-state.js";

const players = (x, o) => ({
  x: { seat: "host", seated: true, connected: true, wins: 0, ...x },
  o: { seat: "guest", seated: true, connected: true, wins: 0, ...o },
});

// The server's state of a 3x3 room after X b2, O a1 (event 4):
//   o . .
//   . x .
//   . . .
const STATE = {
  room: "Hx7kP2qa", rows: 3, cols: 3, k: 3, game: 1, moves: [[1, 1], [0, 0]], board: ["o..", ".x.", "..."],
  to_move: "x", status: "in_progress", line: null, players: players(), draws: 0, rematch: [], event: 4,
  expires: "2026-11-28T09:30:00Z",
};

const move = (id, ply, side, row, col, status = "in_progress", line = null) => ({
  id, type: "move",
  data: { game: 1, ply, side, move: { row, col }, status, line, to_move: status === "in_progress" ? (side === "x" ? "o" : "x") : null },
});

test("fromState: the server's words as they are", () => {
  const room = fromState(STATE);
  assert.deepEqual(
    [room.id, room.game, room.moves, room.toMove, room.status, room.event],
    ["Hx7kP2qa", 1, [[1, 1], [0, 0]], "x", "in_progress", 4],
  );
});

test("historyOf: the stones placed in the order played, X first, from the empty board", () => {
  assert.deepEqual(historyOf(fromState(STATE)), [["...", "...", "..."], ["...", ".x.", "..."], ["o..", ".x.", "..."]]);
  assert.deepEqual(lastMove(fromState(STATE)), { row: 0, col: 0, by: "o" });
});

test("withEvent: a move is added; an event already held, or of another game, changes nothing", () => {
  const room = fromState(STATE);
  const after = withEvent(room, move(5, 3, "x", 0, 1));
  assert.deepEqual(after.moves, [[1, 1], [0, 0], [0, 1]]);
  assert.equal(after.toMove, "o");
  assert.equal(after.event, 5);
  assert.equal(withEvent(after, move(5, 3, "x", 0, 1)), after, "the same event twice");
  assert.equal(withEvent(after, move(4, 2, "o", 0, 0)), after, "an older event");
  const stale = withEvent(after, { ...move(6, 1, "x", 2, 2), data: { ...move(6, 1, "x", 2, 2).data, game: 0 } });
  assert.deepEqual(stale.moves, after.moves);
});

test("withEvent: the end, presence and a rematch, as the server says them", () => {
  // X wins down column b: o x . / . x . / . x o
  let room = fromState(STATE);
  room = withEvent(room, move(5, 3, "x", 0, 1));
  room = withEvent(room, move(6, 4, "o", 2, 2));
  const line = [[0, 1], [1, 1], [2, 1]];
  room = withEvent(room, move(7, 5, "x", 2, 1, "x_won", line));
  const won = players({ wins: 1 });
  room = withEvent(room, { id: 8, type: "end", data: { game: 1, status: "x_won", winner: "x", line, players: won, draws: 0 } });
  assert.equal(winnerOf(room), "x");
  assert.deepEqual(scoreOf(room), { x: 1, o: 0, draw: 0 });
  const away = players({ wins: 1 }, { connected: false });
  room = withEvent(room, { id: 9, type: "leave", data: { side: "o", players: away } });
  assert.equal(presenceWords(room, "x", "open"), "Your friend is away (the page is closed or offline).");
  room = withEvent(room, { id: 10, type: "rematch", data: { offers: ["x"], started: false } });
  assert.deepEqual(room.rematch, ["x"]);
  // Sides swapped: the host now plays O, with its win.
  const swapped = {
    x: { seat: "guest", seated: true, connected: true, wins: 0 }, o: { seat: "host", seated: true, connected: true, wins: 1 },
  };
  room = withEvent(room, { id: 11, type: "rematch", data: { offers: [], started: true, game: 2, players: swapped } });
  assert.deepEqual([room.game, room.moves, room.status, room.toMove, room.rematch], [2, [], "in_progress", "x", []]);
  assert.equal(sideOf(room, "host"), "o");
  assert.equal(sideOf(room, "guest"), "x");
  assert.equal(sideOf(room, null), null);
  assert.deepEqual(scoreOf(room), { x: 0, o: 1, draw: 0 });
});

test("withAnswer and state events: only a later state replaces the room", () => {
  const room = withEvent(fromState(STATE), move(5, 3, "x", 0, 1));
  assert.equal(withAnswer(room, STATE), room, "an answer older than the stream");
  assert.equal(withEvent(room, { id: 4, type: "state", data: STATE }), room);
  const later = { ...STATE, event: 9, moves: [[1, 1], [0, 0], [0, 1], [2, 2]] };
  assert.equal(withAnswer(room, later).event, 9);
  assert.equal(withEvent(room, { id: 9, type: "state", data: later }).moves.length, 4);
});

test("presenceWords: the friend, the watchers, and this page's connection", () => {
  const room = fromState(STATE);
  assert.equal(presenceWords(room, "x", "open"), "Your friend is here.");
  assert.equal(presenceWords(room, "x", "reconnecting"), "Reconnecting to the room…");
  assert.equal(presenceWords(room, "x", "refused"), "The server is busy: connecting again in a few seconds…");
  assert.equal(presenceWords(room, "x", "connecting"), "Connecting to the room…");
  const waiting = fromState({ ...STATE, players: players({}, { seated: false, connected: false }) });
  assert.equal(presenceWords(waiting, "x", "open"), "Your friend has not opened the invite yet.");
  assert.equal(presenceWords(room, null, "open"), "You are watching. Both players are here.");
  assert.equal(presenceWords(waiting, null, "open"), "You are watching. X is here.");
});

test("withEvent: an offer made and answered, a takeback, a name, an end's reason", () => {
  let room = fromState(STATE); // X b2, O a1; X to move
  room = withEvent(room, { id: 5, type: "offer", data: { kind: "takeback", side: "x", status: "made" } });
  assert.deepEqual(room.offer, { kind: "takeback", side: "x" });
  room = withEvent(room, { id: 6, type: "offer", data: { kind: "takeback", side: "x", status: "accepted" } });
  assert.equal(room.offer, null);
  room = withEvent(room, { id: 7, type: "takeback", data: { game: 1, ply: 0, side: "x", to_move: "x" } });
  assert.deepEqual([room.moves, room.toMove, room.status], [[], "x", "in_progress"]);
  room = withEvent(room, { id: 8, type: "name", data: { side: "o", name: "Zed", players: players({}, { name: "Zed" }) } });
  assert.equal(playerName(room, "o"), "Zed (O)");
  assert.equal(presenceWords(room, "x", "open"), "Zed is here.");
  room = withEvent(room, { id: 9, type: "offer", data: { kind: "draw", side: "o", status: "made" } });
  room = withEvent(room, move(10, 1, "x", 1, 1));
  assert.equal(room.offer, null, "a move withdraws any offer");
  room = withEvent(room, {
    id: 11, type: "end",
    data: { game: 1, status: "x_won", winner: "x", line: null, reason: "resigned", players: players({ wins: 1 }), draws: 0 },
  });
  assert.deepEqual([room.status, room.reason, room.toMove], ["x_won", "resigned", null]);
  assert.equal(withEvent(room, { id: null, type: "heartbeat", data: {} }), room, "a heartbeat changes nothing");
});

test("followsOn: an event past the next id means one was missed; a state or a heartbeat never does", () => {
  const room = fromState(STATE); // event 4
  assert.equal(followsOn(room, { id: 5, type: "move" }), true);
  assert.equal(followsOn(room, { id: 4, type: "move" }), true, "one already held");
  assert.equal(followsOn(room, { id: 6, type: "move" }), false);
  assert.equal(followsOn(room, { id: 9, type: "state" }), true);
  assert.equal(followsOn(room, { id: null, type: "heartbeat" }), true);
});

test("claimable: once the friend has been away the room's claim_after, by the page's clock", () => {
  const away = fromState({ ...STATE, claim_after: 60, players: players({}, { connected: false, away: 50 }) });
  assert.equal(claimable(away, "x", 1000, 1000), false);
  assert.equal(claimable(away, "x", 1000 + 9999, 1000), false);
  assert.equal(claimable(away, "x", 1000 + 10000, 1000), true);
  assert.equal(claimable(away, null, 1000 + 10000, 1000), false, "a spectator claims nothing");
  assert.equal(claimable(away, "o", 1000 + 99999, 1000), false, "the one away cannot claim");
});
