// Talking to the game service (PROTOCOL.md): HTTP for tables, one WebSocket per viewer.

/** An HTTP error answer: `{"error": {"code", "message", "field"}}`, and the score pad's `reason` (`{key, params}`). */
export class ApiError extends Error {
  constructor(status, { code = "error", message = "", field = null, reason = null } = {}) {
    super(message || `HTTP ${status}`);
    this.status = status;
    this.code = code;
    this.field = field;
    this.reason = reason;
  }
}

/**
 * The answer to a request: JSON, or what `read` makes of a successful response;
 * `headers` are sent besides the JSON body's own.
 */
async function request(method, path, body, { headers = {}, read = (response) => response.json() } = {}) {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: body === undefined ? headers : { ...headers, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, { code: "network", message: "" });
  }
  if (!response.ok) {
    const data = await response.json().catch(() => null);
    throw new ApiError(response.status, data?.error ?? {});
  }
  return read(response);
}

export const getJson = (path, headers = {}) => request("GET", path, undefined, { headers });
export const postJson = (path, body, headers = {}) => request("POST", path, body, { headers });
export const deleteJson = (path, body, headers = {}) => request("DELETE", path, body, { headers });
/** A POST answered with a file (an image): its Blob. */
export const postForBlob = (path, body) => request("POST", path, body, { read: (response) => response.blob() });

// --- seats this browser holds --------------------------------------------------------

const SEATS_KEY = "triominos.seats";
const NAME_KEY = "triominos.name";

function readSeats() {
  try {
    return JSON.parse(localStorage.getItem(SEATS_KEY) || "{}");
  } catch {
    return {};
  }
}

/** The codes of the tables this browser holds seats at, the latest taken first. */
export function heldTables() {
  return Object.keys(readSeats()).reverse();
}

/** The seats this browser holds at a table: [{seat, token}], by seat. */
export function heldSeats(code) {
  return (readSeats()[code] ?? []).slice().sort((a, b) => a.seat - b.seat);
}

/** Remember a seat's token (the secret that lets this browser play it). */
export function holdSeat(code, seat, token) {
  const seats = readSeats();
  seats[code] = [...(seats[code] ?? []).filter((held) => held.seat !== seat), { seat, token }];
  localStorage.setItem(SEATS_KEY, JSON.stringify(seats));
}

/** Forget a seat whose token the server refused. */
export function releaseSeat(code, seat) {
  const seats = readSeats();
  seats[code] = (seats[code] ?? []).filter((held) => held.seat !== seat);
  localStorage.setItem(SEATS_KEY, JSON.stringify(seats));
}

export function playerName() {
  return localStorage.getItem(NAME_KEY) || "";
}

export function rememberName(name) {
  localStorage.setItem(NAME_KEY, name);
}

// --- the live connection --------------------------------------------------------------

// A ping every 2.5 s, each answered with a pong: 9 s without any message is a dead link
// (a paused or vanished server, a lost network), given up at once for a new one.
const PING_EVERY = 2500;
const SILENCE_LIMIT = 9000;
const BACKOFF_FIRST = 500;
const BACKOFF_MAX = 8000;
const SERVICE_RESTART = 1012;

let nextId = 0;

/**
 * One viewer's WebSocket to a table, which reconnects by itself.
 *
 * It sends `hello` with the last version it saw on every (re)connect, so the server
 * answers with the missed events (`catchup`) or a fresh view (`welcome`). Events:
 * `state` (detail: "connecting" | "online" | "offline") and `message` (detail: a
 * server message).
 */
export class TableConnection extends EventTarget {
  constructor(code, token) {
    super();
    this.code = code;
    this.token = token;
    this.version = null;
    this.state = "connecting";
    this.attempt = 0;
    this.socket = null;
    this.closed = false;
    this.timers = {};
    this.reconnectNow = () => {
      if (this.state === "offline") this.open();
    };
    window.addEventListener("online", this.reconnectNow);
  }

  start() {
    this.open();
    return this;
  }

  open() {
    clearTimeout(this.timers.retry);
    if (this.closed) return;
    this.setState(this.attempt === 0 ? "connecting" : "offline");
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(this.code)}`);
    this.socket = socket;
    socket.addEventListener("open", () => {
      socket.send(JSON.stringify({ type: "hello", token: this.token, version: this.version }));
      this.heard();
      this.timers.ping = setInterval(() => this.send({ type: "ping" }), PING_EVERY);
    });
    socket.addEventListener("message", (event) => {
      if (socket !== this.socket) return;
      this.heard();
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (typeof message.version === "number") this.version = message.version;
      if (message.type === "welcome" || message.type === "catchup") {
        this.attempt = 0;
        this.setState("online");
      }
      this.dispatchEvent(new CustomEvent("message", { detail: message }));
    });
    socket.addEventListener("close", (event) => this.lost(socket, event.code));
  }

  /**
   * The line `socket` is gone (`code`: how it closed): connect again, the first time at
   * once after a 1012 (service restart: the table moved to another node, or this one
   * stops), else backing off as after any loss.
   */
  lost(socket, code) {
    if (socket !== this.socket) return;
    this.socket = null;
    clearInterval(this.timers.ping);
    clearTimeout(this.timers.silence);
    if (this.closed) return;
    this.attempt += 1;
    this.setState("offline");
    const moved = code === SERVICE_RESTART && this.attempt === 1;
    const delay = moved ? 0 : Math.min(BACKOFF_MAX, BACKOFF_FIRST * 2 ** (this.attempt - 1));
    this.timers.retry = setTimeout(() => this.open(), delay * (0.8 + Math.random() * 0.4));
  }

  /**
   * Any message proves the line alive; silence for too long means it is not. A dead
   * peer never answers a close either, so the line is given up at once, not after it.
   */
  heard() {
    clearTimeout(this.timers.silence);
    const socket = this.socket;
    this.timers.silence = setTimeout(() => {
      socket.close();
      this.lost(socket, null);
    }, SILENCE_LIMIT);
  }

  setState(state) {
    if (state === this.state) return;
    this.state = state;
    this.dispatchEvent(new CustomEvent("state", { detail: state }));
  }

  /** Send a message if the line is up; false when it is not. */
  send(message) {
    if (this.socket?.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  /** Play one of the view's legal actions; returns the id the answer will carry, or null. */
  play(action) {
    const id = `a${Date.now().toString(36)}${(nextId += 1)}`;
    return this.send({ type: "action", id, version: this.version, action }) ? id : null;
  }

  askHint() {
    const id = `h${(nextId += 1)}`;
    return this.send({ type: "hint", id }) ? id : null;
  }

  /** Give up the match (the page has asked the player to confirm). */
  resign() {
    const id = `r${(nextId += 1)}`;
    return this.send({ type: "resign", id }) ? id : null;
  }

  /** Ask the others to let this seat take back its last action. */
  askTakeback() {
    const id = `t${(nextId += 1)}`;
    return this.send({ type: "takeback", id }) ? id : null;
  }

  answerTakeback(accept) {
    return this.send({ type: "takeback_answer", accept });
  }

  /** This seat's person has seen the end of `hand`: the next turn's clock may start. */
  wentOn(hand) {
    return this.send({ type: "went_on", hand });
  }

  close() {
    this.closed = true;
    window.removeEventListener("online", this.reconnectNow);
    for (const timer of Object.values(this.timers)) {
      clearTimeout(timer);
      clearInterval(timer);
    }
    this.socket?.close();
  }
}
