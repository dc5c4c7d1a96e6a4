// The table: play, watch, and the end of hands and matches.
//
// Everything shown comes from the server's `view` (PROTOCOL.md). The page decides no
// rule: the cells a tile can go to, the rotations that fit, the points and the costs of
// drawing and passing are all read from `view.legal`, and playing sends one of its
// entries back unchanged. This browser may hold several seats (hot-seat): one
// connection per seat, and the table shows the seat whose turn it is.

import { TableConnection, getJson, heldSeats, holdSeat, playerName, postForBlob, postJson, releaseSeat, rememberName } from "./api.js";
import { BoardView } from "./board.js";
import { TileChoice, choiceKey, pointingUp } from "./choice.js";
import { DEFAULT_LEVEL, LEVELS, levelOf, seatNames, strength } from "./bots.js";
import { icon } from "./icons.js";
import { arrange, h, number, onSubmit, setText, signed, t, toast } from "./dom.js";
import { Announcer, boardSummary, moveWords } from "./speech.js";
import { RackView } from "./rack.js";
import { NotifyControl } from "./push.js";
import { EndDialogs } from "./endings.js";
import { describeRefusal, toastRefusal } from "./errors.js";
import { bonusChips, bonusText, cellText, renderScores, renderSheet } from "./sheet.js";
import { Sounds } from "./sounds.js";
import { JOKER, cellKey } from "./tiles.js";
import { timeLeft } from "./time_left.js";

const WATCH = "watch";
const CHAT_MUTED = "triominos.chat_muted";
const MAX_CHAT_CHARS = 200; // protocol.MAX_CHAT_CHARS
const TABS = ["play", "players", "chat", "scores", "moves"]; // a phone's tabs (showTab)
const RATING_OUTCOMES = ["rated", "shared", "early_resign", "no_account"]; // PROTOCOL.md, "Ratings": each a rating_outcome_* text
const RATING_TRIES = 10; // a rated match's rating asked for at most this many seconds after its end

/**
 * The board after `event`: a placement adds its tile, taking the joker back replaces it,
 * a takeback of a placement lifts it again; null when the board cannot be told from here
 * (a takeback of taking the joker back).
 */
function boardAfter(board, event) {
  const placement = { tile: event.tile, cell: event.cell, corners: event.corners };
  if (event.action === "place") return [...board, placement];
  if (event.action === "take_joker") return board.map((each) => (each.tile === JOKER ? placement : each));
  if (event.action === "takeback" && event.undone.action === "place") return board.slice(0, -1);
  if (event.action === "takeback" && event.undone.action === "take_joker") return null;
  return board;
}

/**
 * Who rang the bell (`going_out="finish_round"`, RULES.md 5.5): of the seats with an empty
 * rack while the hand goes on, the one whose last placement came first.
 */
function bellRinger(view) {
  if (view.rules.going_out !== "finish_round" || view.end || view.phase !== "play") return null;
  const out = view.rack_sizes.flatMap((size, seat) => (size === 0 ? [seat] : []));
  if (!out.length) return null;
  const lastPlacement = (seat) => view.history.findLastIndex((event) => event.player === seat && event.action === "place");
  return out.reduce((first, seat) => (lastPlacement(seat) < lastPlacement(first) ? seat : first));
}

/** The seats that still play in the bell round: from the one to move to the one before the starter. */
function stillToPlay(view) {
  const seats = [];
  for (let seat = view.to_move; seat !== view.starter; seat = (seat + 1) % view.players) seats.push(seat);
  return seats;
}

/** Who said a chat line: a player's name, or a spectator's number as the server tells it. */
function chatName(said) {
  if (said.seat !== null) return said.name;
  return said.spectator ? t("spectator_n", { number: said.spectator }) : t("spectator");
}

export class TablePage {
  constructor(root, code) {
    this.root = root;
    this.code = code;
    this.seats = new Map(); // seat key (a seat number, or WATCH) -> {connection, view}
    this.chosenKey = null;
    this.choice = new TileChoice(() => this.view?.legal ?? []);
    this.pending = false;
    this.hints = null;
    this.shownEnds = new Set();
    this.endedHere = false; // the match ended while this page was open (its dialog is shown then only)
    this.finalBoard = null; // {hand, board}: the finished hand's board, shown until its dialog closes
    this.revealed = null; // hot-seat: the seat whose rack was shown after "pass the device"
    this.publicConnection = null; // hot-seat: a spectator's connection (watchPublicly)
    this.publicView = null;
    this.sounds = new Sounds();
    this.chat = []; // this page's chat (the players' or the spectators'), oldest first
    this.rematch = null;
    this.rating = null; // once the match is over: "asking", then its rating's outcome (GET /api/ratings/tables/CODE), "" for a table not rated
    this.otherDevice = false; // "Play on another device" is open (kept across renders)
    this.qrCodes = new Map(); // seat -> the object URL of its personal link's QR code
    this.build();
    this.clock = setInterval(() => this.renderClock(), 500);
    this.keydown = (event) => this.onKey(event);
    document.addEventListener("keydown", this.keydown);
  }

  // --- the page's parts ------------------------------------------------------------

