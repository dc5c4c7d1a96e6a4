// "Learn to play": a guided first hand of each edition, step by step.
//
//   /learn             the lessons: the classic game, the extended game, Junior
//   /learn/{edition}   one lesson, from its first step
//
// Each step is a position the server holds (triominos.learn): the page shows it with the
// table's board and rack, the player does what the goal asks, and the server's engine
// says whether the move reaches the goal and, if not, why (PROTOCOL.md, "Learn to
// play"). The page decides nothing: the legal moves, the points and the reasons are the
// server's. After the last step one click starts a first game against the gentlest bot,
// with hints on.

import { getJson, holdSeat, playerName, postJson } from "./api.js";
import { BoardView } from "./board.js";
import { LEVELS } from "./bots.js";
import { TileChoice, choiceKey, renderConfirm } from "./choice.js";
import { h, setText, signed, t } from "./dom.js";
import { toastRefusal } from "./errors.js";
import { RackView } from "./rack.js";
import { bonusText, cellText } from "./sheet.js";

/** The lessons in the order they are offered, and the one a newcomer starts with. */
export const EDITIONS = ["classic", "extended", "junior"];

/** One reason a move misses the goal (triominos.learn.REASONS), in words. */
function reasonText({ key, params }) {
  const words = { ...params };
  if (params.cell) words.cell = cellText(params.cell);
  if (params.bonus) words.bonus = bonusText(params.bonus, params.value);
  for (const name of ["points", "best"]) if (name in params) words[name] = signed(params[name]);
  return t(`learn_why_${key}`, words);
}

export class LearnPage {
  /** @param {string|null} edition  a lesson, or null for the list of lessons */
  constructor(root, edition) {
    this.root = root;
    this.edition = edition;
    this.step = null; // the step shown (the server's GET /api/learn/{edition}/{n})
    this.verdict = null; // the engine's answer to the last move tried
    this.pending = false;
    this.choice = new TileChoice(() => (this.answerable ? this.step.legal : []));
    this.keydown = (event) => this.onKey(event);
  }

  get answerable() {
    return Boolean(this.step) && !this.verdict?.correct && !this.pending;
  }

  async start() {
    if (!this.edition) {
      this.renderLessons();
      return;
    }
    if (!EDITIONS.includes(this.edition)) {
      this.root.replaceChildren(h("section", { class: "card narrow" }, h("h1", { i18n: "not_found" }), h("a", { class: "button primary", href: "/learn", i18n: "learn_title" })));
      return;
    }
    this.build();
    document.addEventListener("keydown", this.keydown);
    await this.load(0);
  }

  renderLessons() {
    this.root.replaceChildren(
      h(
        "section",
        { class: "card narrow learn-lessons", "data-testid": "learn-lessons" },
        h("h1", { i18n: "learn_title" }),
        h("p", { i18n: "learn_intro" }),
        h(
          "ul",
          { class: "learn-list" },
          ...EDITIONS.map((edition) =>
            h(
              "li",
              {},
              h("a", { class: "button primary", href: `/learn/${edition}`, "data-testid": `learn-${edition}`, i18n: `learn_${edition}_title` }),
              " ",
              h("a", { href: `/rules/${edition}`, "data-testid": `rules-${edition}`, i18n: "rules_link" }),
            ),
          ),
        ),
      ),
    );
  }

