// The home page: start a game, join one by its code or link, see the open tables.

import { currentAccount } from "./account.js";
import { getJson, heldSeats, heldTables, holdSeat, playerName, postJson, rememberName } from "./api.js";
import { DEFAULT_LEVEL, LEVELS, seatNames, strength } from "./bots.js";
import { h, keepingFocus, number, onSubmit, t, toast } from "./dom.js";
import { describeRefusal, toastRefusal } from "./errors.js";
import { timeLeft } from "./time_left.js";
import { editionDetail, editionName, houseRuleGroups, optionLabels, ruleFields, useRuleTexts } from "./rule_form.js";

const TURN_TIMES = [null, 30, 60, 120, 300];
/** What a turn that ran out plays (RULES.md §13), the server's default first. */
const TIMEOUT_ACTIONS = ["place", "draw"];
/** How long a player who left is waited for before a bot may take the seat (RULES.md §15). */
const GRACE_TIMES = [10, 30, 60, 300, 900];
const OPEN_TABLES_EVERY = 5000;

/** The presets of `GET /api/presets`, each with its option declarations and values. */
function presetList(answer) {
  return answer.presets.map((preset) => ({
    ...preset,
    min: Math.min(...preset.players),
    max: Math.max(...preset.players),
  }));
}

export class HomePage {
  constructor(root) {
    this.root = root;
    this.presets = [];
    this.form = {
      preset: "classic",
      players: 2,
      name: playerName(),
      seats: [{ kind: "you" }, { kind: "bot", level: DEFAULT_LEVEL }],
      house: {},
      houseOpen: false,
      moreOpen: false,
      turnSeconds: null,
      moveDays: null, // a game over days: the days a move may take, instead of a turn timer
      claimWin: false, // over days: the others may claim the win instead of the timeout action
      graceSeconds: 60,
      listed: false,
      timeoutAction: "place",
      hints: null, // null: as the server decides (on against bots, off between people)
      rated: false, // offered only signed in: a rated table's seats are accounts'
    };
  }

  async start() {
    this.root.replaceChildren(h("p", { class: "muted loading", i18n: "loading" }));
    try {
      const answer = await getJson("/api/presets");
      useRuleTexts(answer.rule_texts);
      this.presets = presetList(answer);
      this.moveDays = answer.move_days;
    } catch (error) {
      const { text, detail } = describeRefusal(error);
      this.root.replaceChildren(h("p", { class: "notice error", title: detail || null }, text));
      return;
    }
    this.render();
    this.refreshMyGames();
    this.refreshOpenTables();
    this.timer = setInterval(() => this.refreshOpenTables(), OPEN_TABLES_EVERY);
  }

  destroy() {
    clearInterval(this.timer);
  }

  /**
   * A table's edition by its preset's plain name, marked so that `render` names it again
   * in another language (the lists of tables are not drawn again by it).
   */
  presetLabel(name) {
    return h("strong", { dataset: { preset: name } }, this.presetName(name));
  }

  presetName(name) {
    const preset = this.presets.find((one) => one.name === name);
    return preset ? editionName(preset) : name;
  }

  get preset() {
    return this.presets.find((preset) => preset.name === this.form.preset) ?? this.presets[0];
  }

  render() {
    this.openTables ??= h("div", { class: "open-tables", "data-testid": "open-tables" });
    this.myGames ??= h("div", { class: "open-tables", "data-testid": "my-games" });
    for (const label of [...this.openTables.querySelectorAll("[data-preset]"), ...this.myGames.querySelectorAll("[data-preset]")]) label.textContent = this.presetName(label.dataset.preset);
    // Made once: a code being typed survives the create form drawn again at each change.
    this.joinBox ??= h("section", { class: "card join" }, h("h2", { i18n: "join_title" }), this.joinForm());
    keepingFocus(this.root, () =>
      this.root.replaceChildren(
        h(
          "div",
          { class: "home" },
          h("section", { class: "card create" }, h("h1", { i18n: "new_game" }), this.createForm()),
          h(
            "div",
            { class: "home-side" },
            h("section", { class: "card mine", hidden: !heldTables().length }, h("h2", { i18n: "my_games" }), this.myGames),
            this.joinBox,
            h("section", { class: "card" }, h("h2", { i18n: "open_tables" }), this.openTables),
            h("section", { class: "card links" }, h("a", { href: "/pad", i18n: "score_pad" }), h("p", { class: "muted", i18n: "score_pad_about" })),
            h("section", { class: "card links" }, h("a", { href: "/puzzles", "data-testid": "puzzles-link", i18n: "puzzles_link" }), h("p", { class: "muted", i18n: "puzzles_about" })),
            h("section", { class: "card links" }, h("a", { href: "/learn", "data-testid": "learn-link", i18n: "learn_link" }), " · ", h("a", { href: "/rules/classic", "data-testid": "rules-link", i18n: "rules_link" })),
          ),
        ),
      ),
    );
  }

