// "Watch the search": each chosen engine's tree of the lab's position (GET /trace), replayed node
// by node in lockstep, with live counts that end at the server's node count.

import { createTreeView } from "./lab-tree.js";
import { createWaitNotice } from "./refusal.js";
import { listWords, t, tn } from "./words.js";

const TICK_MS = 50;

/** What an entry adds to the counts: a folded node stands for its whole subtree. */
function weight(entry) {
  if (entry.folded) return entry.folded;
  return { nodes: 1, cuts: entry.kind === "cut" ? 1 : 0, hits: entry.kind === "hit" ? 1 : 0 };
}

/**
 * Wire the panel: `elements` holds the panel's controls and containers (`wait`: a refusal's countdown),
 * `getPosition()` the lab's
 * position ({rows, k}), `tableNodes(engine, position)` the Nodes figure of the lab's table for that
 * position (null when the table has not run on it).
 */
export function createWatch(api, elements, { getPosition, tableNodes }) {
  const { load, play, step, end, speed, status, wait, trees, engines } = elements;
  let columns = [];
  let timer = null;
  let owed = 0;
  let last = 0;

  function say(text, error = false) {
    status.textContent = text;
    status.classList.toggle("error", error);
  }

  // A refused search (429): the words, then the seconds until the trees may be asked for again.
  const refusal = createWaitNotice({ say, timer: wait, what: "watch" });

  function failed(error) {
    if (error.kind === "limited") refusal.show(error);
    else say(error.message, true);
  }

  function setPlaying(on) {
    if (on === (timer !== null)) return;
    play.textContent = on ? t("Pause") : t("Play");
    play.setAttribute("aria-pressed", String(on));
    if (on) {
      last = performance.now();
      owed = 0;
      timer = setInterval(tick, TICK_MS);
    } else {
      clearInterval(timer);
      timer = null;
    }
  }

  function tick() {
    const now = performance.now();
    owed += (Number(speed.value) * (now - last)) / 1000;
    last = now;
    while (owed >= 1) {
      owed -= 1;
      if (!stepAll()) {
        setPlaying(false);
        return;
      }
    }
  }

  /** Visit the next node of every column; false when every search has been replayed. */
  function stepAll() {
    let moved = false;
    for (const column of columns) moved = stepColumn(column) || moved;
    if (!moved) say(comparison());
    return moved;
  }

  // Every search replayed, and how its counts stand against the lab table's Nodes, in words.
  function comparison() {
    const tables = columns.map((column) => tableNodes(column.body.engine, column.position));
    const differ = columns.filter((column, i) => tables[i] !== null && tables[i] !== column.body.nodes);
    if (differ.length) {
      const engines = listWords(differ.map((column) => column.body.engine), "and");
      return t("Every search has been replayed: {engines} counted otherwise than the lab table.", { engines });
    }
    if (tables.every((table) => table !== null)) {
      return t("Every search has been replayed: each tree counts exactly the lab table's nodes.");
    }
    return t("Every search has been replayed: the counts are the engines' own (run every engine to set them " +
      "beside the table's).");
  }

  function stepColumn(column) {
    if (column.pos >= column.entries.length) return false;
    const entry = column.entries[column.pos++];
    returnUntil(column, entry.id);
    column.view.visit(entry);
    if (entry.folded || entry.size === 1) column.view.done(entry);
    else column.open.push(entry);
    if (column.pos === column.entries.length) returnUntil(column, Infinity);
    const add = weight(entry);
    for (const key of ["nodes", "cuts", "hits"]) column.seen[key] += add[key];
    showCounts(column);
    return true;
  }

  // The nodes whose subtrees end before node `id` have returned.
  function returnUntil(column, id) {
    while (column.open.length && column.open.at(-1).id + column.open.at(-1).size <= id) {
      column.view.done(column.open.pop());
    }
  }

  function showCounts(column) {
    const { seen, body, counts } = column;
    const table = tableNodes(body.engine, column.position);
    const finished = column.pos === column.entries.length;
    const parts = [t("Nodes {seen} of {count} · cut-offs {cuts} · table hits {hits}",
      { seen: seen.nodes, count: body.nodes, cuts: seen.cuts, hits: seen.hits })];
    if (finished && table !== null) {
      parts.push(table === body.nodes ? t("the lab table's {count}, exactly", { count: table })
        : t("the lab table says {count}", { count: table }));
    }
    if (!body.finished) parts.push(t("stopped at its node budget"));
    counts.textContent = parts.join(" · ");
    counts.dataset.nodes = String(seen.nodes);
  }

  async function open(column, id) {
    const { rows, k } = column.position;
    const branch = await api.trace(rows, k, column.body.engine, id);
    const index = column.entries.findIndex((entry) => entry.id === id);
    const fresh = branch.tree;
    const visited = index < column.pos;
    column.entries.splice(index, 1, ...fresh);
    column.view.expand(fresh);
    if (visited) {
      // Already counted as one folded node: its branch is shown as searched, the counts unchanged.
      column.pos += fresh.length - 1;
      for (const entry of fresh) column.view.done(entry);
    }
    refusal.clear();
    say(tn("Opened the branch of node {node}: {count} node.", "Opened the branch of node {node}: {count} nodes.",
      fresh[0].size, { node: id }));
  }

  async function loadAll() {
    setPlaying(false);
    const position = getPosition();
    const chosen = [...engines.querySelectorAll("input:checked")].map((input) => input.value);
    if (chosen.length === 0) return say(t("Choose at least one engine."), true);
    load.disabled = true;
    trees.replaceChildren();
    columns = [];
    refusal.clear();
    try {
      for (const engine of chosen) {
        say(t("Searching with {engine}…", { engine }));
        const body = await api.trace(position.rows, position.k, engine, 0);
        columns.push(makeColumn(engine, body, position));
      }
      say(tn("Ready: {count} search of the same position. Play, step, or go to the end.",
        "Ready: {count} searches of the same position. Play, step, or go to the end.", chosen.length));
    } catch (error) {
      failed(error);
    } finally {
      load.disabled = false;
      for (const button of [play, step, end]) button.disabled = columns.length === 0;
    }
  }

  function makeColumn(engine, body, position) {
    const article = document.createElement("article");
    article.className = "trace-column";
    article.dataset.engine = engine;
    const title = document.createElement("h3");
    title.textContent = engine;
    const counts = document.createElement("p");
    counts.className = "trace-counts";
    counts.setAttribute("aria-live", "off");
    const box = document.createElement("div");
    box.className = "trace-box";
    box.tabIndex = 0; // scrollable with the keyboard
    box.setAttribute("role", "region");
    box.setAttribute("aria-label", t("{engine}'s search tree", { engine }));
    const list = document.createElement("ul");
    list.className = "trace-tree";
    box.append(list);
    article.append(title, counts, box);
    trees.append(article);
    const column = {
      body, position, counts, entries: [...body.tree], pos: 0, open: [], seen: { nodes: 0, cuts: 0, hits: 0 },
    };
    column.view = createTreeView(list, { windows: body.windows, onOpen: (id) => open(column, id).catch((error) => {
      failed(error);
      throw error;
    }) });
    column.view.build(column.entries);
    showCounts(column);
    return column;
  }

  load.addEventListener("click", loadAll);
  play.addEventListener("click", () => setPlaying(timer === null));
  step.addEventListener("click", () => {
    setPlaying(false);
    stepAll();
  });
  end.addEventListener("click", () => {
    setPlaying(false);
    while (stepAll());
  });
  for (const button of [play, step, end]) button.disabled = true;
}
