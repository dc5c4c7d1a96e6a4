// The board: tiles on the lattice in an SVG that pans and zooms (mouse, wheel, touch).
//
// The board draws what it is given and reports where the user clicked; it knows no rule.
// Legal cells come from the server's `legal` list (table.js turns them into the
// `legal` map passed to `render`).

import {
  EDGE,
  JOKER,
  cellAt,
  cellKey,
  cellPoints,
  cellPolygon,
  cellVertices,
  centre,
  drawTile,
  svgElement,
} from "./tiles.js";

const MIN_SCALE = 0.25;
const MAX_SCALE = 2.4;
const FIT_MARGIN = 0.6 * EDGE;
const FLASH_LINE = 22; // board units between the lines of one flash
const CLICK_SLOP = 6; // pixels a pointer may move and still be a click, not a pan

/** The numbers each lattice vertex shows, from the tiles on the board. */
function vertexNumbers(placements) {
  const numbers = new Map();
  for (const placement of placements) {
    cellVertices(placement.cell).forEach((vertex, index) => {
      const number = placement.corners[index];
      if (number !== null && number !== undefined) numbers.set(vertex.join(","), number);
    });
  }
  return numbers;
}

/** What a joker on the board shows: the numbers around it, or null at a free corner. */
function jokerCorners(placement, numbers) {
  return cellVertices(placement.cell).map((vertex, index) => {
    const own = placement.corners[index];
    return own ?? numbers.get(vertex.join(",")) ?? null;
  });
}

export class BoardView {
  /**
   * @param {HTMLElement} container  where the <svg> goes; it fills the container
   * @param {{onCellClick?: (key: string) => void, label?: string}} options
   */
  constructor(container, { onCellClick = () => {}, label = "" } = {}) {
    this.container = container;
    this.onCellClick = onCellClick;
    this.svg = svgElement("svg", { class: "board", "data-testid": "board", role: "img" });
    if (label) this.svg.setAttribute("aria-label", label);
    // The picture is for the eye; a screen reader reads the board's label (its summary).
    this.viewport = svgElement("g", { class: "viewport", "aria-hidden": "true" }, this.svg);
    this.layers = {};
    for (const name of ["tiles", "legal", "hints", "preview", "effects"]) {
      this.layers[name] = svgElement("g", { class: `layer-${name}` }, this.viewport);
    }
    container.appendChild(this.svg);
    this.transform = { x: 0, y: 0, scale: 1 };
    this.userMoved = false;
    this.bounds = null;
    this.pointers = new Map();
    this.gesture = null;
    this.listen();
    this.resizeObserver = new ResizeObserver(() => {
      if (!this.userMoved) this.fit(false);
    });
    this.resizeObserver.observe(container);
  }

  destroy() {
    this.resizeObserver.disconnect();
    this.svg.remove();
  }

