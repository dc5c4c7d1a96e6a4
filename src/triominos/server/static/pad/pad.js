// The score pad: keep the score of a game played with real tiles.
//
// The page decides nothing about the rules: it sends what happened at the table
// (/api/pad/games/{id}/entries) and shows the sheet the server answers with, points,
// totals and refusals included. Three views: a new game (/pad), a game (/pad/{id}) and
// the players' statistics (/pad?players).

import { getJson, postJson } from "/static/api.js";
import { h, keepingFocus, number, onSubmit, signed, speak, t } from "/static/dom.js";
import { editionDetail, editionName, houseRuleGroups, optionLabels, ruleFields, useRuleTexts } from "/static/rule_form.js";
import { renderScores } from "/static/sheet.js";

const LOCALES = "/static/pad/locales";
const FIGURES = ["bridge", "hexagon", "double_hexagon", "triple_hexagon", "two_sides"];

const state = {
  presets: [],
  knownNames: [],
  game: null, // the API's game: {id, link, version, finished, sheet}
  selected: 0, // the seat the next entry is for
  choices: 0, // players picked and panels opened by hand: an answer does not undo them
  digits: [], // the tile's numbers typed so far
  value: "",
  figure: null,
  panel: null, // "settle" or "correct" when open
  fields: {}, // what is typed in the open panel, by test id: kept when the page is drawn again
  setup: { preset: "classic", players: ["", ""], options: {} },
};

const root = () => document.getElementById("pad");

// --- talking to the server ---------------------------------------------------------------

function notify(text, detail = "") {
  const notice = document.getElementById("notice");
  // The server's reason is English: shown beside the text in English only, else only as
  // the notice's tooltip, so that a refusal never mixes two languages.
  const english = document.documentElement.lang === "en";
  notice.replaceChildren(h("strong", { text }), ...(detail && english ? [h("span", { text: detail })] : []));
  if (detail && !english) notice.title = detail;
  else notice.removeAttribute("title");
  notice.hidden = false;
  clearTimeout(notify.timer);
  notify.timer = setTimeout(() => (notice.hidden = true), 6000);
}

/** The fields of a refused request (`entry.<name>`, `players`, …) with a text of their own. */
const REFUSED_FIELDS = ["tile", "value", "figure", "count", "player", "remaining", "points", "players", "kind", "preset"];

/** The refusals whose code says it all, whatever the field. */
const REFUSED_CODES = ["stale_version", "finished", "not_found"];

/**
 * The texts of a refusal: what was wrong in the chosen language, then the server's English
 * reason, unless the pad gave its reason's key (`refusal.<key>` says it in every language).
 */
function refused(error) {
  if (error.code === "network") return notify(t("error.network"));
  notify(refusalText(error), error.reason?.key ? "" : error.message);
}

function refusalText({ code, field, reason }) {
  if (REFUSED_CODES.includes(code)) return t(`error.${code}`);
  if (reason?.key) return t(`refusal.${reason.key}`, reason.params);
  const fieldName = field ?? "";
  if (fieldName.startsWith("options.")) {
    const option = fieldName.slice("options.".length);
    return t("error.option", { option: optionLabels(presetOf(state.setup.preset))[option] ?? option });
  }
  const name = fieldName.replace(/^entry\./, "").split(".")[0];
  return REFUSED_FIELDS.includes(name) ? t(`error.${name}`) : t("error.other");
}

let queue = Promise.resolve();

/**
 * Change the game on the server, then show the sheet it answers with. Changes go one
 * after the other, each from the version the one before made, so quick taps all count.
 * `typed` is what a lay took from the keypad: given back to the keypad if refused.
 */
function change(path, body = {}, typed = null) {
  queue = queue.then(() => send(path, body, typed));
  return queue;
}

async function send(path, body, typed) {
  const choices = state.choices;
  try {
    state.game = await postJson(`/api/pad/games/${state.game.id}/${path}`, { ...body, version: state.game.version });
    afterChange(choices === state.choices);
  } catch (error) {
    if (error.code === "stale_version") await loadGame(state.game.id);
    if (typed && !state.digits.length && state.value === "") Object.assign(state, typed);
    render();
    refused(error);
  }
}

/**
 * Show the sheet the server answered with: the next entry is for the player whose turn it
 * is, with the keypad (or the settlement the sheet awaits). Unless the player picked a
 * player or opened a panel while the answer was on its way (`undisturbed` false): what
 * was done by hand stays, but for a settlement awaited.
 */
