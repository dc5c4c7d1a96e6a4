// A finished match's analysis in the replay (docs/analysis.md): asked for, its progress
// followed, then each decision's loss and mark, the best alternative, and a graph of
// each player's expected score over the match.
//
// The server computes it (POST /api/tables/CODE/analysis) and keeps it with the table;
// this module only asks, polls and draws what it says.

import { getJson, postJson } from "./api.js";
import { h, number, signed, t } from "./dom.js";
import { cellText } from "./sheet.js";
import { svgElement } from "./tiles.js";

const POLL_MS = 1000;

/** How chess writes each mark: ?! an inaccuracy, ? a mistake, ?? a blunder. */
export const MARK_SIGNS = Object.freeze({ inaccuracy: "?!", mistake: "?", blunder: "??" });

/** The key of a decision: its hand and its index in the hand's actions. */
export function decisionKey(hand, index) {
  return `${hand}:${index}`;
}

/**
 * The analysis of one table: `status()` reads it, `start()` asks for it, and while it
 * runs `onChange(status)` hears every poll until it is done.
 */
export class AnalysisClient {
  constructor(code, onChange) {
    this.path = `/api/tables/${encodeURIComponent(code)}/analysis`;
    this.onChange = onChange;
    this.timer = null;
  }

  async status() {
    return this.follow(await getJson(this.path));
  }

  async start() {
    return this.follow(await postJson(this.path, {}));
  }

  follow(status) {
    this.onChange(status);
    clearTimeout(this.timer);
    if (status.status === "running") {
      this.timer = setTimeout(() => this.status().catch((error) => this.onChange({ status: "failed", error })), POLL_MS);
    }
    return status;
  }

  stop() {
    clearTimeout(this.timer);
  }
}

/** The decisions of an analysis by hand and index. */
export function decisionsByKey(analysis) {
  return new Map(analysis.decisions.map((decision) => [decisionKey(decision.hand, decision.index), decision]));
}

/** A choice in words: "0-2-5 on 0,−1▼ +57", "draw −5", "pass". */
export function choiceText(choice) {
  const points = signed(choice.points);
  if (choice.action === "place" || choice.action === "take_joker") return `${choice.tile} ${cellText(choice.cell)} ${points}`;
  return `${t(choice.action === "pass" ? "analysis_pass" : "analysis_draw")} ${points}`;
}

/** The loss and mark of a decision, for the move list. */
export function lossChip(decision) {
  const mark = decision.mark;
  return h(
    "span",
    { class: `loss-chip ${mark ? `mark-${mark}` : ""}`, "data-testid": "loss", "data-mark": mark ?? "", title: mark ? t(`mark_${mark}`) : null },
    `${mark ? `${MARK_SIGNS[mark]} ` : ""}${decision.loss > 0 ? signed(-decision.loss, 1) : "0"}`,
  );
}

/** What the board says of a decision: the best choice, the loss and the mark. */
export function decisionNote(decision) {
  const same = decision.loss === 0 && JSON.stringify(decision.best) === JSON.stringify(decision.played);
  return h(
    "div",
    { class: `analysis-note ${decision.mark ? `mark-${decision.mark}` : ""}`, "data-testid": "analysis-note" },
    same
      ? h("span", { i18n: "analysis_best_played" })
      : h("span", { i18n: ["analysis_best", { move: choiceText(decision.best), loss: number(decision.loss, { digits: 1 }) }] }),
    decision.mark ? h("strong", { "data-testid": "analysis-mark" }, ` ${MARK_SIGNS[decision.mark]} ${t(`mark_${decision.mark}`)}`) : null,
  );
}

/** Each player's summary: average loss, the count of each mark, the biggest bonus missed. */
export function summaryList(analysis, names) {
  const byKey = decisionsByKey(analysis);
  return h(
    "ul",
    { class: "analysis-summary", "data-testid": "analysis-summary" },
    ...analysis.players.map((player) => {
      const missed = player.missed && byKey.get(decisionKey(player.missed.hand, player.missed.index))?.missed;
      return h(
        "li",
        { class: `seat-${player.seat}` },
        h("span", { class: `seat-dot seat-${player.seat}` }),
        h("span", {
          i18n: [
            "analysis_player",
            {
              name: names[player.seat],
              loss: number(player.average_loss, { digits: 1 }),
              inaccuracies: player.marks.inaccuracy,
              mistakes: player.marks.mistake,
              blunders: player.marks.blunder,
            },
          ],
        }),
        missed ? h("span", { class: "muted", i18n: ["analysis_missed", { bonus: t(`bonus_${missed.name}`), points: missed.points }] }) : null,
      );
    }),
  );
}

/** The graph's size in its own units, and the room its axes' labels take. */
const GRAPH = { width: 360, height: 190, left: 34, right: 8, top: 16, bottom: 22 };

/** Ticks from `low` to `high`: a round step (1, 2 or 5 times a power of ten) giving about `count`. */
export function ticks(low, high, count) {
  const rough = Math.max(1, (high - low) / count);
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((factor) => factor * power).find((candidate) => candidate >= rough);
  const found = [];
  for (let value = Math.ceil(low / step) * step; value <= high; value += step) found.push(value);
  return found;
}

/**
 * A mark's symbol, centred on (x, y): a triangle for ?!, a square for ?, a diamond for ??,
 * each filled in its mark's colour and outlined, so that none reads as a player's line.
 */
