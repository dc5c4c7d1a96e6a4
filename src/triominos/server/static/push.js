// Web Push on this device (PROTOCOL.md, "Push notifications"): the service worker that
// makes the site installable and shows the notices, and the table page's "Notify me".
//
// What this device asked for is kept here (localStorage), per kind. The server ties the
// device to the seats whose tokens this browser holds: each time a page opens with the
// notices on, it sends the subscription again with the seats held now, so a table joined
// since is covered too. Signed in, the device is tied to the account as well (every seat
// it holds, its invitations), which needs the sign-in's CSRF token.

import { currentAccount } from "./account.js";
import { ApiError, deleteJson, getJson, heldSeats, heldTables, postJson } from "./api.js";
import { h, setText } from "./dom.js";
import { chosenLanguage } from "./i18n.js";

/** The kinds of notice, as the server names them (server/push_store.KINDS). */
export const KINDS = ["your_turn", "finished", "rematch", "invitation"];
const KINDS_KEY = "triominos.push";
const SEATS_PER_REQUEST = 32; // push_api.SEATS_PER_REQUEST

/** Register the service worker, where the browser has them; never fails the page. */
export async function registerWorker() {
  if (!("serviceWorker" in navigator)) return null;
  try {
    return await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  } catch (error) {
    console.warn("the service worker was not registered:", error);
    return null;
  }
}

function pushSupported() {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

function chosenKinds() {
  try {
    const kinds = JSON.parse(localStorage.getItem(KINDS_KEY) || "[]");
    return KINDS.filter((kind) => kinds.includes(kind));
  } catch {
    return [];
  }
}

/** The seats this browser holds, the latest tables first, as the server takes them. */
function seatTokens() {
  const seats = heldTables().flatMap((code) => heldSeats(code).map(({ token }) => ({ code, token })));
  return seats.slice(0, SEATS_PER_REQUEST);
}

function b64urlBytes(text) {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4);
  return Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
}

/** This device's push subscription, made now if it has none. */
async function subscription() {
  const registration = await navigator.serviceWorker.ready;
  const existing = await registration.pushManager.getSubscription();
  if (existing) return existing;
  const { key } = await getJson("/api/push/key");
  return registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: b64urlBytes(key) });
}

/** The table page's "Notify me": a box per kind, for this device. */
export class NotifyControl {
  constructor() {
    this.boxes = Object.fromEntries(
      KINDS.map((kind) => [kind, h("input", { type: "checkbox", "data-testid": `notify-${kind}`, checked: chosenKinds().includes(kind), on: { change: () => this.change() } })]),
    );
    this.status = h("p", { class: "muted", "data-testid": "notify-status", "aria-live": "polite" });
    this.element = h(
      "details",
      { class: "notify", "data-testid": "notify", on: { toggle: () => this.show() } },
      h("summary", { i18n: "notify_title" }),
      h("p", { class: "muted", i18n: "notify_help" }),
      h("div", { class: "notify-kinds" }, ...KINDS.map((kind) => h("label", {}, this.boxes[kind], " ", h("span", { i18n: `notify_${kind}` })))),
      this.status,
    );
    this.show();
    if (chosenKinds().length && pushSupported() && Notification.permission === "granted") this.send(chosenKinds());
  }

  /** Say what this device gets, or why it cannot. */
  show(key = null) {
    const supported = pushSupported();
    // A seat taken since the page opened counts; signed in, the account's seats do.
    const heard = seatTokens().length > 0 || currentAccount() !== null;
    for (const box of Object.values(this.boxes)) box.disabled = !supported || !heard;
    const state = key ?? (!supported ? "notify_unsupported" : !heard ? "notify_no_seat" : chosenKinds().length ? "notify_on" : "notify_off");
    setText(this.status, state);
    this.element.dataset.state = state;
  }

  async change() {
    const kinds = KINDS.filter((kind) => this.boxes[kind].checked);
    if (kinds.length && (await Notification.requestPermission()) !== "granted") {
      for (const box of Object.values(this.boxes)) box.checked = false;
      this.show("notify_denied");
      return;
    }
    await this.send(kinds);
  }

  /** Tell the server which kinds this device wants (none: forget it). */
  async send(kinds) {
    try {
      const device = await subscription();
      if (kinds.length) {
        const { csrf } = currentAccount() ? await getJson("/api/account") : {};
        const headers = csrf ? { "X-CSRF-Token": csrf } : {};
        await postJson("/api/push/subscriptions", { subscription: device.toJSON(), kinds, seats: seatTokens(), lang: chosenLanguage() }, headers);
      } else {
        await deleteJson("/api/push/subscriptions", { endpoint: device.endpoint, auth: device.toJSON().keys.auth });
        await device.unsubscribe();
      }
      localStorage.setItem(KINDS_KEY, JSON.stringify(kinds));
      this.show();
    } catch (error) {
      console.warn("push subscription failed:", error instanceof ApiError ? error.code : error);
      this.show("notify_failed");
    }
  }
}