function afterChange(undisturbed = true) {
  const sheet = state.game.sheet;
  if (undisturbed) state.selected = sheet.turn_player ?? sheet.to_move ?? state.selected;
  const panel = sheet.awaiting ? "settle" : undisturbed ? null : state.panel;
  if (panel !== state.panel) state.fields = {};
  state.panel = panel;
  render();
}

async function loadGame(id) {
  try {
    state.game = await getJson(`/api/pad/games/${encodeURIComponent(id)}`);
    afterChange();
  } catch (error) {
    state.game = null;
    root().replaceChildren(h("p", { class: "empty", text: t("game.missing") }), h("a", { class: "button", href: "/pad", text: t("setup.new") }));
    refused(error);
  }
}

// --- views -----------------------------------------------------------------------------

function render() {
  keepingFocus(root(), () => {
    if (location.pathname.startsWith("/pad/") && state.game) root().replaceChildren(gameView());
    else if (new URLSearchParams(location.search).has("players")) playersView();
    else root().replaceChildren(setupView());
  });
}

function presetOf(name) {
  return state.presets.find((preset) => preset.name === name) ?? state.presets[0];
}

function setupView() {
  const setup = state.setup;
  const preset = presetOf(setup.preset);
  const players = preset ? preset.players : [2, 3, 4, 5, 6];
  const min = Math.min(...players);
  const max = Math.max(...players);
  while (setup.players.length < min) setup.players.push("");
  const house = preset
    ? h(
        "details",
        { class: "house", open: setup.houseOpen, on: { toggle: (event) => (setup.houseOpen = event.target.open) } },
        h("summary", { "data-testid": "house-rules", text: t("setup.house") }),
        ...houseRuleGroups(ruleFields(preset, setup.options), setup),
      )
    : null;
  return h(
    "form",
    {
      class: "setup",
      "data-testid": "setup",
      on: onSubmit(startGame),
    },
    h("h1", { text: t("setup.title") }),
    h(
      "label",
      { class: "field" },
      h("span", { text: t("setup.edition") }),
      h(
        "select",
        {
          "data-testid": "preset",
          on: {
            change: (event) => {
              setup.preset = event.target.value;
              setup.options = {};
              setup.players = setup.players.slice(0, Math.max(...presetOf(setup.preset).players));
              render();
            },
          },
        },
        state.presets.map((option) => h("option", { value: option.name, selected: option.name === setup.preset, text: editionName(option) })),
      ),
    ),
    h("p", { class: "hint", "data-testid": "edition-detail", text: editionDetail(presetOf(setup.preset)) }),
    house,
    h(
      "fieldset",
      { class: "names" },
      h("legend", { text: t("setup.players") }),
      setup.players.map((name, seat) =>
        h(
          "div",
          { class: "name-row" },
          h("input", {
            value: name,
            maxlength: 40,
            list: "known-names",
            autocomplete: "off",
            "aria-label": t("setup.player", { number: seat + 1 }),
            placeholder: t("setup.player", { number: seat + 1 }),
            "data-testid": `name-${seat}`,
            on: { input: (event) => (setup.players[seat] = event.target.value) },
          }),
          setup.players.length > min
            ? h("button", {
                type: "button",
                class: "icon",
                "aria-label": t("setup.remove"),
                text: "×",
                on: {
                  click: () => {
                    setup.players.splice(seat, 1);
                    render();
                  },
                },
              })
            : null,
        ),
      ),
      setup.players.length < max
        ? h("button", {
            type: "button",
            class: "secondary",
            "data-testid": "add-player",
            text: t("setup.add"),
            on: {
              click: () => {
                setup.players.push("");
                render();
              },
            },
          })
        : null,
      h("datalist", { id: "known-names" }, state.knownNames.map((known) => h("option", { value: known }))),
    ),
    h("button", { type: "submit", class: "primary big", "data-testid": "start", text: t("setup.start") }),
    h("a", { class: "link", href: "/pad?players", "data-testid": "players-link", text: t("stats.title") }),
  );
}

async function startGame() {
  const setup = state.setup;
  try {
    const game = await postJson("/api/pad/games", { preset: setup.preset, options: setup.options, players: setup.players });
    history.pushState(null, "", `/pad/${game.id}`);
    state.game = game;
    afterChange();
  } catch (error) {
    refused(error);
  }
}

// --- a game ------------------------------------------------------------------------------