  /**
   * Draw the board.
   * @param {object} state
   * @param {Array<{tile, cell, corners}>} state.placements  in placement order
   * @param {boolean} state.cards  Junior cards
   * @param {boolean} [state.markLast]  outline the last placement
   * @param {Map<string, {cell, points, label, title}>} [state.legal]  cells to light up
   * @param {string|null} [state.focus]  the legal cell the keyboard is on
   * @param {{cell, corners, tile, points}|null} [state.preview]  a tile shown, not laid
   * @param {Array<{cell, rank}>} [state.hints]
   * @param {Array<{cell, corners, tile, kind, label, low}>} [state.marks]  tiles shown with
   *   a label (a puzzle's solution and obvious move), or a cell alone without `corners`
   */
  render({ placements, cards, markLast = true, legal = new Map(), focus = null, preview = null, hints = [], marks = [] }) {
    for (const layer of Object.values(this.layers)) {
      if (layer !== this.layers.effects) layer.replaceChildren();
    }
    const numbers = vertexNumbers(placements);
    // A tile just laid (one more than last drawn, at another cell) slides in.
    const lastKey = placements.length ? cellKey(placements[placements.length - 1].cell) : null;
    const arrived = placements.length === (this.drawn?.count ?? -1) + 1 && lastKey !== this.drawn?.lastKey;
    this.drawn = { count: placements.length, lastKey };
    placements.forEach((placement, index) => {
      const joker = placement.tile === JOKER;
      const last = markLast && index === placements.length - 1;
      const group = drawTile(
        this.layers.tiles,
        placement.cell,
        joker ? jokerCorners(placement, numbers) : placement.corners,
        { cards: cards || joker, joker, className: last ? (arrived ? "last arrive" : "last") : "" },
      );
      group.dataset.testid = "board-tile";
      group.dataset.tile = placement.tile;
      group.dataset.cell = cellKey(placement.cell);
      if (last) group.dataset.last = "true";
    });
    for (const [key, option] of legal) {
      const covered = key === (preview && cellKey(preview.cell));
      const polygon = svgElement(
        "polygon",
        {
          class: `legal ${key === focus ? "focus" : ""} ${covered ? "covered" : ""}`,
          points: cellPolygon(option.cell),
          "data-testid": "legal-cell",
          "data-cell": key,
          "data-points": option.points,
        },
        this.layers.legal,
      );
      if (option.title) svgElement("title", {}, polygon).textContent = option.title;
      if (!covered) {
        const [x, y] = centre(cellPoints(option.cell));
        const text = svgElement("text", { class: "legal-points", x, y: y + 5 }, this.layers.legal);
        text.textContent = option.label;
      }
    }
    for (const hint of hints) {
      svgElement("polygon", { class: "hint", points: cellPolygon(hint.cell, 0) }, this.layers.hints);
      const [x, y] = centre(cellPoints(hint.cell));
      const mark = svgElement("text", { class: "hint-rank", x, y: y - 10 }, this.layers.hints);
      mark.textContent = String(hint.rank);
    }
    for (const mark of marks) {
      const key = cellKey(mark.cell);
      if (mark.corners) {
        const group = drawTile(this.layers.hints, mark.cell, mark.corners, { cards, className: `ghost mark-${mark.kind}` });
        group.dataset.testid = `mark-${mark.kind}`;
        group.dataset.cell = key;
      } else {
        const cell = svgElement("polygon", { class: `mark mark-${mark.kind}`, points: cellPolygon(mark.cell, 0), "data-testid": `mark-${mark.kind}`, "data-cell": key }, this.layers.hints);
        if (mark.label) svgElement("title", {}, cell).textContent = mark.label;
      }
      if (mark.label && mark.corners) {
        // Above the centre, or below it with `low` (two marks on one cell keep apart).
        const [x, y] = centre(cellPoints(mark.cell));
        const text = svgElement("text", { class: `mark-label mark-${mark.kind}`, x, y: mark.low ? y + 24 : y - 14 }, this.layers.hints);
        text.textContent = mark.label;
      }
    }
    if (preview) {
      const joker = preview.tile === JOKER;
      const group = drawTile(this.layers.preview, preview.cell, joker ? jokerCorners(preview, numbers) : preview.corners, {
        cards: cards || joker,
        joker,
        className: "ghost",
      });
      group.dataset.testid = "preview";
      group.dataset.cell = cellKey(preview.cell);
      group.dataset.corners = preview.corners.join(",");
    }
    const cells = [...placements.map((p) => p.cell), ...[...legal.values()].map((o) => o.cell), ...marks.map((m) => m.cell)];
    this.bounds = this.measure(cells.length ? cells : [[0, 0, "up"]]);
    if (!this.userMoved) this.fit(true);
  }

  /**
   * A short animated label over a cell, such as the bonuses just made: one line each,
   * stacked upwards, so that two bonuses of one placement never cover each other.
   */
  flash(cell, lines, className = "") {
    const [x, y] = centre(cellPoints(cell));
    lines.forEach((text, index) => {
      const label = svgElement("text", { class: `flash ${className}`.trim(), x, y: y - index * FLASH_LINE, "data-testid": "flash" }, this.layers.effects);
      label.textContent = text;
      label.addEventListener("animationend", () => label.remove());
    });
  }

  /** Take every label off the board (a new hand begins under them). */
  clearFlashes() {
    this.layers.effects.replaceChildren();
  }

  measure(cells) {
    const points = cells.flatMap(cellPoints);
    const xs = points.map((p) => p[0]);
    const ys = points.map((p) => p[1]);
    return {
      left: Math.min(...xs) - FIT_MARGIN,
      top: Math.min(...ys) - FIT_MARGIN,
      right: Math.max(...xs) + FIT_MARGIN,
      bottom: Math.max(...ys) + FIT_MARGIN,
    };
  }

  /** Centre the tiles and the lit cells in the view, as large as fits. */
  fit(animate = true) {
    const { width, height } = this.container.getBoundingClientRect();
    if (!this.bounds || width === 0 || height === 0) return;
    const { left, top, right, bottom } = this.bounds;
    const scale = clamp(Math.min(width / (right - left), height / (bottom - top)), MIN_SCALE, 1.6);
    this.setTransform(
      {
        scale,
        x: width / 2 - ((left + right) / 2) * scale,
        y: height / 2 - ((top + bottom) / 2) * scale,
      },
      animate,
    );
  }

  /** Back to the automatic view, which follows the game. */
  recentre() {
    this.userMoved = false;
    this.fit(true);
  }

  setTransform(transform, animate = false) {
    this.transform = transform;
    this.viewport.classList.toggle("animate", animate);
    this.viewport.style.transform = `translate(${transform.x}px, ${transform.y}px) scale(${transform.scale})`;
  }

  /**
   * The board's picture point under a client (page) point, where the board is drawn now:
   * while it glides to a new view (`fit`), that is not yet `this.transform`, and a click on
   * a lit cell must find the cell that was under the pointer.
   */
  toBoard(clientX, clientY) {
    const rect = this.svg.getBoundingClientRect();
    const { a: scale, e: x, f: y } = new DOMMatrixReadOnly(getComputedStyle(this.viewport).transform);
    return [(clientX - rect.left - x) / scale, (clientY - rect.top - y) / scale];
  }

