// The replay of a finished match, move by move, from its game record (RECORD.md).
//
// A finished record holds everything (every deal and action), so the replay shows all
// racks. It only re-lays what the record says; it checks nothing (the server verified
// the match as it was played).

import { AnalysisClient, decisionKey, decisionNote, decisionsByKey, expectedGraph, lossChip, summaryList } from "./analysis.js";
import { getJson } from "./api.js";
import { BoardView } from "./board.js";
import { seatNames } from "./bots.js";
import { icon } from "./icons.js";
import { arrange, h, number, signed, toast } from "./dom.js";
import { describeRefusal } from "./errors.js";
import { renderScores, renderSheet, actionText, endText } from "./sheet.js";
import { JOKER, tilePicture, tileNumbers } from "./tiles.js";

/**
 * Every position of the match: one step before each hand's first action, one after each
 * action, and one for each hand's settlement.
 */
function replaySteps(record) {
  const steps = [];
  let totals = record.players.map(() => record.rules.starting_score ?? 0);
  for (const hand of record.hands) {
    const board = [];
    if (hand.deal.first) board.push({ tile: hand.deal.first, cell: [0, 0, "up"], corners: tileNumbers(hand.deal.first) });
    const racks = hand.deal.racks.map((rack) => [...rack]);
    const scores = [...totals];
    const snapshot = (index, extra = {}) =>
      steps.push({ hand, index, board: [...board], racks: racks.map((rack) => [...rack]), scores: [...scores], ...extra });
    snapshot(-1);
    hand.actions.forEach((action, index) => {
      const rack = racks[action.player];
      const remove = (tile) => rack.splice(rack.indexOf(tile), 1);
      if (action.action === "place") {
        board.push({ tile: action.tile, cell: action.cell, corners: action.corners });
        remove(action.tile);
      } else if (action.action === "draw" || action.action === "buy") {
        rack.push(action.tile);
      } else if (action.action === "take_joker") {
        const at = board.findIndex((placement) => placement.tile === JOKER);
        board[at] = { tile: action.tile, cell: action.cell, corners: action.corners };
        remove(action.tile);
        rack.push(JOKER);
      }
      scores[action.player] += action.points ?? 0;
      snapshot(index);
    });
    totals = hand.scores;
    steps.push({ ...steps[steps.length - 1], index: hand.actions.length, scores: [...hand.scores], end: hand.end });
  }
  return steps;
}

export class ReplayPage {
  constructor(root, code) {
    this.root = root;
    this.code = code;
    this.at = 0;
    this.autoplay = null;
    this.keydown = (event) => this.onKey(event);
  }

  async start() {
    try {
      this.record = await getJson(`/api/tables/${encodeURIComponent(this.code)}/record`);
    } catch (error) {
      const { text, detail } = describeRefusal(error);
      this.root.replaceChildren(h("section", { class: "card narrow" }, h("p", { title: detail || null }, text), h("a", { class: "button", href: `/t/${this.code}`, i18n: "back_to_table" })));
      return;
    }
    this.steps = replaySteps(this.record);
    // A record knows a bot by its name, which is its engine's unless the table named it.
    this.names = seatNames(this.record.players.map((player) => (player.kind === "bot" ? { kind: "bot", name: player.name, bot: player.name } : player)));
    this.cards = this.record.rules.tile_set === "junior";
    this.build();
    document.addEventListener("keydown", this.keydown);
    this.go(0);
    this.analysisClient = new AnalysisClient(this.code, (status) => this.showAnalysis(status));
    this.analysisClient.status().catch((error) => this.showAnalysis({ status: "failed", error }));
  }

