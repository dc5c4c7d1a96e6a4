// The end of a hand (its settlement) and of the match (the winner, a rematch), shown in a
// modal dialog. A dialog that comes while another is open waits for it to close, so a
// hand's settlement is not lost when the match ends right after it.

import { h, number, retranslate, signed } from "./dom.js";
import { endText } from "./sheet.js";

export class EndDialogs {
  constructor() {
    this.dialog = h("dialog", { class: "dialog", on: { close: () => this.next() } });
    this.waiting = [];
  }

  /** One hand's end: why it ended, what each rack held, the settlement, the totals. */
  handEnd({ end, number, points, totals, names, counters, onClose }) {
    this.open(
      onClose,
      "hand-end",
      h("h2", { i18n: ["hand_over", { number }] }),
      h("p", { class: "end-reason" }, endText(end, names)),
      settlementTable({ end, points, totals, names, counters }),
      h(
        "div",
        { class: "dialog-buttons" },
        h("button", { type: "button", class: "primary", "data-testid": "continue", i18n: "continue", on: { click: () => this.dialog.close() } }),
      ),
    );
  }

  /** The match's end: the winners, the last hand's settlement, a rematch and the replay. */
  matchEnd({ winners, lastHand, totals, names, counters, replay, onRematch }) {
    const winnerNames = winners.map((seat) => names[seat]);
    this.open(
      null,
      "match-end",
      h("h2", { i18n: "match_over" }),
      h("p", {
        class: "winner",
        "data-testid": "winner",
        i18n: winnerNames.length > 1 ? ["winners_are", { names: winnerNames.join(", ") }] : ["winner_is", { name: winnerNames[0] ?? "" }],
      }),
      lastHand?.end ? h("p", { class: "end-reason" }, endText(lastHand.end, names)) : null,
      lastHand?.end ? settlementTable({ end: lastHand.end, points: lastHand.points, totals, names, counters }) : null,
      h(
        "div",
        { class: "dialog-buttons" },
        onRematch ? h("button", { type: "button", class: "primary", "data-testid": "rematch", i18n: "rematch", on: { click: onRematch } }) : null,
        h("a", { class: "button", href: replay, i18n: "replay" }),
        h("a", { class: "button", href: "/", i18n: "new_game" }),
        h("button", { type: "button", "data-testid": "close", i18n: "close", on: { click: () => this.dialog.close() } }),
      ),
    );
  }

  /** Queue a dialog; `onClose` (or null) runs when it closes. */
  open(onClose, kind, ...content) {
    this.waiting.push([kind, content.filter(Boolean), onClose]);
    if (!this.dialog.open) this.next();
  }

  /** Show the next waiting dialog (called when one closes, by a button or Escape). */
  next() {
    this.closing?.();
    this.closing = null;
    const waiting = this.waiting.shift();
    if (!waiting) return;
    const [kind, content, onClose] = waiting;
    this.closing = onClose;
    this.dialog.setAttribute("data-testid", kind);
    this.dialog.replaceChildren(...content);
    retranslate(this.dialog);
    this.dialog.showModal();
    this.dialog.querySelector("button.primary, button")?.focus();
  }
}

function settlementTable({ end, points, totals, names, counters }) {
  return h(
    "table",
    { class: "settlement" },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", { i18n: "player" }),
        h("th", { i18n: "left_in_rack" }),
        h("th", { i18n: "settlement" }),
        points ? h("th", { i18n: "hand_points_head" }) : null,
        h("th", { i18n: counters ? "counters_head" : "total" }),
      ),
    ),
    h(
      "tbody",
      {},
      ...names.map((name, index) =>
        h(
          "tr",
          {},
          h("td", {}, h("span", { class: `seat-dot seat-${index}` }), name),
          h("td", { class: "remaining" }, (end.remaining?.[index] ?? []).join(" ") || "\u2014"),
          h("td", { class: "points" }, signed(end.settlement[index])),
          points ? h("td", { class: "points" }, signed(points[index])) : null,
          h("td", { class: "points total" }, number(totals[index])),
        ),
      ),
    ),
  );
}
