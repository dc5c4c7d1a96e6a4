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

const GRAPH = { width: 320, height: 120, pad: 6 };

/**
 * The graph of each player's expected score over the match: at each of their decisions,
 * the score before it plus what the move made is expected to be worth by their next
 * turn (docs/analysis.md). `at` (an index into the decisions, or -1) is marked.
 */
export function expectedGraph(analysis, at) {
  const decisions = analysis.decisions;
  const values = decisions.map((decision) => decision.total + decision.played.expected);
  const low = Math.min(0, ...values);
  const high = Math.max(1, ...values);
  const x = (index) => GRAPH.pad + (index / Math.max(1, decisions.length - 1)) * (GRAPH.width - 2 * GRAPH.pad);
  const y = (value) => GRAPH.height - GRAPH.pad - ((value - low) / (high - low)) * (GRAPH.height - 2 * GRAPH.pad);
  const svg = svgElement("svg", { viewBox: `0 0 ${GRAPH.width} ${GRAPH.height}`, class: "analysis-graph", "data-testid": "analysis-graph", role: "img" });
  svgElement("title", {}, svg).textContent = t("analysis_graph");
  svgElement("line", { class: "axis", x1: 0, x2: GRAPH.width, y1: y(0), y2: y(0) }, svg);
  for (const player of analysis.players) {
    const points = decisions.flatMap((decision, index) => (decision.seat === player.seat ? [`${x(index).toFixed(1)},${y(values[index]).toFixed(1)}`] : []));
    if (points.length) svgElement("polyline", { class: `line seat-${player.seat}`, points: points.join(" "), "data-testid": "graph-line" }, svg);
  }
  decisions.forEach((decision, index) => {
    if (decision.mark) svgElement("circle", { class: `dot mark-${decision.mark}`, cx: x(index), cy: y(values[index]), r: 3 }, svg);
  });
  if (at >= 0) svgElement("line", { class: "now", x1: x(at), x2: x(at), y1: 0, y2: GRAPH.height, "data-testid": "graph-now" }, svg);
  return svg;
}
