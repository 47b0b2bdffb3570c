// The nodes each engine searched, as labelled horizontal bars on a log scale, in plain SVG.

import { number, tn } from "./words.js";

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 640;
const LABEL = 150; // the engine names' column
const VALUE = 90; // the node counts' column
const BAR_HEIGHT = 22;
const GAP = 8;
const AXIS = 22;

/** Draw `rows` ([{engine, nodes}]) into `svg`: one rect.bar per row, width by log10(nodes). */
export function drawChart(svg, rows) {
  svg.replaceChildren();
  const max = Math.max(10, ...rows.map((row) => row.nodes));
  const decades = Math.ceil(Math.log10(max));
  const span = WIDTH - LABEL - VALUE;
  const x = (nodes) => LABEL + (span * Math.log10(Math.max(nodes, 1))) / decades;
  const height = rows.length * (BAR_HEIGHT + GAP) + AXIS;
  svg.setAttribute("viewBox", `0 0 ${WIDTH} ${height}`);
  for (let decade = 0; decade <= decades; decade++) {
    const at = x(10 ** decade);
    svg.append(el("line", { class: "tick", x1: at, x2: at, y1: 0, y2: height - AXIS + 4 }));
    svg.append(el("text", { class: "tick-label", x: at, y: height - 6, "text-anchor": "middle" },
      `10${superscript(decade)}`));
  }
  rows.forEach((row, index) => {
    const y = index * (BAR_HEIGHT + GAP);
    const bar = el("rect", { class: "bar", x: LABEL, y, height: BAR_HEIGHT,
      width: Math.max(x(row.nodes) - LABEL, 2), "data-engine": row.engine });
    bar.append(el("title", {}, tn("{engine}: {count} node", "{engine}: {count} nodes", row.nodes, { engine: row.engine })));
    svg.append(bar);
    svg.append(el("text", { class: "bar-label", x: LABEL - 8, y: y + BAR_HEIGHT / 2, "text-anchor": "end",
      "dominant-baseline": "central" }, row.engine));
    svg.append(el("text", { class: "bar-value", x: x(row.nodes) + 6, y: y + BAR_HEIGHT / 2,
      "dominant-baseline": "central" }, number(row.nodes)));
  });
}

function el(name, attrs, text) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

function superscript(n) {
  return String(n).replace(/\d/g, (d) => "⁰¹²³⁴⁵⁶⁷⁸⁹"[Number(d)]);
}
