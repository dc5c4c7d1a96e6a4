// The score pad: keep the score of a game played with real tiles.
//
// The page decides nothing about the rules: it sends what happened at the table
// (/api/pad/games/{id}/entries) and shows the sheet the server answers with, points,
// totals and refusals included. Three views: a new game (/pad), a game (/pad/{id}) and
// the players' statistics (/pad?players).

import { LANGUAGES, chosenLanguage, setLanguage, loadMessages, format } from "/static/i18n.js";

const LOCALES = "/static/pad/locales";
const FIGURES = ["bridge", "hexagon", "double_hexagon", "triple_hexagon", "two_sides"];

const state = {
  messages: {},
  presets: [],
  knownNames: [],
  game: null, // the API's game: {id, link, version, finished, sheet}
  selected: 0, // the seat the next entry is for
  digits: [], // the tile's numbers typed so far
  value: "",
  figure: null,
  panel: null, // "settle" or "correct" when open
  setup: { preset: "classic", players: ["", ""], options: {} },
};

const root = () => document.getElementById("pad");

function t(key, params = {}) {
  return format(state.messages, key, params);
}

/** An element: el("button", {class, text, on: {click}, data-testid: ...}, ...children). */
function el(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "class") element.className = value;
    else if (name === "text") element.textContent = value;
    else if (name === "on") for (const [type, handler] of Object.entries(value)) element.addEventListener(type, handler);
    else if (["disabled", "value", "checked", "selected", "hidden"].includes(name)) element[name] = value;
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  element.append(...children.flat().filter((child) => child !== null && child !== undefined && child !== false));
  return element;
}

// --- talking to the server ---------------------------------------------------------------

class Refusal extends Error {
  constructor(status, error) {
    super(error?.message || `HTTP ${status}`);
    this.code = error?.code ?? "error";
    this.field = error?.field ?? null;
  }
}

async function api(method, path, body) {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new Refusal(0, { code: "network", message: "" });
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new Refusal(response.status, data?.error);
  return data;
}

function notify(text, detail = "") {
  const notice = document.getElementById("notice");
  notice.replaceChildren(el("strong", { text }), detail ? el("span", { text: detail }) : null);
  notice.hidden = false;
  clearTimeout(notify.timer);
  notify.timer = setTimeout(() => (notice.hidden = true), 6000);
}

function refused(error) {
  if (error.code === "network") return notify(t("error.network"));
  const field = (error.field || "").replace(/^entry\./, "").split(".")[0];
  const known = ["tile", "value", "figure", "count", "player", "remaining", "points", "players", "kind"];
  const key = error.code === "stale_version" || error.code === "finished" ? `error.${error.code}` : known.includes(field) ? `error.${field}` : "error.other";
  notify(t(key), error.message);
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
  try {
    state.game = await api("POST", `/api/pad/games/${state.game.id}/${path}`, { ...body, version: state.game.version });
    afterChange();
  } catch (error) {
    if (error.code === "stale_version") await loadGame(state.game.id);
    if (typed && !state.digits.length && state.value === "") Object.assign(state, typed);
    render();
    refused(error);
  }
}

function afterChange() {
  const sheet = state.game.sheet;
  state.selected = sheet.turn_player ?? sheet.to_move ?? state.selected;
  state.panel = sheet.awaiting ? "settle" : null;
  render();
}

async function loadGame(id) {
  try {
    state.game = await api("GET", `/api/pad/games/${encodeURIComponent(id)}`);
    afterChange();
  } catch (error) {
    state.game = null;
    root().replaceChildren(el("p", { class: "empty", text: t("game.missing") }), el("a", { class: "button", href: "/pad", text: t("setup.new") }));
    refused(error);
  }
}

// --- views -----------------------------------------------------------------------------

