// The puzzles: a position to solve by placing a tile (or drawing), the answer checked
// by the server and explained on the board, and this browser's puzzle rating.
//
//   /puzzles           the next puzzle, rated near this browser's rating
//   /puzzles/daily     the puzzle of the day (UTC), the same for everyone
//   /puzzles/{id}      one puzzle
//
// The browser never has the solution before it answers: the server sends it with the
// result of the one rated attempt (PROTOCOL.md, "Puzzles"). The board, the rack and the
// way a tile is chosen, turned and placed are the table's (board.js, rack.js, choice.js).

import { getJson, postJson } from "./api.js";
import { BoardView } from "./board.js";
import { TileChoice, choiceKey, renderConfirm } from "./choice.js";
import { h, number, setText, signed, t } from "./dom.js";
import { describeRefusal, toastRefusal } from "./errors.js";
import { RackView } from "./rack.js";
import { bonusText } from "./sheet.js";

const BROWSER_KEY = "triominos.puzzle_browser";
const BROWSER_HEADER = "X-Puzzle-Browser";

/** A request to the puzzles' API with this browser's id: a new one when it has none, or
 * when the server no longer knows it (a new database) or it is not one (edited by hand). */
async function ask(method, path, body) {
  try {
    return await askOnce(method, path, body);
  } catch (error) {
    if (error.code !== "unknown_browser" && error.field !== "browser") throw error;
    localStorage.removeItem(BROWSER_KEY);
    return askOnce(method, path, body);
  }
}

async function askOnce(method, path, body) {
  let id = localStorage.getItem(BROWSER_KEY);
  if (!id) {
    id = (await postJson("/api/puzzles/browsers", {})).browser;
    localStorage.setItem(BROWSER_KEY, id);
  }
  const headers = { [BROWSER_HEADER]: id };
  return method === "GET" ? getJson(path, headers) : postJson(path, body, headers);
}

/**
 * A place in words, by the tiles beside it (triominos.explain.Where): "left of the
 * 5-5-5", "between the 1-2-3 and the 3-4-5", never its coordinates.
 */
function whereText({ beside, side }) {
  if (side) return t(`puzzle_where_${side}`, { tile: beside[0] });
  const [first, second, third] = beside;
  if (third) return t("puzzle_where_between_three", { first, second, third });
  return second ? t("puzzle_where_between", { first, second }) : t("puzzle_where_open");
}

/** An action in words, for the explanation: "the 3-4-5 left of the 5-5-5", or the draw. */
function moveText(action) {
  return action.action === "draw" ? t("puzzle_the_draw") : t("puzzle_move", { tile: action.tile, where: whereText(action.where) });
}

/** A text as nodes, each tile's name ("2-2-4") in a span that never breaks at its hyphens. */
function keepingTiles(text) {
  return text.split(/(\d-\d-\d)/).map((part, index) => (index % 2 ? h("span", { class: "tile-name" }, part) : part));
}

/** One reason of the explanation (triominos.puzzles.Reason) in words. */
function reasonText({ key, params }) {
  const words = { ...params };
  if (params.bonus) words.bonus = bonusText(params.bonus, params.points);
  if (params.where) words.where = whereText(params.where);
  if (key === "worth") {
    words.solution = signed(params.solution);
    words.obvious = signed(params.obvious);
  }
  if (key === "draws" || key === "keeps_back") words.points = signed(params.points);
  return t(`puzzle_why_${key}`, words);
}

export class PuzzlePage {
  /** @param {string} which  "next", "daily" or a puzzle's id */
  constructor(root, which) {
    this.root = root;
    this.which = which;
    this.puzzle = null;
    this.result = null; // the answer checked: {solved, solution, obvious, explanation, ...}
    this.rating = null; // this browser's rating, before and after the last answer
    this.pending = false;
    this.choice = new TileChoice(() => (this.answerable ? this.puzzle.legal : []));
    this.build();
    this.keydown = (event) => this.onKey(event);
    document.addEventListener("keydown", this.keydown);
  }

  get answerable() {
    return Boolean(this.puzzle) && !this.result && !this.pending;
  }

