// The game controller: holds the model, turns user actions into new states,
// asks the server whatever the current position still needs, and persists.
// It never decides the game itself; the server's answers do.

import {
  canPlay, canRedo, canUndo, currentBoard, fromSaved, isOver, lastMove, newGame, place, redo, requestFor,
  sideToMove, undo, winner, withEngineMove, withStatus,
} from "./state.js";
import { createCountdown, secondsLeft } from "./refusal.js";
import { counted, fieldFor, loadTally, saveTally, scoreFor } from "./tally.js";
import { SPEEDS, createWatchLoop } from "./watch.js";
import { t } from "./words.js";

const GAME_KEY = "game";

/**
 * A game bound to an API client and a store.  `onChange(view)` receives a
 * plain view object after every change; `onGameOver(winner)` is called once
 * per finished game ("x", "o" or null for a draw).
 */
export function createGame({ api, store, settings, restore = true, onChange, onGameOver = () => {} }) {
  const model = {
    game: (restore && fromSaved(store.get(GAME_KEY))) || newGame(settings),
    busy: null, // "check" | "engine" | "hint" while a request is out
    // {message, retryable, action: "advance"|"hint", kind, until (a 429's end, else null), resend (the
    // refused move goes again by itself when the wait is over)}
    error: null,
    hints: null, // {position, moves, best, value, plies, proven}
    tally: loadTally(store),
    // The game in progress that New game replaced: Undo on the new game's first turn brings it back.
    left: null,
    // Whether the move in flight was already sent again by itself after a refusal (it is, once).
    resent: false,
  };
  let inFlight = null; // the AbortController of the request in flight
  let generation = 0; // bumped whenever the game changes under a request
  let speed = SPEEDS.normal; // watch mode: ms between two moves

  const changed = () => onChange(view());
  const save = () => store.set(GAME_KEY, model.game);
  const watching = createWatchLoop({ step: watchStep, delay: () => speed, onStop: () => changed() });
  // A refused search's wait: the page counts it down; when it is over a refused move goes again by
  // itself (once: the player pressed nothing wrong), anything else waits for Retry.
  const waiting = createCountdown((seconds) => {
    if (seconds === 0 && model.error?.resend) resend();
    else changed();
  });

  /** Watch mode: one engine move for the side to move; resolves to whether the game goes on. */
  async function watchStep() {
    if (model.game.mode !== "watch" || isOver(model.game)) return false;
    model.game = { ...model.game, pending: "engine" };
    await advance();
    return !isOver(model.game) && !model.game.pending && !model.error;
  }

  function cancel() {
    watching.stop();
    waiting.stop();
    generation++;
    inFlight?.abort();
    inFlight = null;
    model.busy = null;
    model.error = null;
    model.resent = false;
  }

  /** The refused move, sent again once its wait is over (in watch mode: the engines play on). */
  function resend() {
    model.resent = true;
    model.error = null;
    if (model.game.mode === "watch") watching.start();
    else advance();
  }

  async function request(call, payload) {
    const mine = ++generation;
    inFlight = new AbortController();
    try {
      const answer = await call(payload, inFlight.signal);
      return mine === generation ? answer : null;
    } catch (error) {
      if (mine !== generation || error.name === "AbortError") return null;
      throw error;
    }
  }

  /** Ask the server whatever the position still needs (its status, then the engine's move). */
  async function advance() {
    while (model.game.pending) {
      const step = model.game.pending;
      model.busy = step;
      model.error = null;
      changed();
      const payload = requestFor(model.game);
      let answer;
      try {
        answer = step === "check"
          ? await request(api.state, { board: payload.board, k: payload.k })
          : await request(api.move, payload);
      } catch (error) {
        fail(error, "advance");
        return;
      }
      if (answer === null) return; // superseded by a newer action
      if (step === "check") {
        model.game = withStatus(model.game, answer);
      } else if (validMove(answer, model.game)) {
        model.game = withEngineMove(model.game, answer);
      } else {
        fail({ message: t("The server's answer did not fit the board."), retryable: true }, "advance");
        return;
      }
      save();
    }
    model.busy = null;
    model.resent = false;
    recordResult();
    changed();
  }

  function fail(error, action) {
    model.busy = null;
    const limited = error.kind === "limited";
    model.error = {
      message: error.message || t("Something went wrong."),
      retryable: error.retryable !== false,
      action,
      kind: error.kind ?? null,
      until: limited ? error.until : null,
      resend: limited && action === "advance" && !model.resent,
    };
    if (model.error.until !== null) waiting.start(model.error.until); // it draws the page
    else changed();
  }

  /** The error as the page shows it: `wait` is the seconds a refusal has left, and Retry waits for it. */
  function errorView() {
    const error = model.error;
    if (!error) return null;
    const wait = error.until === null ? 0 : secondsLeft(error.until);
    return { ...error, wait, retryable: error.retryable && wait === 0 };
  }

  function recordResult() {
    const game = model.game;
    if (!isOver(game) || game.recorded) return;
    model.game = { ...game, recorded: true };
    if (game.mode === "watch") { // watched games are not scored
      save();
      onGameOver(winner(game));
      return;
    }
    model.tally = counted(model.tally, game, fieldFor(game.mode, game.human, winner(game)));
    saveTally(store, model.tally);
    save();
    onGameOver(winner(game));
  }

  function unrecordResult() {
    const game = model.game;
    if (game.recorded !== true || game.mode === "watch") return;
    model.tally = counted(model.tally, game, fieldFor(game.mode, game.human, winner(game)), -1);
    saveTally(store, model.tally);
  }

  function hintable() {
    const game = model.game;
    if (isOver(game) || game.pending || model.busy || game.mode === "watch") return false;
    return game.mode === "two" || sideToMove(currentBoard(game)) === game.human;
  }

  /** Show (or hide) every empty cell's value from POST /analyze. */
  async function hint() {
    if (model.hints && model.hints.position === currentBoard(model.game).join("/")) {
      model.hints = null;
      changed();
      return;
    }
    if (!hintable()) return;
    const position = currentBoard(model.game).join("/");
    model.busy = "hint";
    model.error = null;
    changed();
    let answer;
    try {
      answer = await request(api.analyze, requestFor(model.game));
    } catch (error) {
      fail(error, "hint");
      return;
    }
    if (answer === null) return;
    model.busy = null;
    model.hints = { position, ...readAnalysis(answer) };
    changed();
  }

  /** Whether the game has been played into (so a new one would discard it). */
  function inProgress() {
    const game = model.game;
    if (game.mode === "watch") return false; // nobody's game to lose
    const humanMoves = game.history.filter((b, i) => i > 0 &&
      (game.mode === "two" || sideToMove(game.history[i - 1]) === game.human)).length;
    return !isOver(game) && humanMoves > 0;
  }

  function view() {
    const game = model.game;
    const board = currentBoard(game);
    const position = board.join("/");
    return {
      rows: game.rows,
      cols: game.cols,
      k: game.k,
      level: game.level,
      mode: game.mode,
      human: game.human,
      board,
      history: game.history,
      toMove: sideToMove(board),
      status: game.status,
      line: game.line,
      last: lastMove(game),
      pending: game.pending,
      engine: game.engine,
      engines: game.engines ?? null,
      watching: watching.running(),
      busy: model.busy,
      error: errorView(),
      hints: model.hints && model.hints.position === position ? model.hints : null,
      humanCanPlay: !isOver(game) && !game.pending && game.mode !== "watch" &&
        (game.mode === "two" || sideToMove(board) === game.human),
      canUndo: canUndo(game) || Boolean(model.left),
      canRestore: !canUndo(game) && Boolean(model.left),
      canRedo: canRedo(game),
      canHint: hintable(),
      score: scoreFor(model.tally, game),
    };
  }

  return {
    /** The current view object. */
    view,

    /** Resume whatever the restored game still needs, and draw it. */
    start() {
      changed();
      if (model.game.pending) advance();
    },

    /** A human's stone on (row, col); ignored when it is not theirs to play. Returns whether it was played. */
    play(row, col) {
      if (model.busy === "check" || model.busy === "engine" || !canPlay(model.game, row, col)) {
        return false;
      }
      cancel(); // a hint request may be out
      model.hints = null;
      model.game = place(model.game, row, col);
      save();
      advance();
      return true;
    },

    /**
     * Take up a game from a link: `history` (every position from the empty board) under `settings`,
     * with `answer`, the server's POST /state answer for its last position.  A game that arrives
     * finished is not scored: it was played elsewhere.
     */
    load(nextSettings, history, answer) {
      cancel();
      model.hints = null;
      model.left = null;
      const fresh = newGame(nextSettings);
      const game = history.length < 2 ? fresh : withStatus({ ...fresh, history }, answer);
      // "elsewhere": the result is known but not in this browser's score (Undo takes nothing off).
      model.game = { ...game, recorded: isOver(game) ? "elsewhere" : false };
      save();
      changed();
      if (model.game.pending) advance();
    },

    /** Start a new game with the given settings; a game in progress is kept for Undo to bring back. */
    newGame(nextSettings) {
      const leaving = inProgress() ? model.game : null;
      cancel();
      model.hints = null;
      model.left = leaving;
      model.game = newGame(nextSettings);
      save();
      changed();
      if (model.game.pending) advance();
    },

    /**
     * Take back the last move (against the engine, the human's move and the reply); with no move
     * to take back, bring back the game in progress that New game replaced.  Returns "move",
     * "game" (the left game is back: its settings may differ from the form's) or null.
     */
    undo() {
      if (!canUndo(model.game)) {
        if (!model.left) return null;
        cancel();
        model.hints = null;
        model.game = model.left;
        model.left = null;
        save();
        changed();
        if (model.game.pending) advance();
        return "game";
      }
      cancel();
      unrecordResult();
      model.hints = null;
      model.game = undo(model.game);
      save();
      changed();
      return "move";
    },

    /**
     * Play again the moves the last undo took back, with the server's answers they had (a finished
     * game is scored again); returns whether there was anything to redo.
     */
    redo() {
      if (!canRedo(model.game)) return false;
      cancel();
      model.hints = null;
      model.game = redo(model.game);
      save();
      advance(); // what the position still needs (the engine's reply, if it had not come), then the score
      return true;
    },

    /** Show (or hide) every empty cell's value from POST /analyze. */
    hint,

    /** Repeat the request that failed (in watch mode: resume watching); nothing while a refusal's wait runs. */
    retry() {
      const action = model.error?.action;
      if (!action || !errorView().retryable) return;
      model.error = null;
      if (model.game.mode === "watch") watching.start();
      else if (action === "hint") hint();
      else advance();
    },

    /** Watch mode: start (or resume) the engines' game, or pause it. */
    toggleWatch() {
      if (model.game.mode !== "watch") return;
      if (watching.running()) {
        cancel(); // a move in flight is dropped; resuming asks for it again
        model.game = { ...model.game, pending: null };
        save();
        changed();
      } else if (!isOver(model.game)) {
        model.error = null;
        watching.start();
      }
    },

    /** Watch mode: the delay (ms) between two moves, from the next move on. */
    setSpeed(ms) {
      speed = ms;
    },

    /** Watch mode: change the engines for the rest of this game. */
    setEngines(engines) {
      if (model.game.mode !== "watch") return;
      model.game = { ...model.game, engines: { x: engines.x, o: engines.o } };
      save();
      changed();
    },

    /** Whether the game has been played into (so changing its settings would discard it). */
    inProgress,

    /** The settings the current game was started with. */
    settings() {
      const { rows, cols, k, level, mode, human, engines } = model.game;
      return { rows, cols, k, level, mode, human, ...(engines ? { engines } : {}) };
    },
  };
}

/** Whether an engine answer's board has the current board's shape. */
function validMove(answer, game) {
  const board = answer?.board;
  const move = answer?.move;
  return Array.isArray(board) && board.length === game.rows &&
    board.every((row) => typeof row === "string" && row.length === game.cols) &&
    move && Number.isInteger(move.row) && Number.isInteger(move.col);
}

/** The analysis answer in the form the page shows: a map "r,c" -> {value, plies, best}. */
function readAnalysis(answer) {
  const best = new Set((answer.best ?? []).map(cellKey));
  const moves = {};
  for (const move of answer.moves ?? []) {
    moves[cellKey(move)] = { value: move.value ?? null, plies: move.plies ?? null, best: best.has(cellKey(move)) };
  }
  return { moves, value: answer.value ?? null, plies: answer.plies ?? null, proven: answer.proven !== false };
}

function cellKey(cell) {
  return Array.isArray(cell) ? `${cell[0]},${cell[1]}` : `${cell.row},${cell.col}`;
}