  createForm() {
    const form = this.form;
    const preset = this.preset;
    form.players = Math.min(Math.max(form.players, preset.min), preset.max);
    while (form.seats.length < form.players) form.seats.push({ kind: "bot", level: DEFAULT_LEVEL });
    form.seats.length = form.players;
    const rerender = () => this.render();

    const editions = h(
      "div",
      { class: "choices editions", role: "radiogroup", i18nAttrs: { "aria-label": "edition" } },
      ...this.presets.map((choice) =>
        h(
          "label",
          { class: `choice ${choice.name === form.preset ? "checked" : ""}` },
          h("input", {
            type: "radio",
            name: "preset",
            value: choice.name,
            checked: choice.name === form.preset,
            "data-testid": `preset-${choice.name}`,
            on: {
              change: () => {
                form.preset = choice.name;
                form.house = {};
                rerender();
              },
            },
          }),
          h("strong", { "data-testid": "edition-name" }, editionName(choice)),
          h("small", { "data-testid": "edition-detail" }, editionDetail(choice)),
        ),
      ),
    );

    const counts = [];
    for (let count = preset.min; count <= preset.max; count += 1) counts.push(count);
    const players = h(
      "div",
      { class: "segmented", role: "radiogroup", i18nAttrs: { "aria-label": "players" } },
      ...counts.map((count) =>
        h(
          "label",
          { class: count === form.players ? "checked" : "" },
          h("input", {
            type: "radio",
            name: "players",
            value: count,
            checked: count === form.players,
            "data-testid": `players-${count}`,
            on: {
              change: () => {
                form.players = count;
                rerender();
              },
            },
          }),
          number(count),
        ),
      ),
    );

    return h(
      "form",
      {
        class: "create-form",
        "data-testid": "create-form",
        on: onSubmit(() => this.create()),
      },
      h("fieldset", {}, h("legend", { i18n: "edition" }), editions),
      h("fieldset", {}, h("legend", { i18n: "players" }), players),
      h("fieldset", { class: "seats" }, h("legend", { i18n: "seats" }), ...form.seats.map((seat, index) => this.seatRow(seat, index))),
      this.houseRules(preset),
      h("div", { class: "form-buttons" }, h("button", { type: "submit", class: "primary big", "data-testid": "create", i18n: "create" })),
    );
  }

  seatRow(seat, index) {
    const form = this.form;
    if (seat.kind === "you") {
      return h(
        "div",
        { class: "seat-row" },
        h("span", { class: `seat-dot seat-${index}` }),
        h("input", {
          type: "text",
          maxlength: 24,
          required: true,
          value: form.name,
          "data-testid": "your-name",
          i18nAttrs: { placeholder: "your_name", "aria-label": "your_name" },
          on: { input: (event) => (form.name = event.target.value) },
        }),
        h("span", { class: "badge you", i18n: "you" }),
      );
    }
    const choice = seat.kind === "bot" ? `bot:${seat.level}` : seat.kind;
    const select = h(
      "select",
      {
        "data-testid": `seat-${index}`,
        "aria-label": t("seat_n", { number: index + 1 }),
        on: {
          change: (event) => {
            const value = event.target.value;
            form.seats[index] = value.startsWith("bot:") ? { kind: "bot", level: value.slice(4) } : { kind: value, name: "" };
            this.render();
          },
        },
      },
      h("optgroup", { label: t("bots") }, ...LEVELS.map((level) => h("option", { value: `bot:${level.id}`, selected: choice === `bot:${level.id}`, i18n: `level_${level.id}` }))),
      h(
        "optgroup",
        { label: t("people") },
        h("option", { value: "invite", selected: choice === "invite", i18n: "seat_invite" }),
        h("option", { value: "here", selected: choice === "here", i18n: "seat_here" }),
      ),
    );
    const name =
      seat.kind === "here"
        ? h("input", {
            type: "text",
            maxlength: 24,
            required: true,
            value: seat.name,
            "data-testid": `seat-name-${index}`,
            i18nAttrs: { placeholder: "their_name", "aria-label": "their_name" },
            on: { input: (event) => (seat.name = event.target.value) },
          })
        : null;
    const level = seat.kind === "bot" ? LEVELS.find((each) => each.id === seat.level) : null;
    const power = level ? h("small", { class: "level-strength muted", "data-testid": `level-strength-${index}`, i18n: strength(level) }) : null;
    return h("div", { class: "seat-row" }, h("span", { class: `seat-dot seat-${index}` }), select, name, power);
  }

