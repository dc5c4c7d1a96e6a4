// Tiles as the real ones look, and the triangular lattice they lie on.
//
// Geometry (RECORD.md): a lattice vertex (x, y) sits in the plane at
// (x + y/2, y * sqrt(3)/2), y growing upwards. A cell is [x, y, "up"|"down"]; its corners,
// clockwise from the leftmost, are up: (x, y), (x, y+1), (x+1, y) and down: (x, y+1),
// (x+1, y+1), (x+1, y). One plane unit is EDGE SVG units, and y is flipped because SVG
// y grows downwards. `cellPoints` is the only place where lattice meets picture.
//
// The look mirrors src/triominos/svg.py: an ivory triangle with rounded corners, each
// number near its corner and turned to read upright toward it, one colour per number;
// Junior cards put each corner on a patch of its symbol's colour, and the joker is a
// pale card with a gold star.

const SVG_NS = "http://www.w3.org/2000/svg";
export const EDGE = 60;
const HEIGHT = Math.sqrt(3) / 2;
const TILE_GAP = 0.035 * EDGE;
const NUMBER_SIZE = 0.22 * EDGE;
const NUMBER_INSET = 0.56;

const NUMBER_COLOR_COUNT = 6; // style.css colours numbers .n0 to .n5, as svg.py's NUMBER_COLORS
const CARD_COLORS = { 1: "#e03131", 2: "#f08c00", 3: "#1971c2", 4: "#2f9e44", 5: "#9c36b5" };
export const JOKER = "J";

/** An SVG element with attributes. */
export function svgElement(name, attributes = {}, parent = null) {
  const element = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  if (parent) parent.appendChild(element);
  return element;
}

// --- the lattice -------------------------------------------------------------------

/** A cell's text key: "x,y,up". */
export function cellKey(cell) {
  return `${cell[0]},${cell[1]},${cell[2]}`;
}

/** The lattice vertices of a cell's corners, clockwise from the leftmost. */
export function cellVertices([x, y, orientation]) {
  return orientation === "up"
    ? [[x, y], [x, y + 1], [x + 1, y]]
    : [[x, y + 1], [x + 1, y + 1], [x + 1, y]];
}

/** The picture point of a lattice vertex. */
function vertexPoint([x, y]) {
  return [(x + y / 2) * EDGE, -y * HEIGHT * EDGE];
}

/** The picture points of a cell's corners, clockwise from the leftmost. */
export function cellPoints(cell) {
  return cellVertices(cell).map(vertexPoint);
}

/** The cell under a picture point (the inverse of `cellPoints`). */
export function cellAt(px, py) {
  const y = -py / EDGE / HEIGHT;
  const x = px / EDGE - y / 2;
  const fx = Math.floor(x);
  const fy = Math.floor(y);
  return [fx, fy, x - fx + (y - fy) < 1 ? "up" : "down"];
}

export function centre(points) {
  return [
    points.reduce((sum, p) => sum + p[0], 0) / points.length,
    points.reduce((sum, p) => sum + p[1], 0) / points.length,
  ];
}

function toward(start, end, fraction) {
  return [start[0] + (end[0] - start[0]) * fraction, start[1] + (end[1] - start[1]) * fraction];
}

/** An equilateral triangle shrunk about its centre so each edge moves in by `gap`. */
function inset(points, gap) {
  const middle = centre(points);
  const inradius = Math.hypot(points[0][0] - points[1][0], points[0][1] - points[1][1]) / (2 * Math.sqrt(3));
  return points.map((point) => toward(middle, point, (inradius - gap) / inradius));
}

function pointsAttribute(points) {
  return points.map(([x, y]) => `${x.toFixed(2)},${y.toFixed(2)}`).join(" ");
}

/** The polygon points of a cell drawn slightly inside its outline, as "x,y x,y x,y". */
export function cellPolygon(cell, gap = TILE_GAP) {
  return pointsAttribute(inset(cellPoints(cell), gap));
}

// --- tiles -------------------------------------------------------------------------

