// Accounts (PROTOCOL.md, "Accounts"): optional. The header's link, the seats an account
// keeps (copied into this browser's, so that "Your games" shows them on every device),
// and the page /account: sign in or up with a passkey or a password, then the profile.
//
// Every change sends the sign-in's CSRF token (`X-CSRF-Token`), which GET /api/account
// gives the page; the sign-in itself is an HttpOnly cookie no script here reads.

import { ApiError, heldSeats, heldTables, holdSeat, releaseSeat } from "./api.js";
import { h, keepingFocus, onSubmit, setText, t, toast } from "./dom.js";
import { toastRefusal } from "./errors.js";
import { LANGUAGES, setLanguage } from "./i18n.js";
import { FRIENDS_EVERY_MS, FriendsCard, ownProfile, profileCards } from "./profile.js";

let account = null;
let csrf = "-";

/** Send `body` to the account API; the answer's JSON (an ApiError when refused). */
async function send(method, path, body = {}) {
  let response;
  try {
    response = await fetch(path, { method, headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf }, body: JSON.stringify(body) });
  } catch {
    throw new ApiError(0, { code: "network" });
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, data?.error ?? {});
  if (data && "account" in data) signedIn(data);
  return data;
}

/** The account signed in on this page, or null. */
export function currentAccount() {
  return account;
}

function signedIn(data) {
  account = data.account;
  csrf = data.csrf ?? "-";
  showInHeader();
}

function showInHeader() {
  const link = document.querySelector("[data-testid=account-link]");
  if (!link) return;
  if (account) {
    delete link.dataset.i18n;
    link.textContent = account.name;
  } else if (!link.dataset.i18n) setText(link, "account_link");
}

/**
 * Who is signed in here, and the account's seats copied into this browser's: called
 * before a page draws, so that "Your games" lists them.
 */
export async function loadAccount() {
  try {
    const answer = await fetch("/api/account").then((response) => response.json());
    signedIn(answer);
    if (account) for (const { code, seat, token } of await accountSeats()) holdSeat(code, seat, token);
  } catch {
    // Without the account the page works as it does for everyone.
  }
}

async function accountSeats() {
  const answer = await fetch("/api/account/seats").then((response) => response.json());
  return answer.seats ?? [];
}

/** The seats this browser holds, moved into the account: how many moved and didn't. */
async function moveSeats() {
  const seats = heldTables().flatMap((code) => heldSeats(code).map(({ seat, token }) => ({ code, seat, token })));
  if (!seats.length) return;
  const answer = await send("POST", "/api/account/seats", { seats: seats.slice(0, 100) });
  if (answer.moved.length) toast(t("account_moved", { count: answer.moved.length }));
  if (answer.refused.length) toast(t("account_not_moved", { count: answer.refused.length }), "error");
}

// --- passkeys: WebAuthn's options and answers as JSON (base64url for every buffer) ---------

function fromBase64url(text) {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4)), (c) => c.charCodeAt(0)).buffer;
}