  houseRules(preset) {
    const form = this.form;
    const { common, more } = ruleFields(preset, form.house);
    // One clock: a turn timer in seconds ("30"), days per move ("d2"), or none ("").
    const chooseClock = (value) => {
      const days = value.startsWith("d");
      form.turnSeconds = value && !days ? Number(value) : null;
      form.moveDays = days ? Number(value.slice(1)) : null;
      if (form.moveDays === null) form.claimWin = false;
      this.render();
    };
    const timer = h(
      "label",
      { class: "field" },
      h("span", { i18n: "turn_timer" }),
      h(
        "select",
        { "data-testid": "turn-seconds", on: { change: (event) => chooseClock(event.target.value) } },
        ...TURN_TIMES.map((seconds) =>
          h("option", { value: seconds ?? "", selected: seconds === form.turnSeconds && form.moveDays === null, i18n: seconds ? ["seconds", { count: seconds }] : "no_timer" }),
        ),
        ...this.moveDays.map((days) => h("option", { value: `d${days}`, selected: days === form.moveDays, i18n: ["days_per_move", { count: days }] })),
      ),
    );
    const grace = h(
      "label",
      { class: "field" },
      h("span", { i18n: "grace_time" }),
      h(
        "select",
        { "data-testid": "grace-seconds", on: { change: (event) => (form.graceSeconds = Number(event.target.value)) } },
        ...GRACE_TIMES.map((seconds) => h("option", { value: seconds, selected: seconds === form.graceSeconds, i18n: ["seconds", { count: seconds }] })),
      ),
    );
    const listed = h(
      "label",
      { class: "field check" },
      h("input", { type: "checkbox", checked: form.listed, "data-testid": "listed", on: { change: (event) => (form.listed = event.target.checked) } }),
      h("span", { i18n: "listed_table" }),
    );
    const timeout = h(
      "label",
      { class: "field" },
      h("span", { i18n: "timeout_action" }),
      h(
        "select",
        { "data-testid": "timeout-action", on: { change: (event) => (form.timeoutAction = event.target.value) } },
        ...TIMEOUT_ACTIONS.map((action) => h("option", { value: action, selected: action === form.timeoutAction, i18n: `timeout_${action}` })),
      ),
    );
    const claim = form.moveDays === null
      ? null
      : h(
          "label",
          { class: "field check" },
          h("input", { type: "checkbox", checked: form.claimWin, "data-testid": "claim-win", on: { change: (event) => (form.claimWin = event.target.checked) } }),
          h("span", { i18n: "claim_win_option" }),
        );
    const people = form.seats.filter((seat) => seat.kind !== "bot").length;
    const hints = h(
      "label",
      { class: "field check" },
      h("input", { type: "checkbox", checked: form.hints ?? people <= 1, "data-testid": "hints-option", on: { change: (event) => (form.hints = event.target.checked) } }),
      h("span", { i18n: "hints_option" }),
    );
    const rated = currentAccount()
      ? [
          h(
            "label",
            { class: "field check" },
            h("input", { type: "checkbox", checked: form.rated, "data-testid": "rated-option", on: { change: (event) => (form.rated = event.target.checked) } }),
            h("span", { i18n: "rated_table" }),
          ),
        ]
      : [];
    return h(
      "details",
      { class: "house-rules", open: form.houseOpen, on: { toggle: (event) => (form.houseOpen = event.target.open) } },
      h("summary", { "data-testid": "house-rules", i18n: "house_rules" }),
      ...houseRuleGroups({ common: [...common, timer, claim, hints, listed, ...rated], more: [...more, timeout, grace] }, form),
    );
  }