/** A tile's numbers from its name: "0-1-2" -> [0, 1, 2]; the joker has none. */
export function tileNumbers(name) {
  return name === JOKER ? [null, null, null] : name.split("-").map(Number);
}

/** The turn (degrees, clockwise) that makes a number read upright toward its corner. */
function upright(middle, corner) {
  const angle = (Math.atan2(corner[1] - middle[1], corner[0] - middle[0]) * 180) / Math.PI + 90;
  return ((angle + 540) % 360) - 180;
}

/**
 * Draw a tile into `parent` on `cell` and return its <g>.
 * `numbers` are the corners clockwise from the leftmost (null: a joker's free corner);
 * `cards` draws Junior cards; `joker` the joker's face; `className` adds classes
 * (e.g. "last", "ghost").
 */
export function drawTile(parent, cell, numbers, { cards = false, joker = false, className = "" } = {}) {
  const points = cellPoints(cell);
  const middle = centre(points);
  const group = svgElement("g", { class: `tile ${joker ? "joker" : ""} ${className}`.trim() }, parent);
  svgElement("polygon", { class: "face", points: pointsAttribute(inset(points, TILE_GAP)) }, group);
  if (cards) {
    const face = inset(points, TILE_GAP + 1.2);
    numbers.forEach((number, index) => {
      if (number === null || !(number in CARD_COLORS)) return;
      const reach = joker ? 0.62 : 1;
      const corner = face[index];
      const next = face[(index + 1) % 3];
      const previous = face[(index + 2) % 3];
      const kite = [corner, toward(corner, next, 0.5), centre(face), toward(corner, previous, 0.5)].map(
        (point, at) => (at === 0 ? point : toward(corner, point, reach)),
      );
      svgElement("polygon", { class: "patch", points: pointsAttribute(kite), fill: CARD_COLORS[number] }, group);
    });
  }
  if (joker) {
    const star = [];
    for (let index = 0; index < 10; index += 1) {
      const radius = (index % 2 === 0 ? 0.15 : 0.068) * EDGE;
      const angle = (Math.PI / 5) * index - Math.PI / 2;
      star.push([middle[0] + radius * Math.cos(angle), middle[1] + radius * Math.sin(angle)]);
    }
    svgElement("polygon", { class: "star", points: pointsAttribute(star) }, group);
    const mark = svgElement("text", { class: "joker-mark", x: middle[0], y: middle[1] + 0.13 * EDGE * 0.42 }, group);
    mark.textContent = "J";
  }
  points.forEach((corner, index) => {
    const number = numbers[index];
    const [x, y] = toward(corner, middle, NUMBER_INSET);
    const text = svgElement(
      "text",
      {
        class: `number ${number === null ? "free" : cards ? "card-number" : `n${number % NUMBER_COLOR_COUNT}`}`,
        x: x.toFixed(2),
        y: (y + NUMBER_SIZE * 0.36).toFixed(2),
        transform: `rotate(${upright(middle, corner).toFixed(1)} ${x.toFixed(2)} ${y.toFixed(2)})`,
      },
      group,
    );
    text.textContent = number === null ? "*" : String(number);
  });
  return group;
}

/** The cell a lone tile is drawn on (pointing up at the origin). */
const ORIGIN = [0, 0, "up"];

/** The viewBox that fits a lone tile on ORIGIN. */
function tileViewBox(margin = 3) {
  const points = cellPoints(ORIGIN);
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  const left = Math.min(...xs) - margin;
  const top = Math.min(...ys) - margin;
  return `${left} ${top} ${Math.max(...xs) - left + margin} ${Math.max(...ys) - top + margin}`;
}

/** A standalone <svg> of one tile pointing up with `numbers` at left, apex, right. */
export function tilePicture(numbers, { cards = false, joker = false } = {}) {
  const svg = svgElement("svg", { viewBox: tileViewBox(), class: "tile-picture", "aria-hidden": "true" });
  drawTile(svg, ORIGIN, numbers, { cards, joker });
  return svg;
}
