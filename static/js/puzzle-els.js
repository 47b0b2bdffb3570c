// The puzzle play area's elements (templates/_puzzle.html), for the puzzles page and the embed.

/** The elements createPuzzlePlay draws into, and the area's buttons. */
export function puzzleElements() {
  const $ = (id) => document.getElementById(id);
  return {
    play: $("play"), board: $("board"), status: $("status"), thinking: $("thinking"),
    colLabels: $("col-labels"), rowLabels: $("row-labels"), goal: $("puzzle-goal"), meta: $("puzzle-meta"),
    line: $("puzzle-line"), reveal: $("puzzle-reveal"), restart: $("puzzle-restart"), next: $("puzzle-next"),
  };
}
