// The rack: the viewer's tiles, to choose, turn and drag onto the board.
//
// Each tile is a real <button>: click (or Enter/Space) chooses it, a click on the chosen
// tile turns it, a drag carries it to the board. Which tiles can go anywhere is told by
// the table (from the server's `legal` list); the rack only shows it.

import { h } from "./dom.js";
import { JOKER, tilePicture, tileNumbers } from "./tiles.js";
import { rackTileName } from "./speech.js";

const DRAG_SLOP = 8;

export class RackView {
  /**
   * @param {HTMLElement} container
   * @param {{onChoose: (tile: string) => void, onDragMove: (x: number, y: number) => void,
   *          onDrop: (tile: string, x: number, y: number) => void, onDragEnd: () => void}} handlers
   */
  constructor(container, handlers) {
    this.container = container;
    this.handlers = handlers;
    this.element = h("div", { class: "rack", role: "group", "data-testid": "rack", i18nAttrs: { "aria-label": "rack_label" } });
    container.append(this.element);
    this.drag = null;
    this.tiles = null;
    this.quietUntil = 0;
  }

  /**
   * @param {object} state
   * @param {string[]} state.tiles  the rack, in the server's order
   * @param {boolean} state.cards  Junior cards
   * @param {Set<string>} state.playable  tiles with somewhere to go (empty: not our turn)
   * @param {Map|null} [state.fits]  on our turn, each tile's cells (choice.js `arrange`),
   *   which name each tile's button for a screen reader: where it fits, the best points
   * @param {string|null} state.selected
   * @param {number[]|null} state.turned  the chosen tile's numbers as shown (left, apex, right)
   */
  render({ tiles, cards, playable, fits = null, selected, turned }) {
    const same = this.tiles && this.tiles.length === tiles.length && this.tiles.every((tile, index) => tile === tiles[index]);
    if (!same) {
      // A new rack: new buttons. The same rack keeps its buttons (and a drag in progress).
      this.tiles = tiles;
      const focused = this.element.contains(document.activeElement);
      this.element.replaceChildren(...tiles.map((tile) => this.button(tile)));
      if (focused) this.focusFirst(); // the tile just laid had the keyboard: the rack keeps it
    }
    for (const button of this.element.children) {
      const tile = button.dataset.tile;
      const joker = tile === JOKER;
      const numbers = tile === selected && turned ? turned : tileNumbers(tile);
      button.classList.toggle("playable", playable.has(tile));
      button.classList.toggle("selected", tile === selected);
      button.setAttribute("aria-pressed", tile === selected ? "true" : "false");
      button.setAttribute("aria-label", rackTileName(tile, fits?.get(tile), fits !== null));
      const look = numbers.join(",") + (cards ? ":cards" : "");
      if (button.dataset.look !== look) {
        button.dataset.look = look;
        button.replaceChildren(tilePicture(numbers, { cards: cards || joker, joker }));
      }
    }
  }

  button(tile) {
    const button = h("button", {
      type: "button",
      class: "rack-tile",
      "data-testid": "rack-tile",
      "data-tile": tile,
      on: {
        click: () => {
          // The click that ends a drag must not turn the tile.
          if (performance.now() > this.quietUntil) this.handlers.onChoose(tile);
        },
      },
    });
    this.dragSource(button, tile);
    return button;
  }

  /** Move the keyboard focus to the next or previous tile. */
  moveFocus(step) {
    const buttons = [...this.element.querySelectorAll(".rack-tile")];
    if (!buttons.length) return;
    const at = buttons.indexOf(document.activeElement);
    buttons[(at + step + buttons.length) % buttons.length].focus();
  }

  focusFirst() {
    this.element.querySelector(".rack-tile.playable, .rack-tile")?.focus();
  }

  dragSource(button, tile) {
    button.addEventListener("pointerdown", (event) => {
      if (event.button !== 0 && event.pointerType === "mouse") return;
      this.drag = { tile, origin: [event.clientX, event.clientY], ghost: null, pointer: event.pointerId };
    });
    button.addEventListener("pointermove", (event) => {
      const drag = this.drag;
      if (!drag || drag.pointer !== event.pointerId) return;
      if (!drag.ghost) {
        if (Math.hypot(event.clientX - drag.origin[0], event.clientY - drag.origin[1]) < DRAG_SLOP) return;
        button.setPointerCapture(event.pointerId);
        this.handlers.onChoose(tile, { dragging: true });
        drag.ghost = h("div", { class: "drag-ghost" }, button.querySelector("svg").cloneNode(true));
        document.body.append(drag.ghost);
      }
      drag.ghost.style.transform = `translate(${event.clientX}px, ${event.clientY}px)`;
      this.handlers.onDragMove(event.clientX, event.clientY);
    });
    const finish = (event) => {
      const drag = this.drag;
      if (!drag || drag.pointer !== event.pointerId) return;
      this.drag = null;
      if (!drag.ghost) return; // a plain click: the click handler chooses the tile
      drag.ghost.remove();
      this.quietUntil = performance.now() + 400;
      if (event.type === "pointerup") this.handlers.onDrop(tile, event.clientX, event.clientY);
      else this.handlers.onDragEnd();
    };
    button.addEventListener("pointerup", finish);
    button.addEventListener("pointercancel", finish);
  }
}