function gameView() {
  const game = state.game;
  const sheet = game.sheet;
  const open = !game.finished && !sheet.is_over;
  return h(
    "div",
    { class: "game" },
    totalsBar(sheet),
    statusLine(game, sheet),
    open && state.panel === "settle" ? settlePanel(sheet) : null,
    open && state.panel === "correct" ? correctionPanel(sheet) : null,
    open && !state.panel ? entryPanel(sheet) : null,
    !game.finished ? finishRow(sheet) : null,
    scoresView(sheet),
    historyView(sheet),
    shareRow(game),
  );
}

function totalsBar(sheet) {
  return h(
    "section",
    { class: "totals", "data-testid": "totals" },
    sheet.players.map((name, seat) =>
      h(
        "button",
        {
          type: "button",
          class: ["player", seat === state.selected ? "selected" : "", sheet.winners.includes(seat) ? "winner" : ""].join(" "),
          "aria-pressed": String(seat === state.selected),
          "data-testid": `player-${seat}`,
          on: {
            click: () => {
              state.selected = seat;
              state.choices += 1;
              render();
            },
          },
        },
        h("span", { class: "name", text: name }),
        h("span", { class: "total", "data-testid": `total-${seat}`, text: number(sheet.totals[seat]) }),
        h("span", { class: "rack", text: t("game.tiles", { count: sheet.racks[seat] }) }),
      ),
    ),
  );
}

function statusLine(game, sheet) {
  const parts = [t("game.hand", { number: sheet.hand_number }), t("game.pool", { count: sheet.pool })];
  if (sheet.bank !== null) parts.push(t("game.bank", { count: sheet.bank }));
  let banner = null;
  if (sheet.is_over) {
    const names = sheet.winners.map((seat) => sheet.players[seat]).join(", ");
    const end = sheet.hands.at(-1).end;
    const text = end?.reason === "target" ? t("game.target_reached", { name: sheet.players[end.player] }) : t(game.finished ? "game.final" : "game.over", { names });
    banner = h("p", { class: "banner over", "data-testid": "winners", text });
  } else if (sheet.final_hand) {
    banner = h("p", { class: "banner gong", "data-testid": "final-hand", text: t("game.final_hand") });
  } else if (sheet.opening) {
    banner = h("p", { class: "banner", text: t("game.opening") });
  }
  return h("div", { class: "status" }, h("p", { class: "counts", "data-testid": "status", text: parts.join(" · ") }), banner);
}

function entryPanel(sheet) {
  const junior = sheet.rules.tile_set === "junior";
  const symbols = junior ? ["1", "2", "3", "4", "5", "J"] : ["0", "1", "2", "3", "4", "5"];
  const onePoint = sheet.rules.tile_points === "one";
  const slots = state.digits[0] === "J" ? ["J"] : [0, 1, 2].map((i) => state.digits[i] ?? "·");
  const typeDigit = (symbol) => {
    if (symbol === "J") state.digits = ["J"];
    else if (state.digits[0] === "J" || state.digits.length === 3) state.digits = [symbol];
    else state.digits = [...state.digits, symbol];
    state.value = "";
    render();
  };
  const player = sheet.players[state.selected];
  return h(
    "section",
    { class: "entry", "data-testid": "entry" },
    h("p", { class: "for", text: t("entry.for", { name: player }) }),
    h(
      "div",
      { class: "tile-line" },
      h("output", { class: "tile", "data-testid": "tile", text: slots.join("-") }),
      onePoint
        ? null
        : h("input", {
            type: "number",
            inputmode: "numeric",
            min: 0,
            class: "value",
            value: state.value,
            placeholder: t("entry.value"),
            "aria-label": t("entry.value"),
            "data-testid": "value",
            on: {
              input: (event) => {
                state.value = event.target.value;
                state.digits = [];
                document.querySelector('[data-testid="tile"]').textContent = "·-·-·";
              },
            },
          }),
    ),
    h(
      "div",
      { class: "keypad" },
      symbols.map((symbol) => h("button", { type: "button", class: "key", "data-testid": `key-${symbol}`, text: symbol, on: { click: () => typeDigit(symbol) } })),
      h("button", {
        type: "button",
        class: "key clear",
        "aria-label": t("entry.clear"),
        "data-testid": "key-clear",
        text: "⌫",
        on: {
          click: () => {
            state.digits = state.digits.slice(0, -1);
            render();
          },
        },
      }),
    ),
    sheet.opening
      ? null
      : h(
          "div",
          { class: "figures" },
          FIGURES.filter((figure) => sheet.figures.includes(figure)).map((figure) =>
            h("button", {
              type: "button",
              class: "toggle",
              "aria-pressed": String(state.figure === figure),
              "data-testid": `figure-${figure}`,
              text: t(`figure.${figure}`),
              on: {
                click: () => {
                  state.figure = state.figure === figure ? null : figure;
                  render();
                },
              },
            }),
          ),
        ),
    h(
      "div",
      { class: "actions" },
      h("button", { type: "button", class: "primary big", "data-testid": "lay", text: t("entry.lay"), on: { click: lay } }),
      h("button", { type: "button", class: "big", "data-testid": "draw", text: t(sheet.rules.bank === null ? "entry.draw" : "entry.buy"), on: { click: () => change("entries", { entry: { kind: "draw", player: state.selected, count: 1 } }) } }),
      h("button", { type: "button", class: "big", "data-testid": "pass", text: t("entry.pass"), on: { click: () => change("entries", { entry: { kind: "pass", player: state.selected } }) } }),
    ),
    h(
      "div",
      { class: "actions small" },
      h("button", { type: "button", "data-testid": "undo", disabled: state.game.version === 0, text: t("entry.undo"), on: { click: () => change("undo") } }),
      h("button", { type: "button", "data-testid": "open-correct", text: t("entry.correct"), on: { click: () => openPanel("correct") } }),
      h("button", { type: "button", "data-testid": "open-settle", text: t("entry.end_hand"), on: { click: () => openPanel("settle") } }),
      sheet.rules.joker ? h("button", { type: "button", "data-testid": "take-joker", text: t("entry.take_joker"), on: { click: takeJoker } }) : null,
    ),
  );
}