  /** The analysis box: the button, the progress, or (once done) the summary and graph. */
  showAnalysis(status) {
    if (status.status === "done") {
      this.analysis = status.analysis;
      this.decisions = decisionsByKey(status.analysis);
      this.markSteps = this.steps.flatMap((step, at) => (!step.end && this.decisions.get(decisionKey(step.hand.number, step.index))?.mark ? [at] : []));
      const jump = (testid, label, pick, symbol) =>
        h("button", { type: "button", class: "icon", "data-testid": testid, i18nAttrs: { "aria-label": label, title: label }, on: { click: () => this.goToMark(pick) } }, symbol);
      this.graph = h("div", { class: "analysis-graph-wrap" });
      this.analysisBox.replaceChildren(
        summaryList(status.analysis, this.names),
        h(
          "div",
          { class: "mark-nav", role: "toolbar" },
          jump("mark-prev", "analysis_prev_mark", (steps) => steps.filter((at) => at < this.at).pop(), icon("previous")),
          h("span", { "data-testid": "mark-count", i18n: ["analysis_marks", { count: this.markSteps.length }] }),
          jump("mark-next", "analysis_next_mark", (steps) => steps.find((at) => at > this.at), icon("next")),
        ),
        this.graph,
      );
      this.go(this.at);
      return;
    }
    if (status.status === "running") {
      this.analysisBox.replaceChildren(
        h("progress", { max: status.total, value: status.done }),
        h("span", { "data-testid": "analysis-progress", i18n: ["analysis_progress", { done: status.done, total: status.total }] }),
      );
      return;
    }
    const ask = async () => {
      try {
        await this.analysisClient.start();
      } catch (error) {
        const { text, detail } = describeRefusal(error);
        toast(text, "error", detail);
      }
    };
    // arrange, not replaceChildren: the latter writes a left-out (null) child as "null".
    arrange(
      this.analysisBox,
      h("button", { type: "button", "data-testid": "analyse", i18n: "analyse", on: { click: ask } }),
      status.status === "failed" ? h("span", { class: "muted", title: describeRefusal(status.error).detail || null }, describeRefusal(status.error).text) : null,
    );
  }

  goToMark(pick) {
    const at = pick(this.markSteps ?? []);
    if (at === undefined) return;
    this.stopAutoplay();
    this.go(at);
  }

  destroy() {
    document.removeEventListener("keydown", this.keydown);
    this.analysisClient?.stop();
    this.stopAutoplay();
    this.board?.destroy();
  }

  build() {
    const button = (testid, label, step, symbol) =>
      h("button", { type: "button", class: "icon", "data-testid": testid, i18nAttrs: { "aria-label": label, title: label }, on: { click: () => this.go(step()) } }, symbol);
    this.playButton = h("button", { type: "button", class: "icon", "data-testid": "replay-autoplay", "aria-pressed": "false", i18nAttrs: { "aria-label": "replay_autoplay", title: "replay_autoplay" }, on: { click: () => this.toggleAutoplay() } }, icon("play_pause"));
    this.status = h("div", { class: "status-bar", "data-testid": "replay-status", "aria-live": "polite" });
    this.slider = h("input", {
      type: "range",
      min: 0,
      max: this.steps.length - 1,
      value: 0,
      "data-testid": "replay-slider",
      i18nAttrs: { "aria-label": "replay_position" },
      on: { input: (event) => this.go(Number(event.target.value)) },
    });
    const boardWrap = h("div", { class: "board-wrap" });
    this.board = new BoardView(boardWrap);
    this.racks = h("div", { class: "players replay-racks" });
    this.scores = h("div", { class: "scores", "data-testid": "score-table" });
    // A move of the list is a button: it takes the replay to just after that move.
    this.analysisBox = h("div", { class: "analysis-box", "data-testid": "analysis" });
    this.sheet = h("div", {
      class: "sheet moves",
      "data-testid": "score-sheet",
      on: {
        click: (event) => {
          const row = event.target.closest("[data-testid=sheet-row]");
          if (!row) return;
          const first = this.steps.findIndex((step) => step.hand.number === Number(row.dataset.hand));
          this.stopAutoplay();
          this.go(first + 1 + Number(row.dataset.index));
        },
      },
    });
    this.root.replaceChildren(
      h(
        "section",
        { class: "table-page replay", "data-testid": "replay" },
        h(
          "div",
          { class: "table-main" },
          this.status,
          boardWrap,
          h(
            "div",
            { class: "replay-controls", role: "toolbar" },
            button("replay-first", "replay_first", () => 0, icon("first")),
            button("replay-prev", "replay_prev", () => this.at - 1, icon("previous")),
            this.slider,
            this.playButton,
            button("replay-next", "replay_next", () => this.at + 1, icon("next")),
            button("replay-last", "replay_last", () => this.steps.length - 1, icon("last")),
          ),
        ),
        h(
          "aside",
          { class: "table-side" },
          h("a", { class: "button", href: `/t/${this.code}`, i18n: "back_to_table" }),
          this.racks,
          // Each part with its title, so that a phone's column keeps them together.
          h("section", { class: "replay-part" }, h("h2", { class: "sheet-title", i18n: "analysis_title" }), this.analysisBox),
          h("section", { class: "replay-part" }, h("h2", { class: "sheet-title", i18n: "scores_title" }), this.scores),
          h("section", { class: "replay-part replay-moves" }, h("h2", { class: "sheet-title", i18n: "moves_title" }), this.sheet),
        ),
      ),
    );
  }

