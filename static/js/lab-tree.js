// The drawing of one engine's search tree in the lab's "Watch the search": nested lists, one row a
// node, revealed as the playback visits it.  Every figure is the server's (GET /trace).

import { cellName } from "./cells.js";
import { number, t, tn } from "./words.js";

// What a node's row says of how its search ended, by kind (nothing for an exact score).
const KIND_TEXT = {
  exact: () => "",
  leaf: () => t("game over"),
  hit: () => t("⟲ table hit"),
  cut: () => t("✂ cut-off"),
  "fail-low": () => t("fail low (≤ α)"),
  open: () => "",
};

const bound = (value, infinite) => (value === null ? infinite : String(value).replace("-", "−"));
const moveName = (move) => (move ? cellName(move[0], move[1]) : t("root"));

/**
 * A tree view in `list` (a <ul>): build(entries) draws hidden rows, reveal/done/current show the
 * playback, expand() adds an opened branch.  onOpen(id) is called when a folded node's button is used.
 */
export function createTreeView(list, { windows, onOpen }) {
  const items = new Map();
  let current = null;

  function add(entry) {
    const item = document.createElement("li");
    item.className = "trace-node";
    item.dataset.id = String(entry.id);
    item.dataset.kind = entry.kind;
    item.hidden = true;
    const row = document.createElement("div");
    row.className = "trace-row";
    const move = span("trace-move", moveName(entry.move));
    row.append(move);
    if (windows) row.append(span("trace-window", `α ${bound(entry.alpha, "−∞")} β ${bound(entry.beta, "+∞")}`));
    const result = span("trace-result", "");
    row.append(result);
    const kids = document.createElement("ul");
    kids.className = "trace-kids";
    item.append(row, kids);
    const parent = items.get(entry.parent);
    (parent ? parent.kids : list).append(item);
    items.set(entry.id, { item, row, result, kids, entry });
    if (entry.folded) addFoldButton(entry);
  }

  function addFoldButton(entry) {
    const { row } = items.get(entry.id);
    const { nodes, cuts, hits } = entry.folded;
    const button = document.createElement("button");
    button.type = "button";
    button.className = "trace-open";
    button.textContent = tn("▸ {count} node (folded)", "▸ {count} nodes (folded)", nodes);
    button.setAttribute("aria-label", tn("Open the folded branch after {move}: {count} node",
      "Open the folded branch after {move}: {count} nodes", nodes, { move: moveName(entry.move) }));
    button.addEventListener("click", () => {
      button.disabled = true;
      onOpen(entry.id).catch(() => { button.disabled = false; });
    });
    row.append(button, span("trace-inside", t("{cuts} cut-offs · {hits} table hits inside", { cuts, hits })));
  }

  return {
    /** Draw `entries` (the /trace tree, in visiting order), all hidden until visited. */
    build(entries) {
      list.replaceChildren();
      items.clear();
      current = null;
      entries.forEach(add);
    },
    /** Show a visited node and make it the current one. */
    visit(entry) {
      const found = items.get(entry.id);
      found.item.hidden = false;
      current?.row.classList.remove("current");
      current?.row.removeAttribute("aria-current");
      found.row.classList.add("current");
      found.row.setAttribute("aria-current", "step");
      current = found;
      keepInView(list.parentElement, found.row);
    },
    /** A node whose search has returned: its score, how it ended, and a cut-off's skipped moves greyed. */
    done(entry) {
      const found = items.get(entry.id);
      found.item.hidden = false;
      found.item.classList.add("returned");
      const kind = KIND_TEXT[entry.kind]();
      const score = bound(entry.score, "");
      found.result.textContent = entry.score === null ? t("stopped here")
        : kind ? t("score {score} · {kind}", { score, kind }) : t("score {score}", { score });
      for (const move of entry.skipped) {
        const skipped = document.createElement("li");
        skipped.className = "trace-skipped";
        skipped.textContent = t("{move} skipped by the cut-off", { move: moveName(move) });
        found.kids.append(skipped);
      }
    },
    /** Replace folded node `fresh[0]` by its opened branch `fresh`, its new rows hidden unless `visited`. */
    expand(fresh) {
      const found = items.get(fresh[0].id);
      found.entry = fresh[0];
      found.row.querySelectorAll(".trace-open, .trace-inside").forEach((element) => element.remove());
      fresh.slice(1).forEach(add);
    },
  };
}

function span(className, text) {
  const element = document.createElement("span");
  element.className = className;
  element.textContent = text;
  return element;
}

// Scroll the tree's own box (never the page) so that the current row is in sight.
function keepInView(box, row) {
  const top = row.offsetTop; // the box is positioned: offsets are within it
  if (top < box.scrollTop || top + row.offsetHeight > box.scrollTop + box.clientHeight) {
    box.scrollTop = Math.max(0, top - box.clientHeight / 2);
  }
}
