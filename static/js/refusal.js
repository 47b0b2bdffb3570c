// A refusal with a wait (HTTP 429, the server's limit on searches from one address): its words,
// the seconds left, and a countdown that wakes once a second until the wait is over.  Times are
// Date.now()'s, so a test's clock moves them.

import { t } from "./words.js";

/** The refusal in the words every page uses. */
export const LIMITED_WORDS = t("Too many searches from this network.");

/** Whole seconds left until `until` (ms on Date.now()'s clock), rounded up; 0 once it has passed. */
export function secondsLeft(until, now = Date.now()) {
  return Math.max(0, Math.ceil((until - now) / 1000));
}

// What may be done again once a wait is over, each said whole: while `seconds` remain, and after.
const WAITS = {
  play: (seconds) => (seconds > 0 ? t("You can play again in {seconds} s.", { seconds }) : t("You can play again now.")),
  run: (seconds) => (seconds > 0 ? t("You can run the engines again in {seconds} s.", { seconds })
    : t("You can run the engines again now.")),
  watch: (seconds) => (seconds > 0 ? t("You can watch the search again in {seconds} s.", { seconds })
    : t("You can watch the search again now.")),
  check: (seconds) => (seconds > 0 ? t("You can check the other moves in {seconds} s.", { seconds })
    : t("You can check the other moves now.")),
};

/**
 * "You can play again in 42 s." while `seconds` remain, "You can play again now." after; `what` is
 * what may then be done: "play" (again), "run" (the engines again), "watch" (the search again) or
 * "check" (the other moves).
 */
export function waitWords(seconds, what) {
  return WAITS[what](seconds);
}

/**
 * A countdown: start(until) calls `onTick(seconds)` at once, again each time the whole seconds left
 * change, and a last time with 0 when the wait is over; stop() ends it early.  Returns
 * {start(until), stop()}.
 */
export function createCountdown(onTick) {
  let timer = 0;
  let until = 0;

  function tick() {
    timer = 0;
    const seconds = secondsLeft(until);
    onTick(seconds);
    // Wake when the display next changes, not on a fixed beat that drifts from the server's seconds.
    if (seconds > 0) timer = setTimeout(tick, until - Date.now() - (seconds - 1) * 1000);
  }

  return {
    start(next) {
      clearTimeout(timer);
      until = next;
      tick();
    },
    stop() {
      clearTimeout(timer);
      timer = 0;
    },
  };
}

/**
 * A refusal shown in a panel: `say(text, isError)` writes its status line (a live region, so it
 * changes only twice: at the refusal and when the wait is over) and `timer` (role="timer", which
 * screen readers do not announce) counts the seconds; `what` is what may then be done (a key of
 * waitWords: "run", "watch"…).  Returns {show(error), clear()}: show a "limited" ApiError, or hide
 * the countdown.
 */
export function createWaitNotice({ say, timer, what }) {
  const countdown = createCountdown((seconds) => {
    timer.hidden = seconds === 0;
    timer.textContent = seconds > 0 ? waitWords(seconds, what) : "";
    if (seconds === 0) say(waitWords(0, what), false);
  });
  return {
    show(error) {
      say(LIMITED_WORDS, true);
      countdown.start(error.until);
    },
    clear() {
      countdown.stop();
      timer.hidden = true;
      timer.textContent = "";
    },
  };
}