function openPanel(panel) {
  state.panel = panel;
  state.fields = {};
  state.choices += 1;
  render();
}

/**
 * A panel's input, its text kept in `state.fields`: the page is drawn again whenever the
 * server answers (a refusal, or the answer to an earlier tap), and what was typed stays.
 */
function field(attributes) {
  const key = attributes["data-testid"];
  const input = h("input", { ...attributes, value: state.fields[key] ?? attributes.value ?? "", on: { input: () => (state.fields[key] = input.value) } });
  return input;
}

function typedTile() {
  if (state.digits[0] === "J") return "J";
  return state.digits.length === 3 ? state.digits.join("-") : null;
}

/** The keypad's tile, value and figure, taken for an entry (the keypad is cleared). */
function takeTyped() {
  const typed = { digits: state.digits, value: state.value, figure: state.figure };
  state.digits = [];
  state.value = "";
  state.figure = null;
  render();
  return typed;
}

function lay() {
  if (state.digits.length && !typedTile()) return notify(t("error.tile"), t("entry.three_numbers"));
  const entry = { kind: "lay", player: state.selected, tile: typedTile(), figure: state.figure };
  if (!entry.tile && state.value !== "") entry.value = Number(state.value);
  change("entries", { entry }, takeTyped());
}

function takeJoker() {
  const entry = { kind: "take_joker", player: state.selected, tile: typedTile() };
  change("entries", { entry }, takeTyped());
}

