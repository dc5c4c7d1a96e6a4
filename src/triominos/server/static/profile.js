// A player's profile and friends (PROTOCOL.md, "Profile and friends"): the statistics by
// edition and the finished games with their replays, drawn the same on the account page
// and on a player's public page (/players/{name}, which adds the language and the ratings
// with their history); and the account page's friends card.

import { heldTables } from "./api.js";
import { h, onSubmit, t, toast } from "./dom.js";
import { editionText, loadPresets, poolName, ratingHistory, ratingText } from "./ratings.js";
import { languageName } from "./rule_form.js";

const STATS = ["matches", "win_rate", "points_a_hand", "bonuses", "best_hand"];
export const FRIENDS_EVERY_MS = 60_000;

async function json(path) {
  const response = await fetch(path);
  const data = await response.json().catch(() => null);
  if (!response.ok) throw Object.assign(new Error(data?.error?.message ?? response.statusText), { status: response.status });
  return data;
}

/** A profile's edition (a preset's name, or "custom"), as the home page names it. */
function editionLabel(presets, edition) {
  return edition === "custom" ? t("house_rules") : editionText(presets, edition);
}

/** The statistics by edition and the finished games of a profile's answer; `presets`
 * (GET /api/presets) name the editions. */
export function profileCards(profile, presets) {
  const editions = Object.entries(profile.stats);
  const value = (stats, key) => (key === "win_rate" ? `${Math.round(stats[key] * 100)} %` : String(stats[key]));
  return [
    h(
      "div",
      { class: "card", "data-testid": "profile-stats" },
      h("h2", { i18n: "profile_stats" }),
      editions.length
        ? h(
            "table",
            { class: "profile-stats" },
            h("thead", {}, h("tr", {}, h("th", { i18n: "edition" }), ...STATS.map((key) => h("th", { i18n: `profile_${key}` })))),
            h("tbody", {}, ...editions.map(([edition, stats]) => h("tr", { "data-testid": "profile-edition" }, h("th", { text: editionLabel(presets, edition) }), ...STATS.map((key) => h("td", { text: value(stats, key) }))))),
          )
        : h("p", { class: "muted", i18n: "profile_no_games" }),
      profile.pending ? h("p", { class: "muted", i18n: ["profile_pending", { count: profile.pending }] }) : null,
    ),
    h(
      "div",
      { class: "card", "data-testid": "profile-games" },
      h("h2", { i18n: "profile_games" }),
      profile.games.length
        ? h(
            "ul",
            { class: "profile-games" },
            ...profile.games.map((game) =>
              h(
                "li",
                { "data-testid": "profile-game" },
                h("a", { href: game.replay, "data-testid": "replay-link" }, `${game.code} · ${editionLabel(presets, game.edition)}`),
                h("span", { i18n: game.won ? "profile_won" : "profile_lost" }),
                h("span", { class: "muted", text: game.players.map((name, seat) => `${name} ${game.scores[seat]}`).join(" – ") }),
              ),
            ),
          )
        : h("p", { class: "muted", i18n: "profile_no_games" }),
    ),
  ];
}

/** The signed-in account's own profile (its statistics and first page of games) and the
 * presets that name its editions. */
export async function ownProfile() {
  const [stats, games, presets] = await Promise.all([json("/api/account/stats"), json("/api/account/games"), loadPresets()]);
  return { profile: { ...stats, ...games }, presets };
}

/** The page /players/{name}: what anyone may see of a player. */
export class PlayerPage {
  constructor(root, name) {
    this.root = root;
    this.name = name;
    this.profile = null;
    this.presets = [];
    this.missing = false;
  }

  async start() {
    try {
      [this.profile, this.presets] = await Promise.all([json(`/api/players/${encodeURIComponent(this.name)}`), loadPresets()]);
    } catch {
      this.missing = true;
    }
    this.render();
  }

  render() {
    const profile = this.profile;
    const body = this.missing
      ? [h("h1", { i18n: "not_found" })]
      : profile
        ? [
            h("h1", { text: profile.name, "data-testid": "player-name" }),
            h("p", { class: "muted", "data-testid": "player-language", i18n: ["player_language", { language: languageName(profile.language) }] }),
            h("div", { class: "account-columns" }, this.ratingsCard(), ...profileCards(profile, this.presets)),
          ]
        : [];
    this.root.replaceChildren(h("section", { class: "account-page", "data-testid": "player-page" }, ...body));
  }

  /** Each pool's rating with its deviation, and the graph of their history. */
  ratingsCard() {
    const { ratings, history } = this.profile;
    return h(
      "div",
      { class: "card ratings", "data-testid": "player-ratings" },
      h("h2", { i18n: "ratings_title" }),
      ratings.length
        ? h("ul", { class: "ratings-pools" }, ...ratings.map((entry) => h("li", { "data-testid": "player-rating", i18n: ["ratings_in_pool", { pool: poolName(this.presets, entry.pool), rating: ratingText(entry) }] })))
        : h("p", { class: "muted", i18n: "ratings_no_games" }),
      ratings.some((entry) => entry.provisional) ? h("p", { class: "muted", i18n: "ratings_provisional_about" }) : null,
      history.length ? ratingHistory(this.presets, ratings, history) : null,
      h("a", { href: "/ratings", i18n: "ratings_leaderboard" }),
    );
  }
}

