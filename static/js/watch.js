// Watch mode's loop: one engine move, a pause, the next move, until a step says
// to stop or the loop is stopped.  It only keeps the time; the game plays the moves.

/** Speeds offered on the page: the delay (ms) between two moves. */
export const SPEEDS = { slow: 1200, normal: 500, fast: 100 };

/**
 * A loop over `step()`, an async function resolving to whether to go on.
 * `delay()` is read before each pause, so a new speed applies from the next move.
 * `onStop()` is called when the loop ends by itself (a step said no).
 */
export function createWatchLoop({ step, delay, onStop = () => {} }) {
  let timer = 0;
  let token = 0; // bumped by start and stop: a step from an older run does not go on
  let running = false;

  async function run(mine) {
    timer = 0;
    const more = await step();
    if (mine !== token) return;
    if (!more) {
      running = false;
      onStop();
      return;
    }
    timer = setTimeout(() => run(mine), delay());
  }

  function stop() {
    token++;
    clearTimeout(timer);
    timer = 0;
    running = false;
  }

  return {
    /** Whether the loop is playing (a move in flight, or waiting for the next). */
    running: () => running,
    /** Play the first move now, then keep going. */
    start() {
      stop();
      running = true;
      run(token);
    },
    /** Stop: no further step runs (a step in flight is the caller's to cancel). */
    stop,
  };
}