  build() {
    this.status = h("div", { class: "status-bar", "data-testid": "status" });
    this.confirmBox = h("div", { class: "confirm", "data-testid": "confirm", hidden: true });
    this.boardWrap = h("div", { class: "board-wrap" });
    this.board = new BoardView(this.boardWrap, { onCellClick: (key) => this.onCell(key) });
    this.board.svg.setAttribute("aria-label", t("board_label"));
    this.board.svg.dataset.i18nAttrs = JSON.stringify({ "aria-label": "board_label" });
    this.boardWrap.append(this.confirmBox);
    const rackBox = h("div", { class: "rack-box" });
    this.rack = new RackView(rackBox, {
      onChoose: (tile, how) => {
        this.choice.choose(tile, how);
        this.render();
      },
      onDragMove: (x, y) => this.board.markDrop(this.dropKey(x, y)),
      onDrop: (tile, x, y) => {
        this.board.markDrop(null);
        const entry = this.choice.dropped(tile, this.dropKey(x, y));
        if (entry) this.answer(entry);
        else this.render();
      },
      onDragEnd: () => this.board.markDrop(null),
    });
    this.actions = h("div", { class: "actions", role: "toolbar", i18nAttrs: { "aria-label": "actions_label" } });
    this.side = h("aside", { class: "table-side puzzle-side", "data-testid": "puzzle-side" });
    this.element = h(
      "section",
      { class: "table-page puzzle-page", "data-testid": "puzzle" },
      h("div", { class: "table-main" }, this.status, this.boardWrap, h("div", { class: "rack-bar" }, rackBox, this.actions)),
      this.side,
    );
    this.root.replaceChildren(this.element);
  }

  async start() {
    await this.load(this.which);
  }

  async load(which) {
    const path = which === "next" ? "/api/puzzles/next" : which === "daily" ? "/api/puzzles/daily" : `/api/puzzles/${encodeURIComponent(which)}`;
    try {
      // One after the other: a browser without an id gets one, once, with the first.
      const me = await ask("GET", "/api/puzzles/me");
      const answer = await ask("GET", path);
      this.puzzle = answer.puzzle;
      this.daily = answer.date ?? null;
      this.result = this.puzzle.attempt;
      this.rating = { after: me.rating, before: null };
    } catch (error) {
      this.showRefusal(error);
      return;
    }
    this.choice.clear();
    const address = this.daily ? "/puzzles/daily" : `/puzzles/${this.puzzle.id}`;
    if (location.pathname !== address) history.replaceState(null, "", address);
    this.render();
    this.rack.focusFirst();
  }

  showRefusal(error) {
    const refusal = describeRefusal(error);
    const key = error.code === "not_found" ? "puzzle_not_found" : error.code === "none_left" ? "puzzle_none_left" : null;
    this.root.replaceChildren(
      h(
        "section",
        { class: "card narrow", "data-testid": "no-puzzle" },
        h("h1", { i18n: "puzzles_title" }),
        key ? h("p", { i18n: key }) : h("p", { title: refusal.detail || null }, refusal.text),
        h("a", { class: "button primary", href: "/puzzles/daily", i18n: "puzzle_daily" }),
        " ",
        h("a", { class: "button", href: "/", i18n: "back_home" }),
      ),
    );
  }

  destroy() {
    document.removeEventListener("keydown", this.keydown);
  }

  // --- answering ---------------------------------------------------------------------

  dropKey(x, y) {
    const key = this.board.cellKeyAt(x, y);
    return key && this.choice.cells.has(key) ? key : null;
  }

  onCell(key) {
    if (this.choice.atCell(key) === "place") this.answer(this.choice.previewEntry);
    else this.render();
  }

  async answer(entry) {
    if (!entry || !this.answerable) return;
    this.pending = true;
    this.choice.clear();
    this.render();
    try {
      const result = await ask("POST", `/api/puzzles/${this.puzzle.id}/attempts`, { answer: entry.action });
      this.result = result;
      this.rating = { before: result.browser.before, after: result.browser.after };
      this.puzzle.rating = result.puzzle.after;
    } catch (error) {
      toastRefusal(error);
    } finally {
      this.pending = false;
      this.render();
    }
    this.element.querySelector("[data-testid=next-puzzle]")?.focus();
  }

  onKey(event) {
    const done = choiceKey(event, this.choice, this.rack);
    if (done === "place") this.answer(this.choice.previewEntry);
    else if (done === "changed") this.render();
    else if (!done && (event.key === "d" || event.key === "D") && this.answerable) this.answer(this.choice.options.others.draw);
  }

  // --- drawing the page --------------------------------------------------------------