export function markSymbol(mark, x, y, parent) {
  const r = 4.5;
  const corners = {
    inaccuracy: [[0, -r], [r, r * 0.8], [-r, r * 0.8]],
    mistake: [[-r * 0.85, -r * 0.85], [r * 0.85, -r * 0.85], [r * 0.85, r * 0.85], [-r * 0.85, r * 0.85]],
    blunder: [[0, -r * 1.2], [r * 1.2, 0], [0, r * 1.2], [-r * 1.2, 0]],
  }[mark];
  const points = corners.map(([dx, dy]) => `${(x + dx).toFixed(1)},${(y + dy).toFixed(1)}`).join(" ");
  return svgElement("polygon", { class: `mark-symbol mark-${mark}`, points, "data-testid": "graph-mark", "data-mark": mark }, parent);
}

/** The graph's legend: each player's line, and each mark's symbol with its sign and name. */
function graphLegend(analysis, names) {
  const swatch = (draw) => {
    const svg = svgElement("svg", { viewBox: "0 0 16 12", width: 16, height: 12, "aria-hidden": "true" });
    draw(svg);
    return svg;
  };
  return h(
    "ul",
    { class: "graph-legend", "data-testid": "graph-legend" },
    ...analysis.players.map((player) =>
      h("li", {}, swatch((svg) => svgElement("line", { class: `line seat-${player.seat}`, x1: 1, x2: 15, y1: 6, y2: 6 }, svg)), names[player.seat]),
    ),
    ...Object.entries(MARK_SIGNS).map(([mark, sign]) => h("li", { "data-mark": mark }, swatch((svg) => markSymbol(mark, 8, 6, svg)), `${sign} ${t(`mark_${mark}`)}`)),
    h("li", {}, swatch((svg) => svgElement("line", { class: "hand-start", x1: 8, x2: 8, y1: 0, y2: 12 }, svg)), t("analysis_graph_hand_start")),
  );
}

/**
 * The graph of each player's expected score over the match: at each of their decisions,
 * the score before it plus what the move made is expected to be worth by their next
 * turn (docs/analysis.md). Its axes: the decisions, numbered, across; points up. A dashed
 * line where each hand after the first begins; a symbol on each marked move; `at` (an
 * index into the decisions, or -1) marked by a line. With its legend below.
 */
export function expectedGraph(analysis, at, names) {
  const decisions = analysis.decisions;
  const values = decisions.map((decision) => decision.total + decision.played.expected);
  const yTicks = ticks(Math.min(0, ...values), Math.max(1, ...values), 4);
  const low = Math.min(0, ...values, yTicks[0]);
  const high = Math.max(1, ...values, yTicks[yTicks.length - 1]);
  const right = GRAPH.width - GRAPH.right;
  const bottom = GRAPH.height - GRAPH.bottom;
  const x = (index) => GRAPH.left + (index / Math.max(1, decisions.length - 1)) * (right - GRAPH.left);
  const y = (value) => bottom - ((value - low) / (high - low)) * (bottom - GRAPH.top);
  const svg = svgElement("svg", { viewBox: `0 0 ${GRAPH.width} ${GRAPH.height}`, class: "analysis-graph", "data-testid": "analysis-graph", role: "img" });
  svgElement("title", {}, svg).textContent = t("analysis_graph");
  const label = (text, attributes) => (svgElement("text", { class: "tick-label", ...attributes }, svg).textContent = text);
  for (const value of yTicks) {
    svgElement("line", { class: value === 0 ? "axis zero" : "grid", x1: GRAPH.left, x2: right, y1: y(value), y2: y(value) }, svg);
    label(number(value), { x: GRAPH.left - 4, y: y(value) + 3.5, "text-anchor": "end", "data-testid": "graph-y-tick" });
  }
  svgElement("line", { class: "axis", x1: GRAPH.left, x2: GRAPH.left, y1: GRAPH.top, y2: bottom }, svg);
  svgElement("line", { class: "axis", x1: GRAPH.left, x2: right, y1: bottom, y2: bottom }, svg);
  for (const number of ticks(1, decisions.length, 6)) {
    svgElement("line", { class: "axis", x1: x(number - 1), x2: x(number - 1), y1: bottom, y2: bottom + 3 }, svg);
    label(String(number), { x: x(number - 1), y: bottom + 13, "text-anchor": "middle", "data-testid": "graph-x-tick" });
  }
  label(t("analysis_graph_moves"), { x: right, y: GRAPH.height - 1, "text-anchor": "end" });
  label(t("analysis_graph_points"), { x: 2, y: GRAPH.top - 6 });
  decisions.forEach((decision, index) => {
    if (index === 0 || decision.hand === decisions[index - 1].hand) return;
    const between = (x(index - 1) + x(index)) / 2;
    svgElement("line", { class: "hand-start", x1: between, x2: between, y1: GRAPH.top, y2: bottom, "data-testid": "graph-hand" }, svg);
    label(t("hand_number", { number: decision.hand }), { x: between + 2, y: GRAPH.top - 6, class: "tick-label hand-label" });
  });
  for (const player of analysis.players) {
    const points = decisions.flatMap((decision, index) => (decision.seat === player.seat ? [`${x(index).toFixed(1)},${y(values[index]).toFixed(1)}`] : []));
    if (points.length) svgElement("polyline", { class: `line seat-${player.seat}`, points: points.join(" "), "data-testid": "graph-line" }, svg);
  }
  decisions.forEach((decision, index) => {
    if (decision.mark) markSymbol(decision.mark, x(index), y(values[index]), svg);
  });
  if (at >= 0) svgElement("line", { class: "now", x1: x(at), x2: x(at), y1: GRAPH.top, y2: bottom, "data-testid": "graph-now" }, svg);
  return h("figure", { class: "analysis-figure" }, svg, graphLegend(analysis, names));
}