  async create() {
    const form = this.form;
    const name = form.name.trim();
    if (!name) {
      toast(t("name_needed"), "error");
      return;
    }
    rememberName(name);
    const take = [];
    const seats = form.seats.map((seat, index) => {
      if (seat.kind === "bot") {
        const level = LEVELS.find((each) => each.id === seat.level);
        return { kind: "bot", bot: level.bot, think: level.think };
      }
      if (seat.kind === "you" || seat.kind === "here") take.push(index);
      if (seat.kind === "you") return { kind: "person", name };
      if (seat.kind === "here") return { kind: "person", name: seat.name.trim() || t("seat_n", { number: index + 1 }) };
      return { kind: "person" };
    });
    try {
      const answer = await postJson("/api/tables", {
        preset: form.preset,
        players: form.players,
        options: form.house,
        seats,
        turn_seconds: form.turnSeconds,
        take,
        grace_seconds: form.graceSeconds,
        listed: form.listed,
        timeout_action: form.timeoutAction,
        hints: form.hints,
        rated: form.rated && currentAccount() !== null,
        move_days: form.moveDays,
        claim_win: form.claimWin,
      });
      for (const { seat, token } of answer.seats) holdSeat(answer.code, seat, token);
      location.assign(`/t/${answer.code}`);
    } catch (error) {
      toastRefusal(error, optionLabels(this.preset));
    }
  }

  joinForm() {
    const input = h("input", {
      type: "text",
      required: true,
      autocomplete: "off",
      autocapitalize: "characters",
      spellcheck: "false",
      "data-testid": "join-code",
      i18nAttrs: { placeholder: "code_or_link", "aria-label": "code_or_link" },
    });
    return h(
      "form",
      {
        class: "join-line",
        on: onSubmit(() => {
          // A pasted link works as well as a bare code.
          const code = input.value.trim().split("/").filter(Boolean).pop()?.toUpperCase();
          if (code) location.assign(`/t/${encodeURIComponent(code)}`);
        }),
      },
      input,
      h("button", { type: "submit", class: "primary", "data-testid": "join-go", i18n: "join" }),
    );
  }

  async refreshOpenTables() {
    let tables;
    try {
      const answer = await getJson("/api/tables?open=1");
      tables = answer.tables ?? answer;
    } catch {
      return; // the next refresh will try again
    }
    if (!tables.length) {
      this.openTables.replaceChildren(h("p", { class: "muted", i18n: "no_open_tables" }));
      return;
    }
    this.openTables.replaceChildren(
      h(
        "ul",
        {},
        ...tables.map((table) => {
          const seats = table.seats ?? [];
          const names = seatNames(seats).filter((_, index) => seats[index].taken);
          const free = seats.filter((seat) => seat.kind === "person" && !seat.taken).length;
          return h(
            "li",
            { class: "open-table", "data-testid": "open-table", "data-code": table.code },
            h(
              "a",
              { href: `/t/${table.code}` },
              this.presetLabel(table.preset),
              h("span", { class: "muted" }, ` ${names.join(", ")}`),
              h("span", { class: "badge", i18n: ["free_seats", { count: free }] }),
            ),
          );
        }),
      ),
    );
  }

  /**
   * "Your games": the tables this browser holds seats at (api.js keeps their tokens),
   * those where one of its seats is to play first (the least time left first, and how
   * long it is), then those being played, waiting, and finished; a game can go on over
   * days. A table that is gone is left out.
   */
  async refreshMyGames() {
    const codes = heldTables();
    const found = await Promise.all(codes.map((code) => getJson(`/api/tables/${encodeURIComponent(code)}`).catch(() => null)));
    const order = (table) => {
      const mine = heldSeats(table.code).map((held) => held.seat);
      if (table.status === "playing" && mine.includes(table.to_move)) return 0;
      return { playing: 1, waiting: 2, finished: 3 }[table.status];
    };
    const deadline = (table) => table.turn_deadline ?? Infinity;
    const tables = found.filter(Boolean).sort((a, b) => order(a) - order(b) || deadline(a) - deadline(b));
    const now = Date.now() / 1000;
    if (!tables.length) {
      this.myGames.replaceChildren(h("p", { class: "muted", i18n: "no_games" }));
      return;
    }
    this.myGames.replaceChildren(
      h(
        "ul",
        {},
        ...tables.map((table) => {
          const names = seatNames(table.seats);
          const state = order(table) === 0 ? "my_game_turn" : `my_game_${table.status}`;
          return h(
            "li",
            { class: "open-table", "data-testid": "my-game", "data-code": table.code, "data-my-turn": String(order(table) === 0) },
            h(
              "a",
              { href: `/t/${table.code}` },
              this.presetLabel(table.preset),
              h("span", { class: "muted" }, ` ${names.join(", ")}`),
              h("span", { class: `badge ${order(table) === 0 ? "you" : ""}`, i18n: state }),
              order(table) === 0 && table.turn_deadline
                ? h("span", { class: "muted", "data-testid": "my-game-time-left", i18n: ["my_game_time_left", { time: timeLeft(Math.max(0, Math.ceil(table.turn_deadline - now))) }] })
                : null,
            ),
          );
        }),
      ),
    );
  }
}
