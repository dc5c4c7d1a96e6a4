// Choosing a placement from the server's legal list: the tile chosen, how it is turned,
// and the cell it is shown on. The table and the puzzle page both choose this way.
//
// It decides no rule: every cell, rotation and point comes from the `legal` list (the
// view's, PROTOCOL.md), and a choice ends in one of its entries, sent back unchanged.

import { JOKER, cellKey, cellPoints, centre, tileNumbers } from "./tiles.js";
import { h, signed } from "./dom.js";
import { bonusChips, bonusText, cellText } from "./sheet.js";

/** The numbers of a placement as the tile shows them pointing up (left, apex, right). */
export function pointingUp(entry) {
  const [a, b, c] = entry.action.corners;
  return entry.action.cell[2] === "up" ? [a, b, c] : [c, a, b];
}

function sameNumbers(one, other) {
  return one.length === other.length && one.every((value, index) => value === other[index]);
}

/** The legal list, arranged for the page: placements by tile and cell, and the rest. */
export function arrange(legal) {
  const byTile = new Map();
  const others = {};
  for (const entry of legal) {
    const { action } = entry;
    if (action.cell) {
      const cells = byTile.get(action.tile) ?? new Map();
      byTile.set(action.tile, cells);
      const key = cellKey(action.cell);
      const option = cells.get(key) ?? { cell: action.cell, entries: [], points: -Infinity };
      option.entries.push(entry);
      option.points = Math.max(option.points, entry.points);
      const best = option.entries.find((each) => each.points === option.points);
      const bonuses = Object.entries(best.bonuses);
      option.label = signed(option.points) + (bonuses.length ? "\u2605" : "");
      option.title = [signed(option.points), ...bonuses.map(([name, value]) => bonusText(name, value))].join(" · ");
      cells.set(key, option);
    } else {
      others[action.action] = entry;
    }
  }
  return { byTile, others };
}

const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

/**
 * The keys of choosing a placement, the same on every page: the arrows walk the chosen
 * tile's cells (or, in the rack, its tiles), Enter places the tile shown, Esc takes it
 * back, R turns it. Returns "place" (Enter on a tile shown), "changed" (redraw), "done"
 * (nothing to draw), or null for a key that is the page's own.
 */
export function choiceKey(event, choice, rack) {
  if (event.target.closest?.("input, select, textarea, dialog") || event.ctrlKey || event.metaKey || event.altKey) return "done";
  const key = event.key;
  if (key in ARROWS && choice.selected) {
    event.preventDefault();
    choice.walk(ARROWS[key]);
    return "changed";
  }
  if ((key === "ArrowLeft" || key === "ArrowRight") && event.target.closest?.(".rack")) {
    event.preventDefault();
    rack.moveFocus(key === "ArrowLeft" ? -1 : 1);
    return "done";
  }
  if (key === "Enter" && choice.preview) {
    event.preventDefault();
    return "place";
  }
  if (key === "Escape") {
    choice.cancel();
    return "changed";
  }
  if (key === "r" || key === "R") {
    choice.rotate();
    return "changed";
  }
  return null;
}

export class TileChoice {
  /** @param {() => Array} legal  the legal list now (empty: nothing to choose) */
  constructor(legal) {
    this.legal = legal;
    this.clear();
  }

  get options() {
    return arrange(this.legal());
  }

  /** The chosen tile's legal cells (key -> option), empty when none is chosen. */
  get cells() {
    return (this.selected && this.options.byTile.get(this.selected)) || new Map();
  }

  /** The entry shown on the board, or null. */
  get previewEntry() {
    return (this.preview && this.cells.get(this.preview.key)?.entries[this.preview.index]) ?? null;
  }

  clear() {
    this.selected = null;
    this.turned = null;
    this.preview = null; // {key, index}: a cell of the chosen tile and which of its entries
  }

  /** After the legal list changed but the choice may stand (a draw): keep what still fits. */
  keep() {
    const cells = this.options.byTile.get(this.selected);
    if (!cells) this.clear();
    else if (this.preview && !cells.has(this.preview.key)) this.preview = null;
  }

  /** Choose a tile of the rack; choosing the chosen one again turns it. */
  choose(tile, { dragging = false } = {}) {
    if (tile === this.selected && !dragging) {
      this.rotate();
      return;
    }
    if (tile !== this.selected) {
      this.selected = tile;
      this.turned = tileNumbers(tile);
      this.preview = null;
    }
  }