  build() {
    // Only whose turn it is is read out (turnLive), never the clock that ticks beside it.
    this.status = h("div", { class: "status-bar", "data-testid": "status" });
    this.turnLive = h("span", { class: "visually-hidden", "aria-live": "polite", "data-testid": "turn-live" });
    this.announcer = new Announcer(); // each move, and the placement shown, in words
    this.confirmBox = h("div", { class: "confirm", "data-testid": "confirm", hidden: true });
    this.boardWrap = h("div", { class: "board-wrap" });
    this.board = new BoardView(this.boardWrap, { onCellClick: (key) => this.onCell(key) });
    this.board.svg.setAttribute("aria-label", t("board_label"));
    this.board.svg.dataset.i18nAttrs = JSON.stringify({ "aria-label": "board_label" }); // for retranslate
    const tools = h(
      "div",
      { class: "board-tools" },
      h("button", { type: "button", class: "icon", "data-testid": "recentre", i18nAttrs: { "aria-label": "recentre", title: "recentre" }, on: { click: () => this.board.recentre() } }, icon("recentre")),
      h("button", { type: "button", class: "icon", i18nAttrs: { "aria-label": "zoom_in", title: "zoom_in" }, on: { click: () => this.zoom(1.25) } }, icon("zoom_in")),
      h("button", { type: "button", class: "icon", i18nAttrs: { "aria-label": "zoom_out", title: "zoom_out" }, on: { click: () => this.zoom(0.8) } }, icon("zoom_out")),
    );
    this.boardWrap.append(tools, this.confirmBox);
    const rackBox = h("div", { class: "rack-box" });
    this.rack = new RackView(rackBox, {
      onChoose: (tile, how) => this.choose(tile, how),
      onDragMove: (x, y) => this.board.markDrop(this.dropKey(x, y)),
      onDrop: (tile, x, y) => this.drop(tile, x, y),
      onDragEnd: () => this.board.markDrop(null),
    });
    this.actions = h("div", { class: "actions", role: "toolbar", i18nAttrs: { "aria-label": "actions_label" } });
    this.keysHelp = h(
      "div",
      { class: "keys-help", id: "keys-help", "data-testid": "keys-help", hidden: true, role: "note" },
      h("h3", { i18n: "keys_title" }),
      h(
        "dl",
        {},
        ...[
          ["Tab", "key_tab"],
          ["\u2190 \u2191 \u2192 \u2193", "key_arrows"],
          ["R", "key_rotate"],
          ["Enter", "key_place"],
          ["Esc", "key_cancel"],
          ["D", "key_draw"],
          ["P", "key_pass"],
          ["H", "key_hint"],
        ].flatMap(([key, text]) => [h("dt", {}, h("kbd", {}, key)), h("dd", { i18n: text })]),
      ),
    );
    this.players = h("div", { class: "players", "data-testid": "players" });
    this.notices = h("div", { class: "notices", "data-testid": "notices" });
    this.personal = h("div", { class: "notices" }); // "Play on another device"
    this.notify = new NotifyControl(); // "Notify me", on this device
    this.hintBox = h("div", { class: "hint-box", "data-testid": "hints", hidden: true });
    this.sheet = h("div", { class: "sheet", "data-testid": "score-sheet", tabindex: 0, i18nAttrs: { "aria-label": "sheet_title" } });
    this.scores = h("div", { class: "scores", "data-testid": "score-table" });
    this.chatBox = h("section", { class: "chat", "data-testid": "chat" });
    this.giveForms = new Map(); // seat -> its "let a bot play" form (giveToBotForm)
    this.takebackQuestions = new Map(); // seat -> {id, element}: the takeback it is asked (takebackQuestion)
    // Made once and never drawn again (arrange): a message being typed keeps its text and
    // its focus while the others' messages come in.
    this.chatInput = h("input", { type: "text", maxlength: MAX_CHAT_CHARS, required: true, "data-testid": "chat-input", i18nAttrs: { placeholder: "chat_placeholder", "aria-label": "chat_placeholder" } });
    this.chatForm = h(
      "form",
      {
        class: "chat-form",
        hidden: true, // until the chat is heard (renderChat)
        on: onSubmit(() => {
          this.say(this.chatInput.value.trim());
          this.chatInput.value = "";
        }),
      },
      this.chatInput,
      h("button", { type: "submit", "data-testid": "chat-send", i18n: "chat_send" }),
    );
    this.handover = h("div", { class: "handover", "data-testid": "pass-device", hidden: true });
    // The rules of this table (its options beside its edition's) and the lessons.
    this.rulesLink = h("a", { "data-testid": "rules-link", i18n: "rules_link" });
    this.links = h("nav", { class: "table-links" }, this.rulesLink, " · ", h("a", { href: "/learn", "data-testid": "learn-link", i18n: "learn_link" }), " · ", this.notify.element);
    this.endings = new EndDialogs();
    this.resignDialog = h("dialog", { class: "dialog", "data-testid": "resign-confirm" });
    // On a phone one part of the side shows at a time, behind its tab (style.css).
    const panel = (tab, ...children) => h("section", { class: "side-panel", id: `panel-${tab}`, role: "tabpanel", "data-panel": tab, i18nAttrs: { "aria-label": `tab_${tab}` } }, ...children);
    this.tab = "play";
    this.tabs = h(
      "div",
      { class: "table-tabs", role: "tablist", "data-testid": "tabs" },
      ...TABS.map((tab) => h("button", { type: "button", role: "tab", "data-tab": tab, "data-testid": `tab-${tab}`, "aria-controls": tab === "play" ? null : `panel-${tab}`, i18n: `tab_${tab}`, on: { click: () => this.showTab(tab) } })),
    );
    this.element = h(
      "section",
      { class: "table-page", "data-testid": "table" },
      this.tabs,
      h(
        "div",
        { class: "table-main" },
        this.status,
        this.turnLive,
        this.announcer.element,
        this.boardWrap,
        this.handover,
        (this.rackBar = h("div", { class: "rack-bar" }, rackBox, this.actions)),
        this.keysHelp,
      ),
      h(
        "aside",
        { class: "table-side" },
        this.notices,
        panel("players", this.players, this.personal, this.links),
        this.hintBox,
        panel("chat", this.chatBox),
        panel("scores", h("h2", { class: "sheet-title", i18n: "scores_title" }), this.scores),
        panel("moves", h("h2", { class: "sheet-title", i18n: "sheet_title" }), this.sheet),
      ),
      this.endings.dialog,
      this.resignDialog,
    );
    this.root.replaceChildren(this.element);
    this.showTab("play");
  }

  /** A phone's tab: the table (board, rack and actions) or one part of the side. */
  showTab(tab) {
    this.tab = tab;
    this.element.dataset.tab = tab;
    for (const button of this.tabs.children) button.setAttribute("aria-selected", String(button.dataset.tab === tab));
    for (const section of this.element.querySelectorAll(".side-panel")) section.classList.toggle("current", section.dataset.panel === tab);
  }

  async start() {
    this.takeSeatFromLink();
    let summary;
    try {
      summary = await getJson(`/api/tables/${encodeURIComponent(this.code)}`);
    } catch (error) {
      const refusal = describeRefusal(error);
      this.root.replaceChildren(
        h(
          "section",
          { class: "card narrow", "data-testid": "no-table" },
          h("h1", { i18n: "no_table_title" }),
          h("p", { i18n: ["no_table", { code: this.code }] }),
          // "No table has this code" is what the title says already; anything else is told.
          error.code === "not_found" ? null : h("p", { class: "muted", title: refusal.detail || null }, refusal.text),
          h("a", { class: "button primary", href: "/", i18n: "back_home" }),
        ),
      );
      return;
    }
    this.summary = summary;
    this.rulesLink.href = `/rules/${encodeURIComponent(summary.preset)}?table=${encodeURIComponent(this.code)}`;
    this.connect();
  }

  /**
   * A personal link (`#seat=N&token=…`, shown to each player under "Play on another
   * device") gives this browser that seat: it is kept, and the token leaves the address bar.
   */
  takeSeatFromLink() {
    const given = new URLSearchParams(location.hash.slice(1));
    if (!given.has("token") || !given.has("seat")) return;
    holdSeat(this.code, Number(given.get("seat")), given.get("token"));
    history.replaceState(null, "", location.pathname + location.search);
  }

  /** The table's summary says which person seats are still free (`taken`). */
  async refreshSummary() {
    try {
      this.summary = await getJson(`/api/tables/${encodeURIComponent(this.code)}`);
      this.render();
    } catch {
      // Kept as it was; the next presence message asks again.
    }
  }

  connect() {
    for (const { connection } of this.seats.values()) connection.close();
    this.seats.clear();
    this.publicConnection?.close();
    this.publicConnection = this.publicView = null;
    const held = heldSeats(this.code);
    const wanted = held.length ? held.map(({ seat, token }) => [seat, token]) : [[WATCH, null]];
    for (const [key, token] of wanted) {
      const connection = new TableConnection(this.code, token);
      const entry = { connection, view: null, token };
      this.seats.set(key, entry);
      connection.addEventListener("state", () => this.renderConnection());
      connection.addEventListener("message", (event) => this.onMessage(key, event.detail));
      connection.start();
    }
    if (this.shared) this.watchPublicly();
    this.renderConnection();
  }

  /** Hot-seat: a spectator's connection too, whose view is what the shared screen shows (shared). */
  watchPublicly() {
    const connection = (this.publicConnection = new TableConnection(this.code, null));
    connection.addEventListener("message", (event) => {
      if (!event.detail.view) return;
      this.publicView = event.detail.view;
      this.render();
    });
    connection.start();
  }