  go(at) {
    this.at = Math.max(0, Math.min(this.steps.length - 1, at));
    const step = this.steps[this.at];
    this.slider.value = String(this.at);
    const action = step.hand.actions[step.index];
    const decision = !step.end && action ? this.decisions?.get(decisionKey(step.hand.number, step.index)) : undefined;
    // The best alternative, drawn as a ghost where it would have gone.
    const best = decision && decision.loss > 0 && decision.best.action === "place" ? decision.best : null;
    this.board.render({ placements: step.board, cards: this.cards, preview: best && { tile: best.tile, cell: best.cell, corners: best.corners, points: best.points } });
    const parts = [
      h("span", { i18n: ["hand_number", { number: step.hand.number }] }),
      h("span", { "data-testid": "replay-step", i18n: ["replay_move", { number: Math.max(0, Math.min(step.index + 1, step.hand.actions.length)), count: step.hand.actions.length }] }),
      step.end
        ? h("strong", {}, endText(step.end, this.names))
        : action
          ? h("span", {}, `${this.names[action.player]}: ${actionText(action)}${action.points !== undefined ? ` ${signed(action.points)}` : ""}`)
          : null,
    ];
    if (decision) parts.push(decisionNote(decision));
    this.status.replaceChildren(...parts.filter(Boolean));
    if (this.analysis) {
      const order = decision ? this.analysis.decisions.indexOf(decision) : -1;
      this.graph.replaceChildren(h("h3", { class: "graph-title", i18n: "analysis_graph" }), expectedGraph(this.analysis, order, this.names));
    }
    this.racks.replaceChildren(
      ...this.names.map((name, seat) =>
        h(
          "div",
          { class: `player seat-${seat} ${action?.player === seat && !step.end ? "to-move" : ""}` },
          h("div", { class: "player-line" }, h("span", { class: "player-name" }, name), h("span", { class: "total", "data-testid": "replay-total" }, number(step.scores[seat]))),
          h(
            "div",
            { class: "mini-rack" },
            ...step.racks[seat].map((tile) => tilePicture(tileNumbers(tile), { cards: this.cards || tile === JOKER, joker: tile === JOKER })),
          ),
        ),
      ),
    );
    const hands = [];
    for (const hand of this.record.hands) {
      if (hand.number > step.hand.number) break;
      const current = hand === step.hand;
      hands.push({ number: hand.number, actions: current ? hand.actions.slice(0, step.index + 1) : hand.actions, end: !current || step.end ? hand.end : null });
    }
    const note = this.decisions
      ? (hand, index) => {
          const found = this.decisions.get(decisionKey(hand, index));
          return found ? lossChip(found) : null;
        }
      : null;
    renderSheet(this.sheet, hands, this.names, { buttons: true, current: step.index >= 0 && !step.end ? [step.hand.number, step.index] : null, note });
    this.sheet.querySelector("[aria-current=step]")?.scrollIntoView({ block: "nearest" });
    const finished = this.record.hands.filter((hand) => hand.number < step.hand.number || (hand === step.hand && step.end));
    renderScores(this.scores, finished.map((hand) => ({ number: hand.number, totals: hand.scores })), this.names, this.record.rules.starting_score ?? 0);
  }

  /** Autoplay: one move a second to the end, or until stopped (the button, or a key). */
  toggleAutoplay() {
    if (this.autoplay !== null) {
      this.stopAutoplay();
      return;
    }
    if (this.at >= this.steps.length - 1) this.go(0);
    this.playButton.setAttribute("aria-pressed", "true");
    this.autoplay = setInterval(() => {
      this.go(this.at + 1);
      if (this.at >= this.steps.length - 1) this.stopAutoplay();
    }, 1000);
  }

  stopAutoplay() {
    if (this.autoplay === null) return;
    clearInterval(this.autoplay);
    this.autoplay = null;
    this.playButton.setAttribute("aria-pressed", "false");
  }

  onKey(event) {
    const moves = { ArrowLeft: -1, ArrowRight: 1, Home: -Infinity, End: Infinity };
    if (!(event.key in moves) || event.target.closest?.("input")) return;
    event.preventDefault();
    this.stopAutoplay();
    const move = moves[event.key];
    this.go(Number.isFinite(move) ? this.at + move : move < 0 ? 0 : this.steps.length - 1);
  }
}