  /** Turn the chosen tile: to the next rotation that fits where it is shown, or a third turn. */
  rotate() {
    if (!this.selected) return;
    if (this.preview) {
      const option = this.cells.get(this.preview.key);
      if (option && option.entries.length > 1) {
        this.preview.index = (this.preview.index + 1) % option.entries.length;
        this.turned = pointingUp(option.entries[this.preview.index]);
      }
    } else if (this.selected !== JOKER) {
      const [a, b, c] = this.turned;
      this.turned = [c, a, b];
    }
  }

  /** The index of the entry at a cell for the chosen tile: as the tile is turned, else the best. */
  entryAt(option) {
    const asTurned = option.entries.findIndex((entry) => this.turned && sameNumbers(pointingUp(entry), this.turned));
    if (asTurned >= 0) return asTurned;
    let best = 0;
    option.entries.forEach((entry, index) => {
      if (entry.points > option.entries[best].points) best = index;
    });
    return best;
  }

  /** Show the chosen tile on a legal cell, turned to fit. */
  showAt(key) {
    const option = this.cells.get(key);
    if (!option) return;
    const index = this.entryAt(option);
    this.preview = { key, index };
    this.turned = pointingUp(option.entries[index]);
  }

  /** A click on a cell: "place" when it is the cell shown, else the tile moves there (or off). */
  atCell(key) {
    if (this.preview?.key === key) return "place";
    if (this.cells.has(key)) this.showAt(key);
    else this.preview = null;
    return null;
  }

  /** The entry a tile dropped on a cell makes, or null when it cannot go there. */
  dropped(tile, key) {
    if (tile !== this.selected || !key) return null;
    const option = this.cells.get(key);
    return option ? option.entries[this.entryAt(option)] : null;
  }

  /** Esc: the tile off the board, or the choice undone. */
  cancel() {
    if (this.preview) this.preview = null;
    else this.clear();
  }

  /** The arrow keys walk the chosen tile's legal cells, nearest in the arrow's direction. */
  walk([dx, dy]) {
    const cells = this.cells;
    if (!cells.size) return;
    if (!this.preview) {
      const best = [...cells.entries()].sort((a, b) => b[1].points - a[1].points)[0][0];
      this.showAt(best);
      return;
    }
    const here = centre(cellPoints(cells.get(this.preview.key).cell));
    let found = null;
    let score = Infinity;
    for (const [key, option] of cells) {
      const point = centre(cellPoints(option.cell));
      const vx = point[0] - here[0];
      const vy = point[1] - here[1];
      const along = vx * dx + vy * dy;
      if (key === this.preview.key || along <= 1) continue;
      const across = Math.abs(vx * dy - vy * dx);
      const value = along + 2 * across;
      if (value < score) [found, score] = [key, value];
    }
    if (found) this.showAt(found);
  }
}

/**
 * The box under the board that confirms the placement shown: the tile, its cell, its
 * points and bonuses, and Turn (when it fits more ways there), Cancel and `placeKey`'s
 * button. The puzzle and learning pages show it; `redraw` after Turn or Cancel, `place`
 * for the last button.
 */
export function renderConfirm(box, choice, { placeKey, place, redraw }) {
  const entry = choice.previewEntry;
  box.hidden = !entry;
  if (!entry) return;
  const option = choice.cells.get(choice.preview.key);
  box.replaceChildren(
    h(
      "div",
      { class: "confirm-text" },
      h("strong", {}, entry.action.tile),
      ` ${cellText(entry.action.cell)} `,
      h("span", { class: "confirm-points", "data-testid": "confirm-points" }, signed(entry.points)),
      ...bonusChips(entry.bonuses),
    ),
    h(
      "div",
      { class: "confirm-buttons" },
      option.entries.length > 1 ? h("button", { type: "button", "data-testid": "rotate", i18n: "rotate", on: { click: () => (choice.rotate(), redraw()) } }) : null,
      h("button", { type: "button", "data-testid": "cancel", i18n: "cancel", on: { click: () => (choice.cancel(), redraw()) } }),
      h("button", { type: "button", class: "primary", "data-testid": "place", i18n: placeKey, on: { click: () => place(choice.previewEntry) } }),
    ),
  );
}