/**
 * The account page's friends card: add by name, friends with who is online, requests to
 * answer, invitations received (their table's link), an invitation to send, blocks.
 * `send(method, path, body)` is the account page's (it carries the CSRF token);
 * `act(change)` runs a change and redraws.
 */
export class FriendsCard {
  constructor(send, act) {
    this.send = send;
    this.act = act;
    this.friends = null;
    // Kept from one drawing to the next: a name being typed survives a refresh.
    this.nameInput = h("input", { type: "text", required: true, maxlength: 24, autocomplete: "off", "data-testid": "friend-name" });
  }

  async load() {
    this.friends = await json("/api/account/friends");
  }

  change(method, path, body) {
    return this.act(async () => {
      await this.send(method, path, body);
      await this.load();
    });
  }

  render() {
    const data = this.friends ?? { friends: [], asking: [], asked: [], blocked: [], invitations: [] };
    const nameInput = this.nameInput;
    const who = (name) => h("a", { href: `/players/${encodeURIComponent(name)}`, text: name });
    const button = (key, testid, click) => h("button", { type: "button", "data-testid": testid, i18n: key, on: { click } });
    const path = (kind, name) => `/api/account/${kind}/${encodeURIComponent(name)}`;
    const tables = heldTables();
    const friendSelect = h("select", { "data-testid": "invite-friend", i18nAttrs: { "aria-label": "friends_friend" } }, ...data.friends.map(({ name }) => h("option", { value: name, text: name })));
    const tableSelect = h("select", { "data-testid": "invite-table", i18nAttrs: { "aria-label": "friends_table" } }, ...tables.map((code) => h("option", { value: code, text: code })));
    return h(
      "div",
      { class: "card", "data-testid": "friends" },
      h("h2", { i18n: "friends_title" }),
      h(
        "form",
        { class: "account-form", on: onSubmit(() => this.change("POST", "/api/account/friends", { name: nameInput.value })) },
        h("label", { class: "field" }, h("span", { i18n: "friends_add_about" }), nameInput),
        h("div", { class: "account-actions" }, h("button", { type: "submit", class: "primary", "data-testid": "add-friend", i18n: "friends_add" }), button("friends_block", "block", () => this.change("POST", "/api/account/blocks", { name: nameInput.value }))),
      ),
      data.invitations.length
        ? h(
            "ul",
            { class: "friends", "aria-label": t("friends_invitations") },
            ...data.invitations.map((invitation) =>
              h("li", { "data-testid": "invitation" }, h("a", { href: invitation.link, "data-testid": "invitation-link", i18n: ["friends_invited", { name: invitation.from, code: invitation.code }] }), button("friends_dismiss", "dismiss", () => this.change("DELETE", `/api/account/invitations/${invitation.id}`))),
            ),
          )
        : null,
      ...data.asking.map((name) => h("p", { class: "friend", "data-testid": "asking" }, h("span", { i18n: ["friends_asks", { name }] }), button("friends_accept", "accept", () => this.change("POST", "/api/account/friends", { name })), button("friends_decline", "decline", () => this.change("DELETE", path("friends", name))))),
      data.friends.length
        ? h(
            "ul",
            { class: "friends" },
            ...data.friends.map(({ name, online }) => h("li", { "data-testid": "friend", dataset: { online: String(online) } }, h("span", { class: online ? "online" : "offline", i18n: online ? "friends_online" : "friends_offline" }), who(name), button("friends_remove", "unfriend", () => this.change("DELETE", path("friends", name))))),
          )
        : h("p", { class: "muted", i18n: "friends_none" }),
      ...data.asked.map((name) => h("p", { class: "friend muted", "data-testid": "asked" }, h("span", { i18n: ["friends_waiting", { name }] }), button("friends_cancel", "cancel", () => this.change("DELETE", path("friends", name))))),
      data.friends.length && tables.length
        ? h(
            "form",
            { class: "account-form", on: onSubmit(() => this.act(async () => (await this.send("POST", "/api/account/invitations", { name: friendSelect.value, code: tableSelect.value }), toast(t("friends_invitation_sent"))))) },
            h("h3", { i18n: "friends_invite" }),
            friendSelect,
            tableSelect,
            h("button", { type: "submit", "data-testid": "invite", i18n: "friends_invite_send" }),
          )
        : null,
      ...data.blocked.map((name) => h("p", { class: "friend muted", "data-testid": "blocked" }, h("span", { i18n: ["friends_blocked", { name }] }), button("friends_unblock", "unblock", () => this.change("DELETE", path("blocks", name))))),
    );
  }
}
