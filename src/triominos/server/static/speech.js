// What a screen reader says of the table, in words, where the picture speaks to the eye:
// the board's summary (not its digits), a rack tile's fit, and a polite live region
// that tells each move as it is played (who laid which tile for how many points, with
// the bonus; who drew; who passed), and the placement being shown before it is laid.

import { h, signed, t } from "./dom.js";
import { JOKER } from "./tiles.js";
import { actionText, bonusText } from "./sheet.js";

/** A tile as a button names it: "Tile 1-2-3", "Joker". */
function tileName(tile) {
  return tile === JOKER ? t("joker") : t("tile_label", { tile });
}

/** A tile as a sentence names it: "1-2-3", "Joker". */
function tileWord(tile) {
  return tile === JOKER ? t("joker") : tile;
}

/**
 * The board in words: how many tiles lie on it and, on one's turn, in how many places
 * a tile of the rack fits (`legal`: the chosen tile's cells, or every tile's).
 */
export function boardSummary(placements, places) {
  const laid = t("board_summary", { count: placements.length });
  return places ? `${laid}; ${t("board_places", { count: places })}` : laid;
}

/**
 * A rack tile's accessible name: the tile and, on one's turn (`cells` given, a Map of
 * the cells it fits, each with its best `points`), in how many places it fits and the
 * best points; null `cells` on one's turn: it fits nowhere.
 */
export function rackTileName(tile, cells, myTurn) {
  const name = tileName(tile);
  if (!myTurn) return name;
  if (!cells?.size) return t("rack_fits_none", { tile: name });
  const best = Math.max(...[...cells.values()].map((option) => option.points));
  return t("rack_fits", { tile: name, count: cells.size, points: signed(best) });
}

function withBonuses(text, bonuses) {
  const named = Object.entries(bonuses ?? {}).map(([name, value]) => bonusText(name, value));
  return named.length ? t("said_bonuses", { text, bonuses: named.join(", ") }) : text;
}

/** A move in words, with who played it: "Ann laid 1-2-3 for 54 points, with bridge +40". */
export function moveWords(event, names) {
  const name = names[event.player] ?? "";
  if (event.action === "place" || event.action === "take_joker") {
    return withBonuses(t("said_place", { name, tile: tileWord(event.tile), count: event.points ?? 0 }), event.bonuses);
  }
  const what = t("said_action", { name, action: actionText(event) });
  return event.points ? `${what} (${signed(event.points)})` : what;
}

/** The placement shown before it is laid: "1-2-3 shown on the board: 54 points, with ...". */
export function previewWords(entry) {
  return withBonuses(t("said_preview", { tile: tileWord(entry.action.tile), count: entry.points }), entry.bonuses);
}

/**
 * The polite live region of a page: `say` puts a sentence in it for a screen reader to
 * read when it is free; `preview` says a shown placement once, not at each redraw.
 */
export class Announcer {
  constructor() {
    this.element = h("p", { class: "visually-hidden", "aria-live": "polite", "data-testid": "announcer" });
    this.shown = null;
  }

  say(text) {
    this.element.textContent = text;
  }

  preview(entry) {
    const key = entry ? JSON.stringify(entry.action) : null;
    if (key === this.shown) return;
    this.shown = key;
    if (entry) this.say(previewWords(entry));
  }
}