  build() {
    this.status = h("div", { class: "status-bar", "data-testid": "status" });
    this.confirmBox = h("div", { class: "confirm", "data-testid": "confirm", hidden: true });
    this.boardWrap = h("div", { class: "board-wrap" });
    this.board = new BoardView(this.boardWrap, { onCellClick: (key) => this.onCell(key) });
    this.board.svg.dataset.i18nAttrs = JSON.stringify({ "aria-label": "board_label" });
    this.board.svg.setAttribute("aria-label", t("board_label"));
    this.boardWrap.append(this.confirmBox);
    const rackBox = h("div", { class: "rack-box" });
    this.rack = new RackView(rackBox, {
      onChoose: (tile, how) => this.onChoose(tile, how),
      onDragMove: (x, y) => this.board.markDrop(this.dropKey(x, y)),
      onDrop: (tile, x, y) => {
        this.board.markDrop(null);
        const entry = this.choice.dropped(tile, this.dropKey(x, y));
        if (entry) this.answer(entry.action);
        else this.render();
      },
      onDragEnd: () => this.board.markDrop(null),
    });
    this.actions = h("div", { class: "actions", role: "toolbar", i18nAttrs: { "aria-label": "actions_label" } });
    this.buttons = {};
    for (const [kind, key] of [
      ["starter_draw", "starter_draw"],
      ["draw", "draw_cost"],
      ["pass", "pass_cost"],
    ]) {
      this.buttons[kind] = h("button", { type: "button", class: `action ${kind}`, "data-testid": kind.replace("_", "-"), dataset: { key }, on: { click: () => this.answer({ action: kind }) } });
    }
    this.side = h("aside", { class: "table-side puzzle-side learn-side", "data-testid": "learn-side" });
    this.element = h(
      "section",
      { class: "table-page puzzle-page learn-page", "data-testid": "learn" },
      h("div", { class: "table-main" }, this.status, this.boardWrap, h("div", { class: "rack-bar" }, rackBox, this.actions)),
      this.side,
    );
    this.root.replaceChildren(this.element);
  }

  async load(number) {
    try {
      this.step = await getJson(`/api/learn/${this.edition}/${number}`);
    } catch (error) {
      toastRefusal(error);
      return;
    }
    this.verdict = null;
    this.choice.clear();
    this.render();
    this.rack.focusFirst();
  }

  // --- answering ---------------------------------------------------------------------

  dropKey(x, y) {
    const key = this.board.cellKeyAt(x, y);
    return key && this.choice.cells.has(key) ? key : null;
  }

  /** A tile chosen: one that fits is shown where it may go; one that fits nowhere is
   * sent to the server, which says why (which corner does not match). */
  onChoose(tile, how) {
    if (!this.answerable) return;
    if (this.choice.options.byTile.has(tile)) {
      this.choice.choose(tile, how);
      this.render();
    } else {
      this.send({ tile });
    }
  }

  onCell(key) {
    if (this.choice.atCell(key) === "place") this.answer(this.choice.previewEntry.action);
    else this.render();
  }

  answer(action) {
    if (action) this.send({ answer: action });
  }

  async send(body) {
    if (!this.answerable) return;
    this.pending = true;
    this.choice.clear();
    this.render();
    try {
      this.verdict = await postJson(`/api/learn/${this.edition}/${this.step.step}`, body);
    } catch (error) {
      toastRefusal(error);
    } finally {
      this.pending = false;
      this.render();
    }
    this.side.querySelector("[data-testid=learn-next], [data-testid=learn-first-game]")?.focus();
  }

  onKey(event) {
    const done = choiceKey(event, this.choice, this.rack);
    if (done === "place") this.answer(this.choice.previewEntry?.action);
    else if (done === "changed") this.render();
  }

  /** The first game: this edition, two players, the gentlest bot, hints on. */
  async firstGame() {
    const level = LEVELS[0];
    try {
      const answer = await postJson("/api/tables", {
        preset: this.edition,
        players: 2,
        seats: [
          { kind: "person", name: playerName() || t("learn_player") },
          { kind: "bot", bot: level.bot, think: level.think },
        ],
        take: [0],
        hints: true,
      });
      for (const { seat, token } of answer.seats) holdSeat(answer.code, seat, token);
      location.assign(`/t/${answer.code}`);
    } catch (error) {
      toastRefusal(error);
    }
  }

  // --- drawing the page --------------------------------------------------------------

  render() {
    const step = this.step;
    if (!step) return;
    const after = this.verdict?.after ?? null;
    const cards = step.rules.tile_set === "junior";
    Object.assign(this.element.dataset, { edition: this.edition, step: String(step.step), key: step.key, solved: String(Boolean(after)) });
    const cells = this.choice.cells;
    const previewEntry = this.choice.previewEntry;
    this.board.render({
      placements: after ? after.board : step.board,
      cards,
      legal: cells,
      focus: this.choice.preview?.key ?? null,
      preview: previewEntry ? { ...previewEntry.action, points: previewEntry.points } : null,
      marks: this.marks(),
    });
    const played = after && this.verdict.action.tile;
    this.rack.render({
      tiles: played ? step.rack.filter((tile, index) => index !== step.rack.indexOf(played)) : step.rack,
      cards,
      playable: new Set(this.answerable ? this.choice.options.byTile.keys() : []),
      selected: this.choice.selected,
      turned: this.choice.turned,
    });
    renderConfirm(this.confirmBox, this.choice, { placeKey: "place", place: (entry) => this.answer(entry.action), redraw: () => this.render() });
    this.renderActions();
    this.renderStatus(after);
    this.renderSide(after);
  }

