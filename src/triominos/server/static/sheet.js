// The score sheet: every action of the match with its points and bonuses, hand by hand.
// The table and the replay both write it, from actions in the record's terms (RECORD.md).

import { h, number, signed, t } from "./dom.js";

/** A cell as people read it: "1,0▲" points up, "1,0▼" down. */
export function cellText(cell) {
  return `${cell[0]},${cell[1]}${cell[2] === "up" ? "\u25B2" : "\u25BC"}`;
}

/** A bonus in words with its value: "bridge +40". */
export function bonusText(name, value) {
  return `${t(`bonus_${name}`)} ${signed(value)}`;
}

/** A move's bonuses as chips, each after a space: a narrow column wraps between them. */
export function bonusChips(bonuses) {
  return Object.entries(bonuses ?? {}).flatMap(([name, value]) => [" ", h("span", { class: "bonus-chip" }, bonusText(name, value))]);
}

/** What an action did, in words (without who did it or its points). */
export function actionText(action) {
  const tile = action.tile ?? null;
  switch (action.action) {
    case "place":
      return t("did_place", { tile, cell: cellText(action.cell) });
    case "draw":
      return tile ? t("did_draw_tile", { tile }) : t("did_draw");
    case "buy":
      return tile ? t("did_buy_tile", { tile }) : t("did_buy");
    case "pass":
      return t("did_pass");
    case "starter_draw":
      return t("did_starter_draw", { tile });
    case "take_joker":
      return t("did_take_joker", { tile, cell: cellText(action.cell) });
    case "resign":
      return t("did_resign");
    default:
      return action.action;
  }
}

/** How a hand ended, in words. */
export function endText(end, names) {
  if (end.reason === "out") return t("end_out", { name: names[end.player] });
  if (end.reason === "last_round") return t("end_last_round");
  if (end.reason === "target") return t("end_target", { name: names[end.player] });
  if (end.reason === "resigned") return t("end_resigned", { name: names[end.player] });
  return t("end_blocked");
}

/**
 * Fill `container` with the sheet.
 * @param {Array<{number, actions, end, points}>} hands  each hand's actions (and end, if over)
 * @param {string[]} names  the players' names by seat
 * @param {{buttons?: boolean, current?: [number, number] | null, note?: Function | null}} options
 *   `buttons`: each move is a button (the replay goes there); `current`: the hand and index
 *   of the move shown; `note(hand, index)`: an element to show beside that move, or null
 *   (the replay's analysis: its loss and mark)
 */
export function renderSheet(container, hands, names, { buttons = false, current = null, note = null } = {}) {
  const rows = [];
  for (const hand of hands) {
    rows.push(h("tr", { class: "sheet-hand" }, h("th", { colspan: 3, i18n: ["hand_number", { number: hand.number }] })));
    hand.actions.forEach((action, index) => {
      const what = [actionText(action), ...bonusChips(action.bonuses)];
      const shown = current !== null && current[0] === hand.number && current[1] === index;
      rows.push(
        h(
          "tr",
          {
            class: `sheet-action seat-${action.player}`,
            "data-testid": "sheet-row",
            "data-action": action.action,
            "data-hand": hand.number,
            "data-index": index,
            "aria-current": shown ? "step" : null,
          },
          h("td", { class: "who" }, h("span", { class: `seat-dot seat-${action.player}` }), names[action.player] ?? ""),
          h("td", { class: "what" }, buttons ? h("button", { type: "button", class: "link", "data-testid": "move" }, ...what) : what, note?.(hand.number, index) ?? null),
          h("td", { class: `points ${action.points < 0 ? "minus" : ""}` }, action.points === undefined ? "" : signed(action.points)),
        ),
      );
    });
    if (hand.end) {
      rows.push(
        h(
          "tr",
          { class: "sheet-end", "data-testid": "sheet-end" },
          h("td", { colspan: 2 }, endText(hand.end, names)),
          h("td", { class: "points" }, hand.end.settlement.map(signed).join(" / ")),
        ),
      );
    }
  }
  const table = h("table", { class: "sheet-table" }, h("tbody", {}, rows));
  const atBottom = container.scrollHeight - container.scrollTop - container.clientHeight < 40;
  container.replaceChildren(table);
  if (atBottom) container.scrollTop = container.scrollHeight;
}

/**
 * Fill `container` with the score table: a row per finished hand with what each player
 * scored in it and, under it, the running total (the totals after that hand).
 * @param {Array<{number: number, totals: number[]}>} hands  the finished hands, in order
 * @param {string[]} names  the players' names by seat
 * @param {number} start  every player's score before the first hand
 */
export function renderScores(container, hands, names, start) {
  let before = names.map(() => start);
  const rows = hands.map((hand) => {
    const cells = hand.totals.map((total, seat) =>
      h("td", { class: "points" }, h("span", { class: "hand-score" }, signed(total - before[seat])), h("span", { class: "running", "data-testid": "running-total" }, number(total))),
    );
    before = hand.totals;
    return h("tr", { "data-testid": "score-row" }, h("th", { scope: "row" }, number(hand.number)), ...cells);
  });
  container.replaceChildren(
    h(
      "table",
      { class: "score-table" },
      h("thead", {}, h("tr", {}, h("th", { i18n: "hand_head" }), ...names.map((name, seat) => h("th", { scope: "col" }, h("span", { class: `seat-dot seat-${seat}` }), name)))),
      h("tbody", {}, rows.length ? rows : h("tr", {}, h("td", { colspan: names.length + 1, class: "muted", i18n: "no_hand_over" }))),
    ),
  );
}