  destroy() {
    clearInterval(this.clock);
    document.removeEventListener("keydown", this.keydown);
    for (const { connection } of this.seats.values()) connection.close();
    this.publicConnection?.close();
    for (const url of this.qrCodes.values()) URL.revokeObjectURL(url);
    this.board.destroy();
    document.title = t("title");
  }

  /** The seat shown: one of ours whose turn it is, else the one chosen, else the first. */
  get shownKey() {
    const toMove = this.keyToMove;
    if (toMove !== undefined) return toMove;
    if (this.chosenKey !== null && this.seats.has(this.chosenKey)) return this.chosenKey;
    return [...this.seats.keys()][0];
  }

  /** The seat of this page whose turn it is, if one's is: the table always shows it. */
  get keyToMove() {
    return [...this.seats.keys()].find((key) => this.seats.get(key).view?.legal.length > 0);
  }

  get view() {
    return this.seats.get(this.shownKey)?.view ?? null;
  }

  get connection() {
    return this.seats.get(this.shownKey)?.connection ?? null;
  }

  names(view = this.view) {
    return seatNames(view.seats);
  }

  // --- messages ----------------------------------------------------------------------

  onMessage(key, message) {
    const entry = this.seats.get(key);
    if (!entry) return;
    const shownBefore = this.shownKey;
    const before = entry.view;
    switch (message.type) {
      case "welcome":
        entry.view = message.view;
        this.heard(key, message.chat, true);
        if (message.view.reading) this.showUnreadHandEnd(message.view);
        break;
      case "catchup":
        entry.view = message.view;
        this.heard(key, message.chat, true);
        if (key === shownBefore) this.announceAll(message.events, before, message.view);
        break;
      case "event":
        entry.view = message.view;
        if (key === shownBefore) this.announceAll([message.event], before, message.view);
        break;
      case "presence":
        // Who sits where changed, and with it what may be done (the view, when sent).
        if (message.view) entry.view = message.view;
        else if (entry.view) entry.view = { ...entry.view, seats: message.seats };
        if (key === shownBefore) this.refreshSummary();
        break;
      case "hint":
        if (key === shownBefore) this.hints = message.hints;
        break;
      case "rematch":
        this.rematch = message;
        break;
      case "takeback":
        // Asked or declined: the view says who still has to answer (an accepted one is an event).
        entry.view = message.view;
        // The question itself is the notice with its buttons (takebackNotices), read out once.
        if (message.state === "declined" && key === message.seat) toast(t("takeback_declined"));
        break;
      case "ending":
        // Among three or more, who asked to end the match (endingNotices).
        entry.view = message.view;
        break;
      case "chat":
        this.heard(key, message.messages, false);
        return;
      case "error":
        this.onError(key, message);
        return;
      default:
        return;
    }
    if (["welcome", "catchup", "event"].includes(message.type) || message.view) {
      this.pending = false;
      if (this.shownKey !== shownBefore || message.type !== "event" || !entry.view.legal.length) this.clearChoice();
      else this.keepChoice();
      this.hints = message.type === "event" ? null : this.hints;
    }
    this.render();
    const view = this.view;
    if (view?.match_over && this.endedHere && !this.shownEnds.has("match")) this.showMatchEnd(view);
    if (view?.match_over && this.rating === null) this.askRating();
  }

