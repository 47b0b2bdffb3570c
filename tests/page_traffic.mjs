// The game page's own traffic for given games: static/js/game.js and review-panel.js wired as
// main.js wires them, through api.js, over a fetch that records every request and answers it from
// a transcript.  Run with node --experimental-default-type=module (the page's modules are .js).
//
// argv[2]: the URL of static/js/.  stdin: {level, games: [[[row, col], ...], ...], answers: [{key,
// status, body}]}, key being JSON.stringify([method, url, body]).  stdout: {defaults, sent}, sent
// being [[method, url, body], ...]; with "unknown" (and exit code 2) when the page sent a request
// the transcript has no answer for, "stuck" (exit code 3) when the page stopped short.

const base = process.argv[2];
const input = JSON.parse(await new Promise((resolve) => {
  let text = "";
  process.stdin.on("data", (chunk) => { text += chunk; });
  process.stdin.on("end", () => resolve(text));
}));
// The server's closed sets, before the page's modules load (static/js/server-sets.js reads them
// when there is no document), as the unit tests get them.
await import("./js/server-sets.mjs");
const { createGame } = await import(`${base}game.js`);
const { createReviewPanel } = await import(`${base}review-panel.js`);
const { createApi } = await import(`${base}api.js`);
const { DEFAULT_SETTINGS } = await import(`${base}settings.js`);
const { createMemoryStore } = await import(`${base}storage.js`);

const answers = new Map();
for (const { key, status, body } of input.answers) {
  if (!answers.has(key)) answers.set(key, []);
  answers.get(key).push({ status, body });
}
const sent = [];
const finish = (extra = {}, code = 0) => {
  process.stdout.write(JSON.stringify({ defaults: DEFAULT_SETTINGS, sent, ...extra }));
  process.exit(code);
};

globalThis.fetch = async (url, init = {}) => {
  const request = [init.method ?? "GET", url, init.body === undefined ? null : JSON.parse(init.body)];
  sent.push(request);
  const key = JSON.stringify(request);
  const answer = answers.get(key)?.shift();
  if (!answer) finish({ unknown: key }, 2);
  return { ok: answer.status >= 200 && answer.status < 300, status: answer.status, json: async () => answer.body };
};

// The smallest DOM the review panel draws into; its status line says when every answer is in.
let wake = () => {};
const element = () => ({ dataset: {}, setAttribute() {}, append() {}, addEventListener() {}, textContent: "" });
const status = {
  text: "",
  get textContent() { return this.text; },
  set textContent(text) { this.text = text; wake(); },
  setAttribute() {},
};
globalThis.document = { createElement: element };
const els = {
  panel: element(), status, list: { ...element(), replaceChildren() {}, querySelector: () => null },
  prev: element(), next: element(), back: element(), toggle: element(), wait: element(), retry: element(),
};

/** Resolves once `test()` holds, checked now and after every change the page reports. */
function until(test) {
  return new Promise((resolve) => {
    const check = () => {
      if (!test()) return;
      wake = () => {};
      resolve();
    };
    wake = check;
    check();
  });
}

const settings = { ...DEFAULT_SETTINGS, level: input.level };
const api = createApi();
let game = null;
const review = createReviewPanel({ els, api, onChange: () => wake() });
game = createGame({
  api, store: createMemoryStore(), settings, restore: false,
  onChange: (view) => { review.update(view); wake(); },
  onGameOver: () => review.open(game.view()),
});
setTimeout(() => finish({ stuck: game.view() }, 3), 10000).unref();

game.start();
for (const [index, moves] of input.games.entries()) {
  if (index > 0) { // main.js startNew()
    review.close();
    game.newGame(settings);
  }
  for (const [row, col] of moves) {
    game.hint();
    await until(() => game.view().hints !== null || game.view().error !== null);
    game.play(row, col);
    await until(() => game.view().busy === null);
  }
  await until(() => review.isOpen() && !status.textContent.startsWith("Checking"));
}
finish();
