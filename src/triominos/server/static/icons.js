// The pages' icons, drawn as SVG: an emoji (🔊, ⏯, ⌨) shows an empty box on a device
// without an emoji font, and a symbol's look changes with the font. Each icon is a few
// strokes on a 24×24 grid in the text's colour (`currentColor`), hidden from screen
// readers: the button it sits on carries the name.

import { svgElement } from "./tiles.js";

/** Each icon's shapes: [tag, attributes] on a 24×24 grid. */
const SHAPES = Object.freeze({
  sound_on: [
    ["path", { d: "M4 9h4l5-4v14l-5-4H4z", fill: "currentColor" }],
    ["path", { d: "M16 8.5a5 5 0 0 1 0 7M18.5 6a8.5 8.5 0 0 1 0 12" }],
  ],
  sound_off: [
    ["path", { d: "M4 9h4l5-4v14l-5-4H4z", fill: "currentColor" }],
    ["path", { d: "M16 9l5 6M21 9l-5 6" }],
  ],
  play_pause: [
    ["path", { d: "M4 6v12l8-6z", fill: "currentColor" }],
    ["path", { d: "M15 6v12M20 6v12" }],
  ],
  keyboard: [
    ["rect", { x: 2, y: 6, width: 20, height: 12, rx: 2 }],
    ["path", { d: "M6 10h1M10 10h1M14 10h1M18 10h1M6 14h12" }],
  ],
  recentre: [
    ["circle", { cx: 12, cy: 12, r: 7 }],
    ["circle", { cx: 12, cy: 12, r: 2, fill: "currentColor" }],
    ["path", { d: "M12 2v3M12 19v3M2 12h3M19 12h3" }],
  ],
  zoom_in: [["path", { d: "M5 12h14M12 5v14" }]],
  zoom_out: [["path", { d: "M5 12h14" }]],
  first: [["path", { d: "M6 5v14M18 5l-8 7 8 7" }]],
  previous: [["path", { d: "M16 5l-8 7 8 7" }]],
  next: [["path", { d: "M8 5l8 7-8 7" }]],
  last: [["path", { d: "M18 5v14M6 5l8 7-8 7" }]],
});

/** The names of the icons there are. */
export const ICONS = Object.freeze(Object.keys(SHAPES));

/** The icon `name` as an inline SVG element (aria-hidden; `data-icon` names it). */
export function icon(name) {
  const shapes = SHAPES[name];
  if (!shapes) throw new Error(`no icon ${name}`);
  const svg = svgElement("svg", { viewBox: "0 0 24 24", width: "1.2em", height: "1.2em", fill: "none", stroke: "currentColor", "stroke-width": 2, "stroke-linecap": "round", "stroke-linejoin": "round", "aria-hidden": "true", focusable: "false", class: "icon-svg", "data-icon": name });
  for (const [tag, attributes] of shapes) svgElement(tag, attributes, svg);
  return svg;
}