  /**
   * What became of the match's rating, shown among the notices: a rated table is rated
   * just after its end, so a "pending" answer is asked again a few times.
   */
  async askRating() {
    this.rating = "asking";
    for (let tries = 0; tries < RATING_TRIES; tries++) {
      let outcome;
      try {
        ({ outcome } = await getJson(`/api/ratings/tables/${this.code}`));
      } catch {
        this.rating = null; // asked again with the next message
        return;
      }
      if (outcome !== "pending") {
        this.rating = outcome ?? ""; // null: a table not rated, which shows nothing more
        if (RATING_OUTCOMES.includes(this.rating)) this.render();
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    this.rating = null;
  }

  /**
   * Make events felt, and keep the board of a hand that ended until its dialog closes:
   * the board of the view `before` (when it shows that hand) with the events laid on it,
   * else the finished hand's placements from its history.
   */
  announceAll(events, before, view) {
    let board = before?.board ?? [];
    let hand = before?.hand ?? null;
    for (const event of events) {
      if (event.hand !== hand) [board, hand] = [null, event.hand];
      if (board) board = boardAfter(board, event);
      if (event.end && !event.winners) {
        const finished = view.hands.find((each) => each.number === event.hand);
        this.finalBoard = { hand: event.hand, board: board ?? (finished?.history ?? []).reduce(boardAfter, []) };
      }
      if (event.winners) this.endedHere = true;
      this.announce(event, view);
    }
    if (before && !before.match_over) this.sounds.changed(before, view, this.mine(view));
  }

  // --- the chat ---------------------------------------------------------------------

  /** Chat messages from the server (all of them on a greeting); one connection speaks for the page. */
  heard(key, messages, all) {
    if (key !== [...this.seats.keys()][0] || !messages) return;
    this.chat = all ? [...messages] : [...this.chat, ...messages];
    this.renderChat();
  }

  get chatMuted() {
    return localStorage.getItem(CHAT_MUTED) === "1";
  }

  say(text) {
    if (!text) return;
    const connection = this.seats.get([...this.seats.keys()][0])?.connection;
    if (!connection?.send({ type: "chat", text })) toast(t("error_offline"), "error");
  }

  /** The chat, written as text (never as HTML); a muted chat shows nothing of what is said. */
  renderChat() {
    const watching = this.seats.has(WATCH);
    const muted = this.chatMuted;
    const log = h(
      "ol",
      { class: "chat-log", "data-testid": "chat-log", "aria-live": "polite" },
      ...(muted ? [] : this.chat.map((said) => h("li", { "data-testid": "chat-line" }, h("strong", { text: `${chatName(said)}: ` }), h("span", { text: said.text })))),
    );
    arrange(
      this.chatBox,
      h(
        "div",
        { class: "chat-head" },
        h("h2", { class: "sheet-title", i18n: watching ? "chat_spectators" : "chat_players" }),
        h("button", {
          type: "button",
          class: "small",
          "data-testid": "chat-mute",
          "aria-pressed": String(muted),
          i18n: muted ? "chat_unmute" : "chat_mute",
          on: {
            click: () => {
              localStorage.setItem(CHAT_MUTED, muted ? "0" : "1");
              this.renderChat();
            },
          },
        }),
      ),
      muted ? h("p", { class: "muted", "data-testid": "chat-muted", i18n: "chat_muted" }) : log,
      this.chatForm,
    );
    this.chatForm.hidden = muted;
    log.scrollTop = log.scrollHeight;
  }

  /** Whether this page holds the seat to move in `view`. */
  mine(view) {
    return !view.match_over && view.legal.length > 0;
  }

  onError(key, message) {
    this.pending = false;
    if (message.code === "bad_token" && key !== WATCH) {
      releaseSeat(this.code, key);
      toast(t("error_bad_token"), "error");
      this.connect();
      return;
    }
    if (message.code === "stale_version" || message.code === "duplicate") return; // the next view says all
    toastRefusal(message);
    this.render();
  }

  /**
   * Make an event felt: its points and bonuses flash on the board; a hand's end is shown.
   * While a finished hand's board stays on screen, the next hand's moves do not flash on it.
   */
  announce(event, view) {
    const behind = this.finalBoard !== null && this.finalBoard.hand !== event.hand;
    if (event.action !== "takeback") this.announcer.say(moveWords(event, this.names(view)));
    if (event.action === "takeback") {
      this.board.clearFlashes();
      toast(t("takeback_done", { name: this.names(view)[event.player] }));
    }
    if ((event.action === "place" || event.action === "take_joker") && event.cell && !behind) {
      const bonuses = Object.entries(event.bonuses ?? {});
      if (bonuses.length) this.board.flash(event.cell, bonuses.map(([name, value]) => bonusText(name, value)), "bonus");
      else if (event.points) this.board.flash(event.cell, [signed(event.points)]);
    }
    if (event.end && !event.winners) {
      const hand = view.hands.find((finished) => finished.number === event.hand);
      this.showHandEnd(event.end, event.hand, hand?.points ?? null, view);
    }
  }

  // --- choosing and placing a tile -------------------------------------------------

  get options() {
    return this.choice.options;
  }

  clearChoice() {
    this.choice.clear();
  }

  /** After a view change that keeps our turn (a draw), keep the tile if it can still go. */
  keepChoice() {
    this.choice.keep();
  }

  choose(tile, how) {
    if (!this.view?.rack) return;
    this.choice.choose(tile, how);
    this.render();
  }

  rotate() {
    this.choice.rotate();
    this.render();
  }

  onCell(key) {
    if (this.choice.atCell(key) === "place") this.place();
    else this.render();
  }

  dropKey(x, y) {
    const key = this.board.cellKeyAt(x, y);
    return key && this.choice.cells.has(key) ? key : null;
  }

  drop(tile, x, y) {
    this.board.markDrop(null);
    const entry = this.choice.dropped(tile, this.dropKey(x, y));
    if (entry) this.send(entry);
    else this.render();
  }

  place() {
    const entry = this.choice.previewEntry;
    if (entry) this.send(entry);
  }

  cancel() {
    this.choice.cancel();
    this.render();
  }

  send(entry) {
    if (!entry || this.pending || this.handingOver) return;
    if (!this.connection?.play(entry.action)) {
      toast(t("error_offline"), "error");
      return;
    }
    this.pending = true;
    this.clearChoice();
    this.render();
    // The button pressed is gone with the choice: the keyboard goes back to the rack.
    this.rack.focusFirst();
  }

  play(kind) {
    this.send(this.options.others[kind]);
  }

  zoom(factor) {
    const rect = this.board.svg.getBoundingClientRect();
    this.board.zoomAt(rect.left + rect.width / 2, rect.top + rect.height / 2, factor);
  }

  askHint() {
    if (this.handingOver) return; // the hints would show the rack
    if (!this.connection?.askHint()) toast(t("error_offline"), "error");
    else {
      this.hints = [];
      this.render();
    }
  }

  onKey(event) {
    const done = choiceKey(event, this.choice, this.rack);
    if (done === "place") this.place();
    else if (done === "changed") this.render();
    if (done) return;
    const key = event.key;
    if (key === "d" || key === "D") {
      this.play(this.options.others.draw ? "draw" : "starter_draw");
    } else if (key === "p" || key === "P") {
      this.play("pass");
    } else if (key === "h" || key === "H") {
      if (this.view?.legal.length && this.view.hints) this.askHint();
    } else if (key === "?") {
      this.toggleKeys();
    }
  }

  toggleKeys() {
    this.keysHelp.hidden = !this.keysHelp.hidden;
    this.actionButtons?.keys.setAttribute("aria-expanded", String(!this.keysHelp.hidden));
  }

  // --- drawing the page --------------------------------------------------------------

  render() {
    const view = this.view;
    if (!view) return;
    // For tests and tools: which version is shown, and whether this page may play now.
    this.element.dataset.version = view.version;
    // Hot-seat: the next player's rack waits behind "pass the device" until they show it.
    const handingOver = this.handingOver;
    const frozen = this.finalBoard !== null;
    const myTurn = view.legal.length > 0 && !this.pending && !handingOver && !frozen;
    // A phone in another tab comes back to the board when a turn of this device begins.
    if (myTurn && this.element.dataset.myTurn !== "true" && !this.pending) this.showTab("play");
    this.element.dataset.myTurn = String(myTurn);
    this.element.dataset.over = String(view.match_over);
    if (!view.legal.length || handingOver || frozen) this.clearChoice();
    this.renderHandover(view, handingOver);
    this.renderTitle(view);
    const cards = view.rules.tile_set === "junior";
    const { byTile, others } = this.options;
    const { preview, selected, turned } = this.choice;
    const cells = this.choice.cells;
    const previewOption = preview && cells.get(preview.key);
    const previewEntry = this.choice.previewEntry;
    const placed = (this.hints ?? []).filter((hint) => hint.action.cell); // not a draw on purpose
    const hints = placed.map((hint, index) => ({ cell: hint.action.cell, rank: index + 1 }));
    this.board.render({
      placements: frozen ? this.finalBoard.board : view.board,
      cards,
      legal: this.pending || frozen ? new Map() : cells,
      focus: preview?.key ?? null,
      preview: previewEntry ? { ...previewEntry.action, points: previewEntry.points } : null,
      hints,
    });
    const places = new Set([...byTile.values()].flatMap((tileCells) => [...tileCells.keys()]));
    this.board.svg.setAttribute("aria-label", boardSummary(frozen ? this.finalBoard.board : view.board, frozen ? 0 : places.size));
    this.announcer.preview(previewEntry);
    this.rack.render({
      tiles: view.rack ?? [],
      cards,
      playable: this.pending ? new Set() : new Set(byTile.keys()),
      fits: view.legal.length && !frozen ? byTile : null,
      selected,
      turned,
    });
    this.rack.element.hidden = view.rack === null || handingOver || frozen;
    this.rackBar.hidden = handingOver; // the actions too: nothing can be done behind the handover
    this.renderConfirm(previewEntry, previewOption);
    this.renderActions(others, byTile, view);
    this.renderStatus(view);
    this.renderPlayers(view);
    this.renderNotices(view);
    this.renderHints(view);
    const seen = this.shared ? this.publicView : view;
    const hands = (seen?.hands ?? []).map((hand) => ({ number: hand.number, actions: hand.history, end: hand.end }));
    if (seen && !hands.some((hand) => hand.number === seen.hand)) hands.push({ number: seen.hand, actions: seen.history, end: seen.end });
    renderSheet(this.sheet, hands, this.names(view));
    let total = view.rules.starting_score ?? 0;
    const running = view.seats.map(() => total);
    const finished = view.hands.map((hand) => ({ number: hand.number, totals: hand.points.map((points, seat) => (running[seat] += points)) }));
    renderScores(this.scores, finished, this.names(view), total);
    this.renderClock();
  }

  /**
   * Hot-seat: the seat to move is one of several people on this device who has not shown
   * the rack yet. Nothing of a seat is shown and nothing is done until they show it.
   */
  get handingOver() {
    const view = this.view;
    if (!view) return false;
    const people = [...this.seats.keys()].filter((key) => key !== WATCH && view.seats[key]?.kind === "person");
    return people.length > 1 && view.legal.length > 0 && !view.match_over && this.revealed !== this.shownKey;
  }

  /**
   * Several seats on this device: its screen is shared, so what is shown of the match to
   * all of them (the score sheet) is what a spectator sees, from the spectator's view the
   * server builds (publicView), never one seat's private view of its own draws.
   */
  get shared() {
    return [...this.seats.keys()].filter((key) => key !== WATCH).length > 1;
  }

  renderHandover(view, handingOver) {
    this.handover.hidden = !handingOver;
    if (!handingOver) return;
    const name = this.names(view)[this.shownKey];
    this.handover.replaceChildren(
      h("p", { class: "handover-text", i18n: ["pass_device", { name }] }),
      h("button", {
        type: "button",
        class: "primary",
        "data-testid": "show-rack",
        i18n: ["show_rack", { name }],
        on: {
          click: () => {
            this.revealed = this.shownKey;
            this.render();
            this.rack.focusFirst();
          },
        },
      }),
    );
  }

  /** The tab says when it is this page's turn: a mark in its title, and its icon. */
  renderTitle(view) {
    const turn = this.mine(view) && !this.pending;
    document.title = turn ? `\u25CF ${t("your_turn_title", { name: this.names(view)[this.shownKey] })} \u2014 ${t("title")}` : t("title");
    const icon = document.querySelector("link[rel=icon]");
    const wanted = turn ? "/static/favicon-turn.svg" : "/static/favicon.svg";
    if (icon && icon.getAttribute("href") !== wanted) icon.setAttribute("href", wanted);
  }

  renderConfirm(entry, option) {
    this.confirmBox.hidden = !entry;
    if (!entry) return;
    this.confirmBox.replaceChildren(
      h(
        "div",
        { class: "confirm-text" },
        h("strong", {}, entry.action.tile === JOKER ? t("joker") : entry.action.tile),
        ` ${cellText(entry.action.cell)} `,
        h("span", { class: "confirm-points", "data-testid": "confirm-points" }, signed(entry.points)),
        ...bonusChips(entry.bonuses),
      ),
      h(
        "div",
        { class: "confirm-buttons" },
        option.entries.length > 1
          ? h("button", { type: "button", "data-testid": "rotate", i18n: "rotate", on: { click: () => this.rotate() } })
          : null,
        h("button", { type: "button", "data-testid": "cancel", i18n: "cancel", on: { click: () => this.cancel() } }),
        h("button", {
          type: "button",
          class: "primary",
          "data-testid": "place",
          i18n: entry.action.action === "take_joker" ? "take_joker" : "place",
          on: { click: () => this.place() },
        }),
      ),
    );
  }

  renderActions(others, byTile, view) {
    // Made once and only updated (arrange): a button pressed from the keyboard keeps the
    // focus through the render its press brings, as it would not if it were made again.
    const buttons = (this.actionButtons ??= this.makeActionButtons());
    const junior = view.rules.bank !== null && view.rules.bank !== undefined;
    for (const kind of ["starter_draw", "draw", "pass"]) buttons[kind].disabled = !others[kind] || this.pending;
    setText(buttons.draw, junior ? "buy_cost" : "draw_cost", { points: others.draw ? signed(others.draw.points) : "" });
    setText(buttons.pass, "pass_cost", { points: others.pass ? signed(others.pass.points) : "" });
    buttons.hint.disabled = !byTile.size || this.pending;
    buttons.keys.setAttribute("aria-expanded", String(!this.keysHelp.hidden));
    buttons.mute.setAttribute("aria-pressed", String(this.sounds.muted));
    buttons.mute.replaceChildren(icon(this.sounds.muted ? "sound_off" : "sound_on"));
    const playing = this.held.length && view.status === "playing" && !view.match_over;
    arrange(
      this.actions,
      others.starter_draw ? buttons.starter_draw : null,
      buttons.draw,
      buttons.pass,
      this.takebackSeat() ? buttons.takeback : null,
      playing && !view.ending.includes(view.seat) ? buttons.resign : null,
      playing && !view.may_resign && view.seat !== null ? buttons.leave : null,
      view.hints ? buttons.hint : null,
      buttons.keys,
      buttons.mute,
    );
  }

  /** The toolbar's buttons, each made once (renderActions says which are shown, and how). */
  makeActionButtons() {
    const action = (kind, testid, key = kind) =>
      h("button", { type: "button", class: `action ${kind}`, "data-testid": testid, i18n: key, on: { click: () => this.play(kind) } });
    return {
      starter_draw: action("starter_draw", "starter-draw"),
      draw: action("draw", "draw", "draw_cost"),
      pass: action("pass", "pass", "pass_cost"),
      takeback: h("button", {
        type: "button",
        class: "action takeback",
        "data-testid": "takeback",
        i18n: "take_back",
        on: { click: () => this.takebackSeat()?.connection.askTakeback() || toast(t("error_offline"), "error") },
      }),
      resign: h("button", { type: "button", class: "action resign", "data-testid": "resign", i18n: "resign", on: { click: () => this.confirmQuit(this.view.may_resign ? "resign" : "resign_ask") } }),
      leave: h("button", { type: "button", class: "action leave", "data-testid": "leave", i18n: "leave", on: { click: () => this.confirmQuit("leave") } }),
      hint: h("button", { type: "button", class: "action hint", "data-testid": "hint", i18n: "hint", on: { click: () => this.askHint() } }),
      keys: h("button", {
        type: "button",
        class: "icon",
        "data-testid": "keys",
        "aria-controls": "keys-help",
        i18nAttrs: { "aria-label": "keys_title", title: "keys_title" },
        on: { click: () => this.toggleKeys() },
      }, icon("keyboard")),
      mute: h("button", {
        type: "button",
        class: "icon",
        "data-testid": "mute",
        i18nAttrs: { "aria-label": "mute", title: "mute" },
        on: {
          click: () => {
            this.sounds.muted = !this.sounds.muted;
            this.render();
          },
        },
      }),
    };
  }

  /** The seats this page holds (not a spectator's), each with its connection and view. */
  get held() {
    return [...this.seats.entries()].filter(([key, entry]) => key !== WATCH && entry.view);
  }

  /** The seat of this page that may ask for a takeback now ("Take back"), if one may. */
  takebackSeat() {
    return this.held.find(([, entry]) => entry.view.may_take_back)?.[1];
  }

  /**
   * Resigning loses the match (at once, or among three or more once everyone asked),
   * leaving gives the seat to a bot for good (from this device): the player says so
   * twice. `kind` is "resign", "resign_ask" or "leave" (their texts' keys).
   */
  confirmQuit(kind) {
    const key = this.shownKey;
    const entry = this.seats.get(key);
    if (!entry || key === WATCH) return;
    const close = () => this.resignDialog.close();
    this.resignDialog.replaceChildren(
      h("h2", { i18n: `${kind}_title` }),
      h("p", { i18n: [`${kind}_text`, { name: this.names()[key] }] }),
      h(
        "div",
        { class: "dialog-buttons" },
        h("button", { type: "button", "data-testid": "resign-no", i18n: `${kind}_no`, on: { click: close } }),
        h("button", {
          type: "button",
          class: "primary danger",
          "data-testid": "resign-yes",
          i18n: `${kind}_yes`,
          on: {
            click: () => {
              close();
              if (kind === "leave") this.leave(key, entry);
              else this.resign(entry);
            },
          },
        }),
      ),
    );
    this.resignDialog.showModal();
    this.resignDialog.querySelector("[data-testid=resign-no]").focus();
  }

  resign(entry) {
    this.endedHere = true; // the match ends in front of this player: its dialog opens
    if (!entry.connection.resign()) toast(t("error_offline"), "error");
  }

  /**
   * Leave a table of three or more (RULES.md 16): a bot of the default level plays the seat
   * to the end, the others play on, and this device lets the seat go (it would take the
   * seat back by connecting with its token) and watches.
   */
  async leave(key, entry) {
    const level = LEVELS.find((each) => each.id === DEFAULT_LEVEL);
    try {
      await postJson(`/api/tables/${encodeURIComponent(this.code)}/seats/${key}/bot`, { token: entry.token, bot: level.bot, think: level.think });
    } catch (error) {
      toastRefusal(error);
      return;
    }
    releaseSeat(this.code, key);
    this.connect();
  }

  /**
   * Among three or more, who asked to end the match (RULES.md 16): each seat of this page
   * that has not gets "Agree", which is its own resignation's request.
   */
  endingNotices(view) {
    if (!view.ending.length || view.match_over) return [];
    const names = this.names(view);
    const asked = { names: view.ending.map((seat) => names[seat]).join(", "), name: names[view.ending[0]] };
    return this.held.map(([key, entry]) =>
      entry.view.ending.includes(key)
        ? h("p", { class: "notice", "data-testid": "ending-waiting", i18n: "ending_waiting" })
        : h(
            "div",
            { class: "notice takeback-asked", "data-testid": "ending-asked" },
            h("p", { i18n: ["ending_asked", { ...asked, you: names[key] }] }),
            h("button", { type: "button", class: "primary danger", "data-testid": "ending-agree", i18n: "ending_agree", on: { click: () => entry.connection.resign() || toast(t("error_offline"), "error") } }),
          ),
    );
  }

  /** A takeback asked for: the seats of this page that must answer get Accept and Decline. */
  takebackNotices(view) {
    const names = this.names(view);
    const notices = [];
    for (const [key, entry] of this.held) {
      const asked = entry.view.takeback;
      if (!asked) continue;
      if (asked.seat === key) {
        notices.push(h("p", { class: "notice", "data-testid": "takeback-waiting", i18n: "takeback_waiting" }));
      } else if (asked.waiting.includes(key)) {
        notices.push(this.takebackQuestion(key, entry, names[asked.seat], names[key]));
      }
    }
    return notices;
  }

  /**
   * The question of one takeback to one seat of this page, made once (kept while it waits,
   * by its asker and version): as an alert it is read out once, when it appears, and no
   * toast is laid over its buttons.
   */
  takebackQuestion(key, entry, name, you) {
    const id = `${name}:${entry.view.version}`;
    const kept = this.takebackQuestions.get(key);
    if (kept?.id === id) return kept.element;
    const answer = (accept) => entry.connection.answerTakeback(accept) || toast(t("error_offline"), "error");
    const element = h(
      "div",
      { class: "notice takeback-asked", role: "alert", "data-testid": "takeback-asked" },
      h("p", { i18n: ["takeback_asked", { name, you }] }),
      h("button", { type: "button", class: "primary", "data-testid": "takeback-accept", i18n: "takeback_accept", on: { click: () => answer(true) } }),
      h("button", { type: "button", "data-testid": "takeback-decline", i18n: "takeback_decline", on: { click: () => answer(false) } }),
    );
    this.takebackQuestions.set(key, { id, element });
    return element;
  }

  renderStatus(view) {
    const names = this.names(view);
    const parts = [h("span", { "data-testid": "hand-number", i18n: ["hand_number", { number: view.hand }] })];
    parts.push(h("span", { "data-testid": "pool-size", i18n: ["pool_size", { count: view.pool_size }] }));
    if (view.bank !== null && view.bank !== undefined) {
      parts.push(h("span", { "data-testid": "bank", class: "counters", i18n: ["bank", { count: view.bank }] }));
    }
    let turn;
    if (view.match_over) turn = h("strong", { i18n: "match_over" });
    else if (view.status === "waiting") turn = h("span", { i18n: "waiting_players" });
    else if (view.seat !== null && view.to_move === view.seat) {
      // Several people on this device (hot-seat): "Your turn, Ann", never a bare "Your turn".
      const several = [...this.seats.keys()].filter((key) => key !== WATCH).length > 1;
      const key = view.phase === "starter_draw" ? "your_turn_starter" : several ? "your_turn_name" : "your_turn";
      turn = h("strong", { class: "your-turn", i18n: [key, { name: names[view.to_move] }] });
    } else turn = h("span", { i18n: ["to_move", { name: names[view.to_move] }] });
    parts.push(h("span", { class: "turn", "data-testid": "turn" }, turn), h("span", { class: "clock", "data-testid": "clock" }));
    parts.push(h("button", { type: "button", class: "claim-win", "data-testid": "claim-win", hidden: true, i18n: "claim_win", on: { click: () => this.claimWin() } }));
    if (this.turnLive.textContent !== turn.textContent) this.turnLive.textContent = turn.textContent;
    const ringer = bellRinger(view);
    if (ringer !== null) {
      const still = stillToPlay(view).map((seat) => names[seat]).join(", ");
      parts.push(h("strong", { class: "gong", "data-testid": "bell", i18n: ["bell", { name: names[ringer], names: still }] }));
    }
    const target = view.rules.target_score;
    if (target && view.rules.match_end === "after_hand" && !view.match_over && view.gong === null) {
      // The totals hold this hand's points already (PROTOCOL.md, A view).
      const past = view.seats.flatMap((_, seat) => (view.totals[seat] >= target ? [names[seat]] : []));
      if (past.length) parts.push(h("strong", { class: "gong", "data-testid": "target-notice", i18n: ["target_reached", { names: past.join(", "), target }] }));
    }
    // Seed 002's gong: a total reached the target during this hand, which is the last.
    if (view.gong !== null && view.gong !== undefined && !view.match_over) {
      parts.push(h("strong", { class: "gong", "data-testid": "gong", i18n: ["gong", { name: names[view.gong] }] }));
    }
    this.status.replaceChildren(...parts);
  }

  renderPlayers(view) {
    const names = this.names(view);
    const junior = view.bank !== null && view.bank !== undefined;
    const held = new Set([...this.seats.keys()].filter((key) => key !== WATCH));
    const winners = new Set(view.winners);
    arrange(
      this.players,
      ...view.seats.map((seat, index) => {
        const toMove = !view.match_over && view.to_move === index;
        const mine = held.has(index);
        const details = [h("span", { class: "rack-size", "data-testid": "rack-size", i18n: ["rack_size", { count: view.rack_sizes[index] }] })];
        const level = seat.kind === "bot" ? levelOf(seat) : null;
        if (level) {
          const number = LEVELS.indexOf(level) + 1;
          details.unshift(h("span", { class: `badge bot level-${number}`, "data-testid": "bot-badge", i18n: ["bot_level_badge", { level: number, bot: t(`bot_${level.id}`) }] }));
        }
        if (!junior) details.push(h("span", { class: "hand-points", i18n: ["hand_points", { points: signed(view.hand_points[index]) }] }));
        const openRack = view.open_racks?.[index];
        const away = !view.match_over && held.size && !mine && seat.kind === "person" && seat.name && seat.connected === false;
        // The server lets a bot take the seat only after the grace period (RULES.md §15):
        // until then a countdown, which renderClock keeps up to date.
        const takeOver = !away
          ? null
          : (seat.bot_allowed_at ?? 0) <= Date.now() / 1000
            ? this.giveToBotForm(index)
            : h("span", { class: "away-countdown", "data-testid": "away-countdown", "data-until": seat.bot_allowed_at });
        return h(
          "div",
          {
            class: `player seat-${index} ${toMove ? "to-move" : ""} ${mine ? "mine" : ""} ${winners.has(index) ? "winner" : ""}`,
            "data-testid": "player",
            "data-seat": index,
            "aria-current": toMove ? "true" : null,
          },
          h(
            "div",
            { class: "player-line" },
            h("span", { class: `presence ${seat.connected === false ? "away" : "here"}`, i18nAttrs: { title: seat.connected === false ? "away" : "here" } }),
            h("span", { class: "player-name" }, names[index]),
            mine ? h("span", { class: "badge you", i18n: "you" }) : null,
            h("span", { class: `total ${junior ? "counters" : ""}`, "data-testid": "total" }, number(view.totals[index])),
          ),
          h("div", { class: "player-details" }, ...details, toMove ? h("span", { class: "clock", "data-seat-clock": index }) : null),
          openRack ? h("div", { class: "open-rack" }, openRack.join(" ")) : null,
          takeOver,
        );
      }),
      held.size > 1 ? this.seatSwitch(held, names) : null,
    );
  }

  /**
   * Hot-seat: which of this device's seats is shown. Made once, its options changed only
   * when the seats or their names do: a seat chosen from the keyboard keeps the focus, and
   * an open list stays open, through the renders that the others' moves bring.
   */
  seatSwitch(held, names) {
    this.switchBox ??= h(
      "label",
      { class: "seat-switch" },
      h("span", { i18n: "show_seat" }),
      h("select", {
        "data-testid": "seat-switch",
        on: {
          change: (event) => {
            this.chosenKey = Number(event.target.value);
            this.clearChoice();
            this.render();
          },
        },
      }),
    );
    const select = this.switchBox.querySelector("select");
    const options = [...held].map((seat) => [String(seat), names[seat]]);
    if (JSON.stringify(options) !== select.dataset.options) {
      select.dataset.options = JSON.stringify(options);
      select.replaceChildren(...options.map(([value, name]) => h("option", { value, text: name })));
    }
    select.value = String(this.shownKey);
    select.disabled = this.keyToMove !== undefined; // (the choice would snap back)
    return this.switchBox;
  }

  renderNotices(view) {
    const notices = [];
    const watching = this.seats.has(WATCH);
    const free = (this.summary?.seats ?? []).filter((seat) => seat.kind === "person" && !seat.taken);
    if (watching) {
      notices.push(h("p", { class: "notice", "data-testid": "watching", i18n: "watching" }));
      if (free.length && !view.match_over) notices.push((this.joinBox ??= this.joinForm()));
    } else if (free.length && !view.match_over) {
      const link = `${location.origin}/t/${this.code}`;
      notices.push(
        h(
          "div",
          { class: "notice invite", "data-testid": "invite" },
          h("p", { i18n: ["invite", { code: this.code }] }),
          h(
            "div",
            { class: "invite-line" },
            h("input", { type: "text", readonly: true, value: link, "aria-label": t("invite_link"), on: { focus: (event) => event.target.select() } }),
            h("button", { type: "button", i18n: "copy", on: { click: () => this.copy(link) } }),
          ),
        ),
      );
    }
    if (this.rematch) {
      notices.push(
        h(
          "div",
          { class: "notice rematch", "data-testid": "rematch-ready" },
          h("p", { i18n: "rematch_ready" }),
          h("button", { type: "button", class: "primary", i18n: "go_rematch", on: { click: () => this.goTo(this.rematch.code) } }),
        ),
      );
    }
    notices.push(...this.takebackNotices(view), ...this.endingNotices(view));
    arrange(this.personal, !watching && !view.match_over ? this.personalLinks(view) : null);
    if (view.match_over) {
      const winners = view.winners.map((seat) => this.names(view)[seat]);
      notices.push(
        h(
          "div",
          { class: "notice over" },
          h("p", { class: "winner", "data-testid": "over-winner", i18n: winners.length > 1 ? ["winners_are", { names: winners.join(", ") }] : ["winner_is", { name: winners[0] ?? "" }] }),
          RATING_OUTCOMES.includes(this.rating) ? h("p", { "data-testid": "rating-outcome", i18n: `rating_outcome_${this.rating}` }) : null,
          h("a", { class: "button", href: `/t/${this.code}?replay=1`, "data-testid": "replay-link", i18n: "replay" }),
          h("a", { class: "button", href: `/api/tables/${this.code}/record`, download: `triominos-${this.code}.json`, i18n: "download_record" }),
        ),
      );
    }
    arrange(this.notices, ...notices); // the join form keeps the name being typed
  }

  /**
   * Each seat this browser holds, as a link that gives it to another device (a phone, the
   * next day): the token is in the link's fragment, which the browser never sends.
   */
  personalLinks(view) {
    const names = this.names(view);
    const seats = [...this.seats.entries()].filter(([key, entry]) => key !== WATCH && entry.token);
    const links = seats.map(([key, entry]) => {
      const link = `${location.origin}/t/${this.code}#seat=${key}&token=${encodeURIComponent(entry.token)}`;
      const qr = this.qrCodes.get(key);
      return h(
        "div",
        { class: "personal-seat" },
        h(
          "div",
          { class: "invite-line" },
          h("input", { type: "text", readonly: true, value: link, "data-testid": "personal-link", "aria-label": t("personal_link_of", { name: names[key] }), on: { focus: (event) => event.target.select() } }),
          h("button", { type: "button", i18n: "copy", on: { click: () => this.copy(link) } }),
        ),
        qr ? h("img", { class: "personal-qr", src: qr, width: 164, height: 164, "data-testid": "personal-qr", alt: t("qr_code_of", { name: names[key] }) }) : null,
      );
    });
    const details = h(
      "details",
      {
        class: "notice personal",
        "data-testid": "other-device",
        open: this.otherDevice,
        on: {
          toggle: () => {
            this.otherDevice = details.open;
            if (details.open) this.loadQrCodes(seats);
          },
        },
      },
      h("summary", { i18n: "other_device" }),
      h("p", { class: "muted", i18n: "other_device_help" }),
      ...links,
    );
    return details;
  }

  /**
   * Each held seat's QR code, made by the server from its token (asked for once, when
   * first shown). A refusal is told once and not asked again until the page is loaded
   * again: the panel drawn open again at every render would ask on and on.
   */
  async loadQrCodes(seats) {
    const missing = seats.filter(([key]) => !this.qrCodes.has(key));
    let loaded = false;
    for (const [key, entry] of missing) {
      this.qrCodes.set(key, null);
      try {
        const image = await postForBlob(`/api/tables/${encodeURIComponent(this.code)}/seats/${key}/qr`, { token: entry.token });
        this.qrCodes.set(key, URL.createObjectURL(image));
        loaded = true;
      } catch (error) {
        toastRefusal(error);
      }
    }
    if (loaded) this.render();
  }

  joinForm() {
    const name = h("input", {
      type: "text",
      maxlength: 24,
      required: true,
      value: playerName(),
      "data-testid": "join-name",
      i18nAttrs: { placeholder: "your_name", "aria-label": "your_name" },
    });
    return h(
      "form",
      {
        class: "join-form",
        "data-testid": "join-form",
        on: onSubmit(() => this.join(name.value.trim())),
      },
      name,
      h("button", { type: "submit", class: "primary", "data-testid": "join", i18n: "sit_down" }),
    );
  }

  async join(name) {
    if (!name) {
      toast(t("name_needed"), "error");
      return;
    }
    try {
      rememberName(name);
      const answer = await postJson(`/api/tables/${encodeURIComponent(this.code)}/join`, { name });
      holdSeat(this.code, answer.seat, answer.token);
      this.connect();
    } catch (error) {
      toastRefusal(error);
    }
  }

  /**
   * "Let a bot play" with the level the player picks (DEFAULT_LEVEL unless told). Made
   * once a seat: every move at the table draws the players again, and a new form would
   * put the level picked back to the default before the button is pressed.
   */
  giveToBotForm(seat) {
    const kept = this.giveForms.get(seat);
    if (kept) return kept;
    const chosen = () => LEVELS.find((level) => level.id === choice.value);
    const power = h("small", { class: "level-strength muted", "data-testid": "bot-level-strength" });
    const choice = h(
      "select",
      { "data-testid": "bot-level", i18nAttrs: { "aria-label": "bot_level" }, on: { change: () => setText(power, ...strength(chosen())) } },
      ...LEVELS.map((level) => h("option", { value: level.id, selected: level.id === DEFAULT_LEVEL, i18n: `level_${level.id}` })),
    );
    setText(power, ...strength(chosen()));
    const form = h(
      "form",
      { class: "give-to-bot", on: onSubmit(() => this.giveToBot(seat, chosen())) },
      choice,
      power,
      h("button", { type: "submit", class: "small", "data-testid": "give-to-bot", i18n: "give_to_bot" }),
    );
    this.giveForms.set(seat, form);
    return form;
  }

  async giveToBot(seat, level) {
    const token = [...this.seats.values()].find((entry) => entry.token)?.token;
    try {
      await postJson(`/api/tables/${encodeURIComponent(this.code)}/seats/${seat}/bot`, { token, bot: level.bot, think: level.think });
    } catch (error) {
      toastRefusal(error);
    }
  }

  async copy(text) {
    try {
      await navigator.clipboard.writeText(text);
      toast(t("copied"));
    } catch {
      toast(text);
    }
  }

  renderHints(view) {
    this.hintBox.hidden = this.hints === null;
    if (this.hints === null) return;
    if (!this.hints.length) {
      this.hintBox.replaceChildren(h("p", { class: "muted", i18n: view.legal.length ? "hint_thinking" : "hint_none" }));
      return;
    }
    // A draw on purpose comes first, in words: why the bots would draw though a tile fits.
    const fishing = this.hints.find((hint) => hint.fishing)?.fishing;
    const placements = this.hints.filter((hint) => !hint.fishing);
    this.hintBox.replaceChildren(
      h("h3", { i18n: "hints_title" }),
      ...(fishing
        ? [
            h("p", { class: "hint-fishing", "data-testid": "hint-fishing" }, [
              h("strong", { i18n: "hint_fishing" }),
              " ",
              h("span", { i18n: [fishing.place_after ? "hint_fishing_why" : "hint_fishing_why_turn_ends", { best: fishing.best, cost: fishing.cost }] }),
            ]),
          ]
        : []),
      h(
        "ol",
        {},
        ...placements.map((hint) =>
          h(
            "li",
            {},
            h(
              "button",
              {
                type: "button",
                class: "link",
                "data-testid": "hint-item",
                on: {
                  click: () => {
                    this.choice.selected = hint.action.tile;
                    this.choice.turned = pointingUp(hint);
                    this.choice.showAt(cellKey(hint.action.cell));
                    this.render();
                  },
                },
              },
              `${hint.action.tile} ${cellText(hint.action.cell)} ${signed(hint.points)}`,
              ...bonusChips(hint.bonuses),
            ),
          ),
        ),
      ),
    );
  }

  renderClock() {
    const view = this.view;
    const left = view?.turn_deadline && !view.match_over ? Math.max(0, Math.ceil(view.turn_deadline - Date.now() / 1000)) : null;
    const text = left === null ? "" : timeLeft(left);
    for (const clock of this.element.querySelectorAll(".clock")) {
      clock.textContent = text;
      clock.classList.toggle("low", left !== null && left < 10);
    }
    // A game over days whose idle seat ran out of time: the others may claim the win.
    const mine = [...this.seats.keys()].filter((key) => key !== WATCH);
    const claimable = left === 0 && view.claim_win && mine.length > 0 && !mine.includes(view.to_move);
    for (const button of this.element.querySelectorAll(".claim-win")) button.hidden = !claimable;
    for (const countdown of this.element.querySelectorAll(".away-countdown")) {
      const left = Math.ceil(Number(countdown.dataset.until) - Date.now() / 1000);
      if (left <= 0) this.renderPlayers(view);  // the button to give the seat to a bot
      else countdown.textContent = t("bot_may_play_in", { seconds: left });
    }
  }

  renderConnection() {
    const states = [...this.seats.values()].map(({ connection }) => connection.state);
    const state = states.includes("offline") ? "offline" : states.includes("connecting") ? "connecting" : "online";
    const badge = document.querySelector("[data-testid=connection]");
    if (!badge) return;
    badge.hidden = false;
    badge.dataset.state = state;
    setText(badge, `connection_${state}`);
  }

  // --- the end of a hand and of the match -----------------------------------------

  showHandEnd(end, number, points, view) {
    if (this.shownEnds.has(number)) return;
    this.shownEnds.add(number);
    this.endings.handEnd({
      end,
      number,
      points,
      totals: view.totals,
      names: this.names(view),
      counters: view.bank !== null,
      onClose: () => {
        for (const [, entry] of this.held) entry.connection.wentOn(number);
        if (this.finalBoard?.hand === number) this.finalBoard = null;
        this.board.clearFlashes();
        this.render();
      },
    });
  }

  /** A page loaded again while its player had not closed the last hand's end shows it again. */
  showUnreadHandEnd(view) {
    const finished = view.hands[view.hands.length - 1];
    if (!finished || view.match_over) return;
    this.finalBoard = { hand: finished.number, board: finished.history.reduce(boardAfter, []) };
    // The totals as that hand left them: the next one may have begun (a bot moves at once).
    const totals = view.totals.map((total, seat) => total - (view.hand > finished.number ? view.hand_points[seat] : 0));
    this.showHandEnd(finished.end, finished.number, finished.points, { ...view, totals });
  }

  showMatchEnd(view) {
    this.shownEnds.add("match");
    const lastHand = view.hands[view.hands.length - 1];
    this.endings.matchEnd({
      winners: view.winners,
      lastHand,
      totals: view.totals,
      names: this.names(view),
      counters: view.bank !== null,
      replay: `/t/${this.code}?replay=1`,
      onRematch: [...this.seats.keys()].some((key) => key !== WATCH) ? () => this.askRematch() : null,
    });
  }

  /** Claim the win over the seat whose days per move ran out (RULES.md §13). */
  async claimWin() {
    const token = [...this.seats.values()].find((entry) => entry.token)?.token;
    try {
      await postJson(`/api/tables/${encodeURIComponent(this.code)}/claim`, { token });
    } catch (error) {
      toastRefusal(error);
    }
  }

  async askRematch() {
    const token = [...this.seats.values()].find((entry) => entry.token)?.token;
    try {
      const answer = await postJson(`/api/tables/${encodeURIComponent(this.code)}/rematch`, { token });
      this.goTo(answer.code);
    } catch (error) {
      toastRefusal(error);
    }
  }

  /** Go to another table (a rematch), taking this table's seats along: their tokens work there. */
  goTo(code) {
    for (const [key, entry] of this.seats) if (key !== WATCH) holdSeat(code, key, entry.token);
    location.assign(`/t/${code}`);
  }
}
