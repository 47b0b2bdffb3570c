// The player's puzzles in this browser: a rating, the streak, and which puzzles were tried and how.
// Pure functions over a plain object that serialises (the store keeps it as JSON); no puzzle rule
// here: whether a move is right is the server's answer.
//
// progress = {
//   rating: 1000,            // Elo-style: moves once per puzzle, on its first try
//   streak: 0, best: 0,      // puzzles solved in a row at the first try, and the longest such run
//   tried: {"3x3k3-1a2b3c": "solved" | "missed"},
//   choice: {board: "3x3k3", task: ""},   // the page's menus ("" task: any)
// }

export const START_RATING = 1000;
// How far one puzzle moves the rating at most (chess's K for a new player).
export const K = 32;

/** A new player's progress. */
export function emptyProgress() {
  return { rating: START_RATING, streak: 0, best: 0, tried: {}, choice: { board: "", task: "" } };
}

/** Progress read back from the store: what is well formed is kept, the rest starts again. */
export function readProgress(saved) {
  const fresh = emptyProgress();
  if (!saved || typeof saved !== "object") return fresh;
  const count = (value, fallback) => (Number.isFinite(value) && value >= 0 ? Math.round(value) : fallback);
  const tried = {};
  if (saved.tried && typeof saved.tried === "object") {
    for (const [id, how] of Object.entries(saved.tried)) if (how === "solved" || how === "missed") tried[id] = how;
  }
  const choice = saved.choice && typeof saved.choice === "object" ? saved.choice : {};
  return {
    rating: count(saved.rating, fresh.rating),
    streak: count(saved.streak, 0),
    best: count(saved.best, 0),
    tried,
    choice: {
      board: typeof choice.board === "string" ? choice.board : "",
      task: ["", "win", "draw"].includes(choice.task) ? choice.task : "",
    },
  };
}

/** The chance the Elo model gives a player of `rating` to solve a puzzle of `puzzleRating`. */
export function expectedScore(rating, puzzleRating) {
  return 1 / (1 + 10 ** ((puzzleRating - rating) / 400));
}

/**
 * The progress after a puzzle was finished: `solved` at the first try (no wrong move, not shown)
 * or not.  Only a puzzle's first try counts: one tried before leaves the progress as it was.
 */
export function recordResult(progress, puzzle, solved) {
  if (progress.tried[puzzle.id]) return progress;
  const score = solved ? 1 : 0;
  const rating = Math.round(progress.rating + K * (score - expectedScore(progress.rating, puzzle.rating)));
  const streak = solved ? progress.streak + 1 : 0;
  return {
    ...progress,
    rating: Math.max(0, rating),
    streak,
    best: Math.max(progress.best, streak),
    tried: { ...progress.tried, [puzzle.id]: solved ? "solved" : "missed" },
  };
}

/** How many puzzles were solved at the first try. */
export function solvedCount(progress) {
  return Object.values(progress.tried).filter((how) => how === "solved").length;
}

/**
 * The puzzle to offer next from `puzzles` (the server's list, in its order): of those not tried yet,
 * the one whose rating is nearest the player's (the first of equals), else the first after
 * `currentId` in the list (round and round), else null for an empty list.
 */
export function nextPuzzle(puzzles, progress, currentId = null) {
  const fresh = puzzles.filter((puzzle) => !progress.tried[puzzle.id] && puzzle.id !== currentId);
  if (fresh.length > 0) {
    const distance = (puzzle) => Math.abs(puzzle.rating - progress.rating);
    return fresh.reduce((best, puzzle) => (distance(puzzle) < distance(best) ? puzzle : best));
  }
  if (puzzles.length === 0) return null;
  const here = puzzles.findIndex((puzzle) => puzzle.id === currentId);
  return puzzles[(here + 1) % puzzles.length];
}