function render() {
  document.title = t("title");
  for (const node of document.querySelectorAll("[data-key]")) node.textContent = t(node.dataset.key);
  if (location.pathname.startsWith("/pad/") && state.game) root().replaceChildren(gameView());
  else if (new URLSearchParams(location.search).has("players")) playersView();
  else root().replaceChildren(setupView());
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
  const rules = preset?.rules ?? {};
  const adult = rules.target_score !== null && rules.bank === null;
  const house = adult
    ? el(
        "fieldset",
        { class: "house" },
        el("legend", { text: t("setup.house") }),
        numberOption("target_score", rules.target_score),
        checkOption("unlimited_draws", "max_draws", null, rules.max_draws),
        checkOption("two_sides", "two_sides_bonus", 40, rules.two_sides_bonus),
        checkOption("empty_pool_penalty", "empty_pool_pass_penalty", 10, rules.empty_pool_pass_penalty),
        checkOption("each_loses_own", "blocked", "each_loses_own", rules.blocked),
      )
    : null;
  return el(
    "form",
    {
      class: "setup",
      "data-testid": "setup",
      on: {
        submit: (event) => {
          event.preventDefault();
          startGame();
        },
      },
    },
    el("h1", { text: t("setup.title") }),
    el(
      "label",
      { class: "field" },
      el("span", { text: t("setup.edition") }),
      el(
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
        state.presets.map((option) => el("option", { value: option.name, selected: option.name === setup.preset, text: t(`preset.${option.name}`) })),
      ),
    ),
    el("p", { class: "hint", text: t(`preset.${setup.preset}.about`) }),
    house,
    el(
      "fieldset",
      { class: "names" },
      el("legend", { text: t("setup.players") }),
      setup.players.map((name, seat) =>
        el(
          "div",
          { class: "name-row" },
          el("input", {
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
            ? el("button", {
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
        ? el("button", {
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
      el("datalist", { id: "known-names" }, state.knownNames.map((known) => el("option", { value: known }))),
    ),
    el("button", { type: "submit", class: "primary big", "data-testid": "start", text: t("setup.start") }),
    el("a", { class: "link", href: "/pad?players", "data-testid": "players-link", text: t("stats.title") }),
  );
}

function numberOption(name, value) {
  const setup = state.setup;
  return el(
    "label",
    { class: "field" },
    el("span", { text: t(`option.${name}`) }),
    el("input", {
      type: "number",
      inputmode: "numeric",
      min: 1,
      value: setup.options[name] ?? value,
      "data-testid": `option-${name}`,
      on: { input: (event) => (setup.options[name] = Number(event.target.value)) },
    }),
  );
}

function checkOption(key, option, onValue, presetValue) {
  const setup = state.setup;
  const checked = option in setup.options ? setup.options[option] === onValue : presetValue === onValue;
  return el(
    "label",
    { class: "check" },
    el("input", {
      type: "checkbox",
      checked,
      "data-testid": `option-${key}`,
      on: {
        change: (event) => {
          if (event.target.checked) setup.options[option] = onValue;
          else delete setup.options[option];
        },
      },
    }),
    el("span", { text: t(`option.${key}`) }),
  );
}

async function startGame() {
  const setup = state.setup;
  try {
    const game = await api("POST", "/api/pad/games", { preset: setup.preset, options: setup.options, players: setup.players });
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
  return el(
    "div",
    { class: "game" },
    totalsBar(sheet),
    statusLine(game, sheet),
    open && state.panel === "settle" ? settlePanel(sheet) : null,
    open && state.panel === "correct" ? correctionPanel(sheet) : null,
    open && !state.panel ? entryPanel(sheet) : null,
    !game.finished ? finishRow(sheet) : null,
    historyView(sheet),
    shareRow(game),
  );
}

function totalsBar(sheet) {
  return el(
    "section",
    { class: "totals", "data-testid": "totals" },
    sheet.players.map((name, seat) =>
      el(
        "button",
        {
          type: "button",
          class: ["player", seat === state.selected ? "selected" : "", sheet.winners.includes(seat) ? "winner" : ""].join(" "),
          "aria-pressed": String(seat === state.selected),
          "data-testid": `player-${seat}`,
          on: {
            click: () => {
              state.selected = seat;
              render();
            },
          },
        },
        el("span", { class: "name", text: name }),
        el("span", { class: "total", "data-testid": `total-${seat}`, text: String(sheet.totals[seat]) }),
        el("span", { class: "rack", text: t("game.tiles", { count: sheet.racks[seat] }) }),
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
    banner = el("p", { class: "banner over", "data-testid": "winners", text: t(game.finished ? "game.final" : "game.over", { names }) });
  } else if (sheet.final_hand) {
    banner = el("p", { class: "banner gong", "data-testid": "final-hand", text: t("game.final_hand") });
  } else if (sheet.opening) {
    banner = el("p", { class: "banner", text: t("game.opening") });
  }
  return el("div", { class: "status" }, el("p", { class: "counts", "data-testid": "status", text: parts.join(" · ") }), banner);
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
  return el(
    "section",
    { class: "entry", "data-testid": "entry" },
    el("p", { class: "for", text: t("entry.for", { name: player }) }),
    el(
      "div",
      { class: "tile-line" },
      el("output", { class: "tile", "data-testid": "tile", text: slots.join("-") }),
      onePoint
        ? null
        : el("input", {
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
    el(
      "div",
      { class: "keypad" },
      symbols.map((symbol) => el("button", { type: "button", class: "key", "data-testid": `key-${symbol}`, text: symbol, on: { click: () => typeDigit(symbol) } })),
      el("button", {
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
      : el(
          "div",
          { class: "figures" },
          FIGURES.filter((figure) => sheet.figures.includes(figure)).map((figure) =>
            el("button", {
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
    el(
      "div",
      { class: "actions" },
      el("button", { type: "button", class: "primary big", "data-testid": "lay", text: t("entry.lay"), on: { click: lay } }),
      el("button", { type: "button", class: "big", "data-testid": "draw", text: t(sheet.rules.bank === null ? "entry.draw" : "entry.buy"), on: { click: () => change("entries", { entry: { kind: "draw", player: state.selected, count: 1 } }) } }),
      el("button", { type: "button", class: "big", "data-testid": "pass", text: t("entry.pass"), on: { click: () => change("entries", { entry: { kind: "pass", player: state.selected } }) } }),
    ),
    el(
      "div",
      { class: "actions small" },
      el("button", { type: "button", "data-testid": "undo", disabled: state.game.version === 0, text: t("entry.undo"), on: { click: () => change("undo") } }),
      el("button", { type: "button", "data-testid": "open-correct", text: t("entry.correct"), on: { click: () => openPanel("correct") } }),
      el("button", { type: "button", "data-testid": "open-settle", text: t("entry.end_hand"), on: { click: () => openPanel("settle") } }),
      sheet.rules.joker ? el("button", { type: "button", "data-testid": "take-joker", text: t("entry.take_joker"), on: { click: takeJoker } }) : null,
    ),
  );
}

function openPanel(panel) {
  state.panel = panel;
  render();
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
  const outSeat = sheet.out.length ? sheet.out[0] : state.selected;
  const inputs = sheet.players.map((name, seat) =>
    el("input", {
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
  return el(
    "section",
    { class: "settle", "data-testid": "settle" },
    el("h2", { text: t("settle.title") }),
    sheet.awaiting === "out" ? el("p", { class: "hint", text: t("settle.went_out", { name: sheet.players[outSeat] }) }) : null,
    sheet.awaiting === "last_round" ? el("p", { class: "hint", text: t("settle.last_round_over") }) : null,
    needsOut || needsBlocked
      ? el(
          "div",
          { class: "racks" },
          el("p", { class: "hint", text: t("settle.racks") }),
          sheet.players.map((name, seat) => el("label", { class: "field" }, el("span", { text: name }), inputs[seat])),
        )
      : null,
    el(
      "div",
      { class: "actions" },
      rules.going_out !== "plays_on"
        ? el("button", { type: "button", class: "primary big", "data-testid": "go-out", text: t("settle.out", { name: sheet.players[outSeat] }), on: { click: () => send({ kind: "go_out", player: outSeat }, needsOut) } })
        : null,
      sheet.awaiting !== "out"
        ? el("button", { type: "button", class: "big", "data-testid": "blocked", text: t("settle.blocked"), on: { click: () => send({ kind: "blocked" }, needsBlocked) } })
        : null,
      rules.pool_empty === "last_round"
        ? el("button", { type: "button", class: "big", "data-testid": "last-round", text: t("settle.last_round"), on: { click: () => send({ kind: "last_round" }, false) } })
        : null,
    ),
    el(
      "div",
      { class: "actions small" },
      el("button", { type: "button", "data-testid": "undo", disabled: state.game.version === 0, text: t("entry.undo"), on: { click: () => change("undo") } }),
      sheet.awaiting ? null : el("button", { type: "button", text: t("entry.back"), on: { click: () => openPanel(null) } }),
    ),
  );
}

function correctionPanel(sheet) {
  const points = el("input", { type: "number", inputmode: "numeric", "aria-label": t("correct.points"), placeholder: t("correct.points"), "data-testid": "correct-points" });
  const note = el("input", { type: "text", maxlength: 200, "aria-label": t("correct.note"), placeholder: t("correct.note"), "data-testid": "correct-note" });
  return el(
    "section",
    { class: "correct", "data-testid": "correct" },
    el("h2", { text: t("correct.title", { name: sheet.players[state.selected] }) }),
    el("label", { class: "field" }, el("span", { text: t("correct.points") }), points),
    el("label", { class: "field" }, el("span", { text: t("correct.note") }), note),
    el(
      "div",
      { class: "actions" },
      el("button", {
        type: "button",
        class: "primary big",
        "data-testid": "correct-send",
        text: t("correct.send"),
        on: { click: () => change("entries", { entry: { kind: "correction", player: state.selected, points: Number(points.value || 0), note: note.value } }) },
      }),
      el("button", { type: "button", class: "big", text: t("entry.back"), on: { click: () => openPanel(null) } }),
    ),
  );
}

function finishRow(sheet) {
  return el(
    "div",
    { class: "actions finish" },
    el("button", {
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

function historyView(sheet) {
  return el(
    "section",
    { class: "history", "data-testid": "history" },
    el("h2", { text: t("history.title") }),
    sheet.hands
      .slice()
      .reverse()
      .filter((hand) => hand.entries.length || hand.end)
      .map((hand) =>
        el(
          "details",
          { open: hand.number === sheet.hand_number, "data-testid": `hand-${hand.number}` },
          el(
            "summary",
            {},
            el("span", { text: t("game.hand", { number: hand.number }) }),
            el("span", { class: "points", text: hand.points.map((points, seat) => `${sheet.players[seat]} ${signed(points)}`).join(" · ") }),
          ),
          el(
            "ol",
            { reversed: true },
            hand.entries
              .slice()
              .reverse()
              .map((entry) =>
                el(
                  "li",
                  {},
                  el("span", { text: describe(entry, sheet) }),
                  el("span", {
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

function signed(points) {
  return points > 0 ? `+${points}` : String(points);
}

function shareRow(game) {
  const base = `/api/pad/games/${game.id}`;
  return el(
    "footer",
    { class: "share" },
    el("button", {
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
    el("a", { class: "button", href: `${base}/export.csv`, download: `triominos-pad-${game.id}.csv`, "data-testid": "export-csv", text: t("share.csv") }),
    el("a", { class: "button", href: `${base}/export.json`, download: `triominos-pad-${game.id}.json`, "data-testid": "export-json", text: t("share.json") }),
    el("a", { class: "button", href: "/pad", "data-testid": "new-game", text: t("setup.new") }),
    el("a", { class: "button", href: "/pad?players", text: t("stats.title") }),
  );
}

// --- statistics --------------------------------------------------------------------------

async function playersView() {
  let players = [];
  try {
    players = (await api("GET", "/api/pad/players")).players;
  } catch (error) {
    refused(error);
  }
  const number = (value) => (value === null ? "–" : value.toLocaleString(document.documentElement.lang));
  root().replaceChildren(
    el(
      "section",
      { class: "stats", "data-testid": "stats" },
      el("h1", { text: t("stats.title") }),
      players.length
        ? el(
            "table",
            {},
            el("thead", {}, el("tr", {}, ["stats.name", "stats.games", "stats.won", "stats.average", "stats.best", "stats.bonuses"].map((key) => el("th", { text: t(key) })))),
            el(
              "tbody",
              {},
              players.map((player) =>
                el(
                  "tr",
                  {},
                  el("td", { text: player.name }),
                  el("td", { text: number(player.games) }),
                  el("td", { text: number(player.won) }),
                  el("td", { text: number(player.average_hand) }),
                  el("td", { text: number(player.best_hand) }),
                  el(
                    "td",
                    { class: "bonuses" },
                    Object.entries(player.bonuses)
                      .map(([bonus, count]) => `${t(`figure.${bonus}`)} ×${count}`)
                      .join(", "),
                  ),
                ),
              ),
            ),
          )
        : el("p", { class: "empty", text: t("stats.none") }),
      el("a", { class: "button", href: "/pad", text: t("setup.new") }),
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

async function useLanguage(code) {
  state.messages = await loadMessages(LOCALES, code);
  document.documentElement.lang = code;
}

async function main() {
  const code = chosenLanguage();
  const picker = document.querySelector('[data-testid="language"]');
  picker.replaceChildren(...Object.entries(LANGUAGES).map(([value, name]) => el("option", { value, selected: value === code, text: name })));
  picker.addEventListener("change", () => setLanguage(picker.value));
  window.addEventListener("languagechange", async (event) => {
    await useLanguage(event.detail.code);
    render();
  });
  window.addEventListener("popstate", route);
  await useLanguage(code);
  const [presets, players] = await Promise.all([api("GET", "/api/presets").catch(() => ({ presets: [] })), api("GET", "/api/pad/players").catch(() => ({ players: [] }))]);
  state.presets = presets.presets;
  state.knownNames = players.players.map((player) => player.name);
  await route();
}

main();