function settlePanel(sheet) {
  const rules = sheet.rules;
  const outSeat = sheet.out[0];
  const inputs = sheet.players.map((name, seat) =>
    field({
      type: "number",
      inputmode: "numeric",
      min: 0,
      value: sheet.racks[seat] === 0 ? 0 : "",
      disabled: sheet.racks[seat] === 0,
      "aria-label": t("settle.rack_of", { name }),
      "data-testid": `remaining-${seat}`,
    }),
  );
  const remaining = () => inputs.map((input) => (input.value === "" ? NaN : Number(input.value)));
  const send = (entry, needed) => {
    if (needed) {
      const totals = remaining();
      if (totals.some(Number.isNaN)) return notify(t("error.remaining"), t("settle.fill"));
      entry.remaining = totals;
    }
    change("entries", { entry });
  };
  const needsOut = rules.going_out_collects;
  const needsBlocked = rules.blocked !== "no_settlement";
  return h(
    "section",
    { class: "settle", "data-testid": "settle" },
    h("h2", { text: t("settle.title") }),
    sheet.awaiting === "out" ? h("p", { class: "hint", text: t("settle.went_out", { name: sheet.players[outSeat] }) }) : null,
    sheet.awaiting === "last_round" ? h("p", { class: "hint", text: t("settle.last_round_over") }) : null,
    needsOut || needsBlocked
      ? h(
          "div",
          { class: "racks" },
          h("p", { class: "hint", text: t("settle.racks") }),
          sheet.players.map((name, seat) => h("label", { class: "field" }, h("span", { text: name }), inputs[seat])),
        )
      : null,
    h(
      "div",
      { class: "actions" },
      // Only a player who emptied the rack by the pad's count, once the rules end the hand.
      sheet.awaiting === "out"
        ? h("button", { type: "button", class: "primary big", "data-testid": "go-out", text: t("settle.out", { name: sheet.players[outSeat] }), on: { click: () => send({ kind: "go_out", player: outSeat }, needsOut) } })
        : null,
      sheet.awaiting !== "out"
        ? h("button", { type: "button", class: "big", "data-testid": "blocked", text: t("settle.blocked"), on: { click: () => send({ kind: "blocked" }, needsBlocked) } })
        : null,
      rules.pool_empty === "last_round"
        ? h("button", { type: "button", class: "big", "data-testid": "last-round", text: t("settle.last_round"), on: { click: () => send({ kind: "last_round" }, false) } })
        : null,
    ),
    h(
      "div",
      { class: "actions small" },
      h("button", { type: "button", "data-testid": "undo", disabled: state.game.version === 0, text: t("entry.undo"), on: { click: () => change("undo") } }),
      sheet.awaiting ? null : h("button", { type: "button", text: t("entry.back"), on: { click: () => openPanel(null) } }),
    ),
  );
}

function correctionPanel(sheet) {
  const points = field({ type: "number", inputmode: "numeric", "aria-label": t("correct.points"), placeholder: t("correct.points"), "data-testid": "correct-points" });
  const note = field({ type: "text", maxlength: 200, "aria-label": t("correct.note"), placeholder: t("correct.note"), "data-testid": "correct-note" });
  return h(
    "section",
    { class: "correct", "data-testid": "correct" },
    h("h2", { text: t("correct.title", { name: sheet.players[state.selected] }) }),
    h("label", { class: "field" }, h("span", { text: t("correct.points") }), points),
    h("label", { class: "field" }, h("span", { text: t("correct.note") }), note),
    h(
      "div",
      { class: "actions" },
      h("button", {
        type: "button",
        class: "primary big",
        "data-testid": "correct-send",
        text: t("correct.send"),
        on: { click: () => change("entries", { entry: { kind: "correction", player: state.selected, points: Number(points.value || 0), note: note.value } }) },
      }),
      h("button", { type: "button", class: "big", text: t("entry.back"), on: { click: () => openPanel(null) } }),
    ),
  );
}

function finishRow(sheet) {
  return h(
    "div",
    { class: "actions finish" },
    h("button", {
      type: "button",
      class: sheet.is_over ? "primary big" : "",
      "data-testid": "finish",
      text: t(sheet.is_over ? "game.save" : "game.stop"),
      on: {
        click: () => {
          if (!sheet.is_over && !confirm(t("game.stop_confirm"))) return;
          change("finish");
        },
      },
    }),
  );
}

function describe(entry, sheet) {
  const name = entry.player === undefined ? "" : sheet.players[entry.player];
  const figure = entry.figure ? ` + ${t(`figure.${entry.figure}`)}` : "";
  switch (entry.kind) {
    case "lay":
      if (entry.tile === undefined || entry.tile === null) {
        return (entry.value === undefined || entry.value === null ? t("history.lay", { name, tile: "" }) : t("history.lay_value", { name, value: entry.value })) + figure;
      }
      return t("history.lay", { name, tile: entry.tile }) + figure;
    case "draw":
      return t(sheet.rules.bank === null ? "history.draw" : "history.buy", { name, count: entry.count });
    case "pass":
      return t("history.pass", { name });
    case "take_joker":
      return t("history.take_joker", { name });
    case "go_out":
      return t("history.go_out", { name });
    case "blocked":
      return t("history.blocked");
    case "last_round":
      return t("history.last_round");
    default:
      return t("history.correction", { name, note: entry.note || "" });
  }
}

/** The score table: a row per settled hand, each player's points and running total. */
function scoresView(sheet) {
  const start = sheet.rules.starting_score ?? 0;
  const running = sheet.players.map(() => start);
  const settled = sheet.hands.filter((hand) => hand.end);
  const hands = settled.map((hand) => ({ number: hand.number, totals: hand.points.map((points, seat) => (running[seat] += points)) }));
  const table = h("div", { "data-testid": "score-table" });
  renderScores(table, hands, sheet.players, start);
  return h("section", { class: "scores" }, h("h2", { text: t("scores.title") }), table);
}