  /** The key of the cell under a client point, or null outside the board. */
  cellKeyAt(clientX, clientY) {
    const rect = this.svg.getBoundingClientRect();
    if (clientX < rect.left || clientX > rect.right || clientY < rect.top || clientY > rect.bottom) return null;
    return cellKey(cellAt(...this.toBoard(clientX, clientY)));
  }

  /** Mark the cell a dragged tile would land on (null: none). */
  markDrop(key) {
    for (const polygon of this.layers.legal.querySelectorAll("polygon.legal")) {
      polygon.classList.toggle("drop", polygon.dataset.cell === key);
    }
  }

  zoomAt(clientX, clientY, factor) {
    const rect = this.svg.getBoundingClientRect();
    const { x, y, scale } = this.transform;
    const next = clamp(scale * factor, MIN_SCALE, MAX_SCALE);
    const px = clientX - rect.left;
    const py = clientY - rect.top;
    this.userMoved = true;
    this.setTransform({ scale: next, x: px - ((px - x) * next) / scale, y: py - ((py - y) * next) / scale });
  }

  listen() {
    const svg = this.svg;
    svg.addEventListener("pointerdown", (event) => {
      if (event.button !== 0 && event.pointerType === "mouse") return;
      this.pointers.set(event.pointerId, [event.clientX, event.clientY]);
      try {
        svg.setPointerCapture(event.pointerId); // keep the gesture when the finger leaves the board
      } catch {
        // A pointer the browser no longer tracks: the gesture works without capture.
      }
      this.startGesture(event);
    });
    svg.addEventListener("pointermove", (event) => {
      if (!this.pointers.has(event.pointerId)) return;
      this.pointers.set(event.pointerId, [event.clientX, event.clientY]);
      this.moveGesture();
    });
    const end = (event) => {
      if (!this.pointers.has(event.pointerId)) return;
      const gesture = this.gesture;
      this.pointers.delete(event.pointerId);
      if (event.type === "pointerup" && gesture?.kind === "press" && !gesture.moved) {
        const key = this.cellKeyAt(event.clientX, event.clientY);
        if (key) this.onCellClick(key);
      }
      this.startGesture(event);
    };
    svg.addEventListener("pointerup", end);
    svg.addEventListener("pointercancel", end);
    svg.addEventListener(
      "wheel",
      (event) => {
        event.preventDefault();
        this.zoomAt(event.clientX, event.clientY, Math.exp(-event.deltaY * 0.0015));
      },
      { passive: false },
    );
  }

  /** A new gesture whenever the number of pointers changes: press/pan with one, pinch with two. */
  startGesture() {
    const points = [...this.pointers.values()];
    const start = { ...this.transform };
    if (points.length === 1) {
      const previous = this.gesture;
      // A pan that loses its second finger goes on as a pan, never as a click.
      this.gesture = { kind: "press", origin: points[0], start, moved: previous?.kind === "pinch" };
    } else if (points.length === 2) {
      const [a, b] = points;
      this.gesture = { kind: "pinch", distance: Math.hypot(a[0] - b[0], a[1] - b[1]) || 1, middle: midpoint(a, b), start };
    } else {
      this.gesture = null;
    }
  }

  moveGesture() {
    const gesture = this.gesture;
    const points = [...this.pointers.values()];
    if (!gesture) return;
    if (gesture.kind === "press") {
      const [x, y] = points[0];
      const dx = x - gesture.origin[0];
      const dy = y - gesture.origin[1];
      if (!gesture.moved && Math.hypot(dx, dy) < CLICK_SLOP) return;
      gesture.moved = true;
      this.userMoved = true;
      this.setTransform({ scale: gesture.start.scale, x: gesture.start.x + dx, y: gesture.start.y + dy });
    } else if (gesture.kind === "pinch" && points.length === 2) {
      const [a, b] = points;
      const rect = this.svg.getBoundingClientRect();
      const { start } = gesture;
      const scale = clamp((start.scale * Math.hypot(a[0] - b[0], a[1] - b[1])) / gesture.distance, MIN_SCALE, MAX_SCALE);
      const then = [gesture.middle[0] - rect.left, gesture.middle[1] - rect.top];
      const now = midpoint(a, b).map((value, index) => value - (index ? rect.top : rect.left));
      // The board point that was under the fingers' midpoint stays under it.
      const bx = (then[0] - start.x) / start.scale;
      const by = (then[1] - start.y) / start.scale;
      this.userMoved = true;
      this.setTransform({ scale, x: now[0] - bx * scale, y: now[1] - by * scale });
    }
  }
}

function clamp(value, low, high) {
  return Math.min(high, Math.max(low, value));
}

function midpoint(a, b) {
  return [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
}