  render() {
    const puzzle = this.puzzle;
    if (!puzzle) return;
    this.element.dataset.answered = String(Boolean(this.result));
    this.element.dataset.puzzle = puzzle.id;
    const { byTile, others } = this.choice.options;
    const cells = this.choice.cells;
    const previewEntry = this.choice.previewEntry;
    this.board.render({
      placements: puzzle.board,
      cards: false,
      legal: cells,
      focus: this.choice.preview?.key ?? null,
      preview: previewEntry ? { ...previewEntry.action, points: previewEntry.points } : null,
      marks: this.marks(),
    });
    this.rack.render({
      tiles: puzzle.rack,
      cards: false,
      playable: new Set(byTile.keys()),
      selected: this.choice.selected,
      turned: this.choice.turned,
    });
    renderConfirm(this.confirmBox, this.choice, { placeKey: "puzzle_answer", place: (entry) => this.answer(entry), redraw: () => this.render() });
    // Made once and updated, so that a render (a tile chosen, the language changed) does
    // not drop the keyboard's focus from it.
    const draw = others.draw ?? puzzle.legal.find((entry) => entry.action.action === "draw");
    if (!this.drawButton) {
      this.drawButton = h("button", {
        type: "button",
        class: "action draw",
        "data-testid": "draw",
        on: { click: () => this.answer(this.choice.options.others.draw) },
      });
      this.actions.replaceChildren(this.drawButton);
    }
    this.drawButton.disabled = !draw || !this.answerable;
    setText(this.drawButton, "draw_cost", { points: draw ? signed(draw.points) : "" });
    this.renderStatus();
    this.renderSide();
  }

  /** After the answer: the solution and the obvious move drawn, and the cells the reasons name. */
  marks() {
    const result = this.result;
    if (!result) return [];
    const marks = [];
    const tileMark = (action, kind, label, low) => {
      if (action.action === "place") marks.push({ cell: action.cell, corners: action.corners, tile: action.tile, kind, label, low });
    };
    tileMark(result.obvious, "obvious", t("puzzle_obvious_mark"), true);
    tileMark(result.solution, "solution", t("puzzle_solution_mark"));
    for (const reason of result.explanation) {
      if (reason.params.cell) marks.push({ cell: reason.params.cell, kind: reason.key, label: reasonText(reason) });
    }
    return marks;
  }

  renderStatus() {
    const puzzle = this.puzzle;
    const title = this.daily ? h("strong", { i18n: ["puzzle_daily_title", { date: this.daily }] }) : h("strong", { i18n: ["puzzle_title", { id: puzzle.id }] });
    const opponents = puzzle.rack_sizes.flatMap((size, seat) =>
      seat === puzzle.seat ? [] : [h("span", { "data-testid": "opponent-rack", i18n: ["puzzle_opponent", { seat: seat + 1, count: size }] })],
    );
    this.status.replaceChildren(
      title,
      h("span", { "data-testid": "pool-size", i18n: ["pool_size", { count: puzzle.pool_size }] }),
      ...opponents,
      h("span", { class: "turn", "data-testid": "puzzle-rating", i18n: ["puzzle_rating", { rating: puzzle.rating.rating }] }),
    );
  }

  renderSide() {
    const result = this.result;
    const rating = this.rating?.after;
    const change = this.rating?.before ? rating.rating - this.rating.before.rating : null;
    const parts = [
      h(
        "section",
        { class: "card puzzle-rating" },
        h("h2", { i18n: "puzzle_your_rating" }),
        h(
          "p",
          { class: "rating" },
          h("strong", { "data-testid": "my-rating" }, rating ? number(rating.rating) : ""),
          change === null ? null : h("span", { class: `rating-change ${change < 0 ? "down" : "up"}`, "data-testid": "rating-change" }, ` ${signed(change)}`),
        ),
      ),
    ];
    if (!result) {
      parts.push(h("p", { class: "notice", "data-testid": "puzzle-prompt", i18n: "puzzle_prompt" }));
    } else {
      parts.push(
        h(
          "section",
          { class: `card puzzle-result ${result.solved ? "solved" : "failed"}`, "data-testid": "puzzle-result", dataset: { solved: String(result.solved) } },
          h("h2", { i18n: result.solved ? "puzzle_solved" : "puzzle_failed" }),
          // Drawn again in the new language by render(), as the reasons are.
          h("p", {}, ...keepingTiles(t("puzzle_best", { move: moveText(result.solution), points: signed(result.solution_points) }))),
          h("p", {}, ...keepingTiles(t("puzzle_obvious", { move: moveText(result.obvious), points: signed(result.obvious_points) }))),
          h("h3", { i18n: "puzzle_why_title" }),
          h("ul", { class: "puzzle-why", "data-testid": "puzzle-why" }, ...result.explanation.map((reason) => h("li", { dataset: { reason: reason.key } }, ...keepingTiles(reasonText(reason))))),
        ),
      );
    }
    parts.push(
      h(
        "div",
        { class: "puzzle-links" },
        h("button", { type: "button", class: "primary", "data-testid": "next-puzzle", i18n: "puzzle_next", on: { click: () => this.load("next") } }),
        h("a", { class: "button", href: "/puzzles/daily", "data-testid": "daily-puzzle", i18n: "puzzle_daily" }),
      ),
    );
    this.side.replaceChildren(...parts);
  }
}