function historyView(sheet) {
  return h(
    "section",
    { class: "history", "data-testid": "history" },
    h("h2", { text: t("history.title") }),
    sheet.hands
      .slice()
      .reverse()
      .filter((hand) => hand.entries.length || hand.end)
      .map((hand) =>
        h(
          "details",
          { open: hand.number === sheet.hand_number, "data-testid": `hand-${hand.number}` },
          h(
            "summary",
            {},
            h("span", { text: t("game.hand", { number: hand.number }) }),
            h("span", { class: "points", text: hand.points.map((points, seat) => `${sheet.players[seat]} ${signed(points)}`).join(" · ") }),
          ),
          h(
            "ol",
            { reversed: true },
            hand.entries
              .slice()
              .reverse()
              .map((entry) =>
                h(
                  "li",
                  {},
                  h("span", { text: describe(entry, sheet) }),
                  h("span", {
                    class: "points",
                    text: entry.points
                      .map((points, seat) => (points ? `${sheet.players[seat]} ${signed(points)}` : ""))
                      .filter(Boolean)
                      .join(" · "),
                  }),
                ),
              ),
          ),
        ),
      ),
  );
}

function shareRow(game) {
  const base = `/api/pad/games/${game.id}`;
  return h(
    "footer",
    { class: "share" },
    h("button", {
      type: "button",
      "data-testid": "share",
      text: t("share.copy"),
      on: {
        click: async () => {
          try {
            await navigator.clipboard.writeText(game.link);
            notify(t("share.copied"), game.link);
          } catch {
            notify(t("share.link"), game.link);
          }
        },
      },
    }),
    h("a", { class: "button", href: `${base}/export.csv`, download: `triominos-pad-${game.id}.csv`, "data-testid": "export-csv", text: t("share.csv") }),
    h("a", { class: "button", href: `${base}/export.json`, download: `triominos-pad-${game.id}.json`, "data-testid": "export-json", text: t("share.json") }),
    h("a", { class: "button", href: "/pad", "data-testid": "new-game", text: t("setup.new") }),
    h("a", { class: "button", href: "/pad?players", text: t("stats.title") }),
  );
}

// --- statistics --------------------------------------------------------------------------

async function playersView() {
  let players = [];
  try {
    players = (await getJson("/api/pad/players")).players;
  } catch (error) {
    refused(error);
  }
  const stat = (value, digits = 0) => (value === null ? "\u2013" : number(value, { digits }));
  root().replaceChildren(
    h(
      "section",
      { class: "stats", "data-testid": "stats" },
      h("h1", { text: t("stats.title") }),
      players.length
        ? h(
            "table",
            {},
            h("thead", {}, h("tr", {}, ["stats.name", "stats.games", "stats.won", "stats.average", "stats.best", "stats.bonuses"].map((key) => h("th", { text: t(key) })))),
            h(
              "tbody",
              {},
              players.map((player) =>
                h(
                  "tr",
                  {},
                  h("td", { text: player.name }),
                  h("td", { text: stat(player.games) }),
                  h("td", { text: stat(player.won) }),
                  h("td", { text: stat(player.average_hand, 1) }),
                  h("td", { text: stat(player.best_hand) }),
                  h(
                    "td",
                    { class: "bonuses" },
                    Object.entries(player.bonuses)
                      .map(([bonus, count]) => `${t(`figure.${bonus}`)} ×${number(count)}`)
                      .join(", "),
                  ),
                ),
              ),
            ),
          )
        : h("p", { class: "empty", text: t("stats.none") }),
      h("a", { class: "button", href: "/pad", text: t("setup.new") }),
    ),
  );
}

// --- start -------------------------------------------------------------------------------

async function route() {
  const match = location.pathname.match(/^\/pad\/([A-Za-z0-9]+)$/);
  if (match) await loadGame(match[1]);
  else {
    state.game = null;
    render();
  }
}

async function main() {
  window.addEventListener("popstate", route);
  await speak(LOCALES, render);
  const [presets, players] = await Promise.all([getJson("/api/presets").catch(() => ({ presets: [] })), getJson("/api/pad/players").catch(() => ({ players: [] }))]);
  useRuleTexts(presets.rule_texts);
  state.presets = presets.presets;
  state.knownNames = players.players.map((player) => player.name);
  await route();
}

main();