  marks() {
    const marks = [];
    for (const reason of this.verdict?.reasons ?? []) {
      if (reason.params.cell) marks.push({ cell: reason.params.cell, kind: "learn-corner", label: reasonText(reason) });
    }
    return marks;
  }

  /** Draw, Pass and the starter's draw: each shown when the step allows it. */
  renderActions() {
    const others = this.choice.options.others;
    const shown = [];
    for (const [kind, button] of Object.entries(this.buttons)) {
      const entry = this.step.legal.find((each) => each.action.action === kind);
      if (!entry) continue;
      const key = kind === "draw" && this.step.rules.tile_set === "junior" ? "buy_cost" : button.dataset.key;
      setText(button, key, { points: signed(entry.points) });
      button.disabled = !others[kind];
      shown.push(button);
    }
    this.actions.replaceChildren(...shown);
  }

  renderStatus(after) {
    const step = this.step;
    const totals = after ? after.totals : step.totals;
    const bank = after ? after.bank : step.bank;
    const parts = [
      h("strong", { i18n: `learn_${this.edition}_title` }),
      h("span", { "data-testid": "learn-progress", i18n: ["learn_progress", { number: step.step + 1, steps: step.steps }] }),
      h("span", { "data-testid": "learn-score", i18n: ["learn_score", { points: totals[step.seat] }] }),
      bank === null ? null : h("span", { "data-testid": "learn-bank", i18n: ["learn_bank", { count: bank }] }),
      h("span", { "data-testid": "pool-size", i18n: ["pool_size", { count: step.pool_size }] }),
    ];
    this.status.replaceChildren(...parts.filter(Boolean));
  }

  renderSide(after) {
    const step = this.step;
    const prefix = `learn_${this.edition}_${step.key}`;
    const parts = [h("section", { class: "card learn-goal" }, h("h2", { i18n: "learn_goal" }), h("p", { "data-testid": "learn-goal", i18n: `${prefix}_goal` }))];
    const verdict = this.verdict;
    if (verdict && !verdict.correct) {
      parts.push(
        h(
          "section",
          { class: "card puzzle-result failed", "data-testid": "learn-verdict", dataset: { correct: "false" } },
          h("h2", { i18n: "learn_not_yet" }),
          h("ul", { class: "puzzle-why" }, ...verdict.reasons.map((reason) => h("li", { "data-testid": "learn-reason", dataset: { reason: reason.key } }, reasonText(reason)))),
          h("p", { i18n: "learn_try_again" }),
        ),
      );
    }
    if (after) {
      const settlement = after.end ? after.end.settlement[step.seat] : 0;
      const last = step.step + 1 === step.steps;
      parts.push(
        h(
          "section",
          { class: "card puzzle-result solved", "data-testid": "learn-verdict", dataset: { correct: "true" } },
          h("h2", { i18n: "learn_well_done" }),
          h("p", { "data-testid": "learn-done", i18n: [`${prefix}_done`, { points: signed(verdict.points), settlement: signed(settlement), tile: after.event.tile ?? "" }] }),
          last
            ? h("p", { i18n: "learn_finished" })
            : h("button", { type: "button", class: "primary", "data-testid": "learn-next", i18n: "learn_next", on: { click: () => this.load(step.step + 1) } }),
          last ? h("button", { type: "button", class: "primary", "data-testid": "learn-first-game", i18n: "learn_first_game", on: { click: () => this.firstGame() } }) : null,
        ),
      );
    }
    parts.push(
      h(
        "div",
        { class: "puzzle-links" },
        h("a", { class: "button", href: `/rules/${this.edition}`, "data-testid": "rules-link", i18n: "rules_link" }),
        h("a", { class: "button", href: "/learn", "data-testid": "learn-lessons-link", i18n: "learn_title" }),
      ),
    );
    this.side.replaceChildren(...parts);
  }
}