function toBase64url(buffer) {
  return btoa(String.fromCharCode(...new Uint8Array(buffer))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function withBuffers(options) {
  const ids = (list) => (list ?? []).map((item) => ({ ...item, id: fromBase64url(item.id) }));
  const made = { ...options, challenge: fromBase64url(options.challenge) };
  if (options.user) made.user = { ...options.user, id: fromBase64url(options.user.id) };
  if (options.excludeCredentials) made.excludeCredentials = ids(options.excludeCredentials);
  if (options.allowCredentials) made.allowCredentials = ids(options.allowCredentials);
  return made;
}

function credentialJson(credential) {
  const answer = credential.response;
  const response = { clientDataJSON: toBase64url(answer.clientDataJSON) };
  if (answer.attestationObject) {
    response.attestationObject = toBase64url(answer.attestationObject);
    response.transports = answer.getTransports?.() ?? [];
  } else {
    response.authenticatorData = toBase64url(answer.authenticatorData);
    response.signature = toBase64url(answer.signature);
    if (answer.userHandle) response.userHandle = toBase64url(answer.userHandle);
  }
  return { id: credential.id, rawId: toBase64url(credential.rawId), type: credential.type, response, clientExtensionResults: credential.getClientExtensionResults?.() ?? {} };
}

/** One WebAuthn ceremony: the server's options, the browser's passkey, the server's answer. */
async function ceremony(optionsPath, answerPath, optionsBody, make) {
  const { ceremony: id, publicKey } = await send("POST", optionsPath, optionsBody);
  let credential;
  try {
    credential = await make({ publicKey: withBuffers(publicKey) });
  } catch (error) {
    throw new ApiError(0, { code: "passkey_failed", message: String(error?.message ?? error) });
  }
  return send("POST", answerPath, { ceremony: id, credential: credentialJson(credential) });
}

const createPasskey = (body) => ceremony("/api/account/passkeys/options", "/api/account/passkeys", body, (options) => navigator.credentials.create(options));
const usePasskey = () => ceremony("/api/account/passkey-sign-in/options", "/api/account/passkey-sign-in", {}, (options) => navigator.credentials.get(options));

// --- the page ----------------------------------------------------------------------------

function complain(error) {
  if (error.code === "passkey_failed") toast(t("account_passkey_failed"), "error", error.message);
  else if (error.field === "password") toast(t("account_password_rule"), "error", error.message);
  else toastRefusal(error);
}

export class AccountPage {
  constructor(root) {
    this.root = root;
    this.moveOnSignIn = true;
    this.confirmDelete = false;
    this.friends = new FriendsCard(send, (change) => this.act(change));
    this.ownProfile = null;
  }

  async start() {
    await this.loadProfile();
    this.render();
    // Friends come and go online: their card is asked for again while the page is open.
    setInterval(() => this.refreshFriends(), FRIENDS_EVERY_MS);
  }

  /** The account's friends and its own profile, when signed in. */
  async loadProfile() {
    if (!account) return;
    try {
      [this.ownProfile] = await Promise.all([ownProfile(), this.friends.load()]);
    } catch (error) {
      complain(error);
    }
  }

  async refreshFriends() {
    const card = this.root.querySelector("[data-testid=friends]");
    if (!account || !card) return;
    await this.friends.load().catch(() => null);
    keepingFocus(card.parentElement, () => card.replaceWith(this.friends.render()));
  }

  render() {
    keepingFocus(this.root, () => this.root.replaceChildren(h("section", { class: "account-page", "data-testid": "account-page" }, ...(account ? this.profile() : this.signIn()))));
  }

  /** Run a change; redraw after it, or say why it was refused. */
  async act(change) {
    try {
      await change();
    } catch (error) {
      complain(error);
    }
    this.render();
  }

  async afterSignIn() {
    if (this.moveOnSignIn) await moveSeats();
    for (const { code, seat, token } of await accountSeats()) holdSeat(code, seat, token);
    toast(t("account_welcome", { name: account.name }));
    await this.loadProfile();
  }

  signIn() {
    const field = (key, attributes) => h("label", { class: "field" }, h("span", { i18n: key }), h("input", attributes));
    const name = { type: "text", name: "name", required: true, maxlength: 24, autocomplete: "username" };
    const signInName = field("account_name", { ...name, "data-testid": "sign-in-name" });
    const signInPassword = field("account_password", { type: "password", name: "password", required: true, autocomplete: "current-password", "data-testid": "sign-in-password" });
    const newName = field("account_name", { ...name, "data-testid": "new-name" });
    const newPassword = field("account_password", { type: "password", name: "password", minlength: 8, autocomplete: "new-password", "data-testid": "new-password", i18nAttrs: { placeholder: "account_password_rule" } });
    const value = (label) => label.querySelector("input").value;
    return [
      h("h1", { i18n: "account_title" }),
      h("p", { class: "muted", i18n: "account_about" }),
      h(
        "div",
        { class: "account-columns" },
        h(
          "div",
          { class: "card" },
          h("h2", { i18n: "account_sign_in" }),
          h("button", { type: "button", class: "primary", "data-testid": "passkey-sign-in", i18n: "account_passkey_sign_in", on: { click: () => this.act(async () => (await usePasskey(), await this.afterSignIn())) } }),
          h("p", { class: "muted", i18n: "account_or_password" }),
          h(
            "form",
            { class: "account-form", on: onSubmit(() => this.act(async () => (await send("POST", "/api/account/sign-in", { name: value(signInName), password: value(signInPassword) }), await this.afterSignIn()))) },
            signInName,
            signInPassword,
            h("button", { type: "submit", "data-testid": "password-sign-in", i18n: "account_password_sign_in" }),
          ),
          h("label", { class: "field check" }, h("input", { type: "checkbox", checked: this.moveOnSignIn, "data-testid": "move-seats", on: { change: (event) => (this.moveOnSignIn = event.target.checked) } }), h("span", { i18n: "account_move_seats" })),
        ),
        h(
          "form",
          {
            class: "card account-form",
            // Enter in the password's field means the password, though the passkey's button comes first.
            on: onSubmit((event) => this.signUp(event.submitter?.dataset.testid === "password-sign-up" || document.activeElement === newPassword.querySelector("input"), value(newName), value(newPassword))),
          },
          h("h2", { i18n: "account_new" }),
          newName,
          h("button", { type: "submit", class: "primary", "data-testid": "passkey-sign-up", i18n: "account_passkey_sign_up" }),
          h("p", { class: "muted", i18n: "account_or_password" }),
          newPassword,
          h("button", { type: "submit", "data-testid": "password-sign-up", i18n: "account_password_sign_up" }),
        ),
      ),
    ];
  }

  signUp(withPassword, name, password) {
    const language = document.documentElement.lang || "en";
    this.act(async () => {
      if (withPassword) await send("POST", "/api/account/sign-up", { name, password, language });
      else await createPasskey({ name, language });
      await this.afterSignIn();
    });
  }

  profile() {
    const nameInput = h("input", { type: "text", value: account.name, required: true, maxlength: 24, autocomplete: "username", "data-testid": "profile-name" });
    const languageSelect = h("select", { "data-testid": "profile-language" }, ...Object.entries(LANGUAGES).map(([code, label]) => h("option", { value: code, selected: code === account.language }, label)));
    const passwordInput = h("input", { type: "password", minlength: 8, required: true, autocomplete: "new-password", "data-testid": "profile-password", i18nAttrs: { placeholder: "account_password_rule" } });
    return [
      h("h1", { i18n: ["account_signed_in", { name: account.name }], "data-testid": "signed-in-as" }),
      h(
        "div",
        { class: "account-columns" },
        h(
          "form",
          {
            class: "card account-form",
            on: onSubmit(() =>
              this.act(async () => {
                await send("PATCH", "/api/account", { name: nameInput.value, language: languageSelect.value });
                if (account.language !== document.documentElement.lang) setLanguage(account.language);
                toast(t("account_saved"));
              }),
            ),
          },
          h("h2", { i18n: "account_profile" }),
          h("label", { class: "field" }, h("span", { i18n: "account_name" }), nameInput),
          h("label", { class: "field" }, h("span", { i18n: "account_language" }), languageSelect),
          h("button", { type: "submit", class: "primary", "data-testid": "profile-save", i18n: "account_save" }),
        ),
        h(
          "div",
          { class: "card" },
          h("h2", { i18n: "account_passkeys" }),
          account.passkeys.length
            ? h("ul", { class: "passkeys" }, ...account.passkeys.map((key) => h("li", { "data-testid": "passkey" }, h("span", { i18n: ["account_passkey_added", { date: new Date(key.created_at * 1000).toLocaleDateString(document.documentElement.lang) }] }), h("button", { type: "button", i18n: "account_remove", on: { click: () => this.act(() => send("DELETE", `/api/account/passkeys/${encodeURIComponent(key.id)}`)) } }))))
            : h("p", { class: "muted", i18n: "account_no_passkeys" }),
          h("button", { type: "button", class: "primary", "data-testid": "add-passkey", i18n: "account_add_passkey", on: { click: () => this.act(() => createPasskey({})) } }),
          h("form", { class: "account-form", on: onSubmit(() => this.act(async () => (await send("POST", "/api/account/password", { password: passwordInput.value }), toast(t("account_saved"))))) }, h("label", { class: "field" }, h("span", { i18n: "account_password" }), passwordInput), h("button", { type: "submit", "data-testid": "set-password", i18n: "account_set_password" })),
        ),
        h(
          "div",
          { class: "card" },
          h("h2", { i18n: "account_games" }),
          h("p", { class: "muted", i18n: "account_games_about" }),
          h("button", { type: "button", "data-testid": "move-seats-now", i18n: "account_move_now", on: { click: () => this.act(moveSeats) } }),
          h("div", { class: "account-actions" }, h("button", { type: "button", "data-testid": "sign-out", i18n: "account_sign_out", on: { click: () => this.signOut(false) } }), h("button", { type: "button", "data-testid": "sign-out-everywhere", i18n: "account_sign_out_everywhere", on: { click: () => this.signOut(true) } })),
          h("a", { class: "button", href: "/api/account/export", download: "triominos-account.json", "data-testid": "export", i18n: "account_export" }),
          this.confirmDelete
            ? h("button", { type: "button", class: "primary danger", "data-testid": "delete-confirm", i18n: "account_delete_confirm", on: { click: () => this.act(async () => (await send("DELETE", "/api/account"), toast(t("account_deleted")))) } })
            : h("button", { type: "button", "data-testid": "delete", i18n: "account_delete", on: { click: () => this.askToDelete() } }),
        ),
        this.friends.render(),
        ...(this.ownProfile ? profileCards(this.ownProfile.profile, this.ownProfile.presets) : []),
      ),
      h("p", {}, h("a", { href: `/players/${encodeURIComponent(account.name)}`, "data-testid": "public-profile", i18n: "profile_public" })),
    ];
  }

  /** Show the button that deletes for good, and put the keyboard's focus on it. */
  askToDelete() {
    this.confirmDelete = true;
    this.render();
    this.root.querySelector("[data-testid=delete-confirm]").focus();
  }

  /** Sign out, and forget on this browser the seats the account brought here. */
  signOut(everywhere) {
    this.act(async () => {
      const kept = await accountSeats();
      await send("POST", "/api/account/sign-out", { everywhere });
      for (const { code, seat } of kept) releaseSeat(code, seat);
    });
  }
}
