// Ratings (docs/ratings.md): /ratings, the leaderboard of a pool (edition, player count,
// against people or bots), and /ratings/{player}, a player's ratings with the graph of
// their history. Everything comes from GET /api/ratings/... (PROTOCOL.md, "Ratings");
// the editions are named as the home page names them (the box's own preset).

import { ticks } from "./analysis.js";
import { getJson } from "./api.js";
import { h, number, t } from "./dom.js";
import { toastRefusal } from "./errors.js";
import { editionName, useRuleTexts } from "./rule_form.js";
import { svgElement } from "./tiles.js";

const EDITIONS = ["classic", "extended", "junior"];
const PLAYER_COUNTS = [2, 3, 4, 5, 6];
const AGAINST = ["people", "bots"];

/** The graph's size in its own units, and the room its axes' labels take (as analysis.js's). */
const GRAPH = { width: 360, height: 190, left: 40, right: 8, top: 16, bottom: 22 };

/** A rating as shown: "1662 ± 290", with "?" when provisional. */
function ratingText(entry) {
  return t(entry.provisional ? "ratings_value_provisional" : "ratings_value", { rating: entry.rating, deviation: entry.deviation });
}

export class RatingsPage {
  /** @param {string | null} player  an account id, or null for the leaderboard */
  constructor(root, player) {
    this.root = root;
    this.player = player;
    const query = new URLSearchParams(location.search);
    this.pool = {
      edition: EDITIONS.includes(query.get("edition")) ? query.get("edition") : EDITIONS[0],
      players: PLAYER_COUNTS.includes(Number(query.get("players"))) ? Number(query.get("players")) : 2,
      against: AGAINST.includes(query.get("against")) ? query.get("against") : AGAINST[0],
    };
    this.presets = [];
    this.answer = null;
  }

  async start() {
    try {
      const presets = await getJson("/api/presets");
      useRuleTexts(presets.rule_texts);
      this.presets = presets.presets;
      await this.load();
    } catch (error) {
      toastRefusal(error);
    }
  }

  async load() {
    const { edition, players, against } = this.pool;
    this.answer = this.player
      ? await getJson(`/api/ratings/${encodeURIComponent(this.player)}`)
      : await getJson(`/api/ratings/leaderboard?edition=${edition}&players=${players}&against=${against}`);
    this.render();
  }

  /** An edition as the home page names its box's own preset: "Classic (56 tiles)". */
  editionText(edition) {
    const preset = this.presets.find((found) => found.name === edition);
    return preset ? editionName(preset) : edition;
  }

  poolName(pool) {
    const edition = this.editionText(pool.edition);
    return t(pool.against === "bots" ? "ratings_pool_bots" : "ratings_pool", { edition, players: pool.players });
  }

  render() {
    if (!this.answer) return;
    this.root.replaceChildren(this.player ? this.playerCard() : this.leaderboardCard());
  }

  leaderboardCard() {
    const select = (name, values, label) =>
      h(
        "label",
        {},
        label,
        h(
          "select",
          { name, "data-testid": `ratings-${name}`, on: { change: (event) => this.choose(name, event.target.value) } },
          ...values.map(([value, text]) => h("option", { value, selected: String(this.pool[name]) === String(value) }, text)),
        ),
      );
    const editions = EDITIONS.map((edition) => [edition, this.editionText(edition)]);
    const rows = this.answer.players.map((entry) =>
      h(
        "tr",
        { "data-testid": "ratings-row" },
        h("td", {}, number(entry.rank)),
        h("td", {}, h("a", { href: `/ratings/${encodeURIComponent(entry.player)}` }, entry.name)),
        h("td", { class: "number" }, ratingText(entry)),
        h("td", { class: "number" }, number(entry.games)),
      ),
    );
    return h(
      "section",
      { class: "card ratings" },
      h("h1", { i18n: "ratings_title" }),
      h(
        "div",
        { class: "ratings-pool" },
        select("edition", editions, t("edition")),
        select("players", PLAYER_COUNTS.map((count) => [count, number(count)]), t("players")),
        select("against", AGAINST.map((value) => [value, t(`ratings_against_${value}`)]), t("ratings_against")),
      ),
      h("p", { class: "muted" }, t("ratings_active", { days: this.answer.active_days, deviation: this.answer.provisional_deviation })),
      rows.length
        ? h(
            "table",
            { class: "ratings-table", "data-testid": "leaderboard" },
            h("thead", {}, h("tr", {}, h("th", { i18n: "ratings_rank" }), h("th", { i18n: "ratings_player" }), h("th", { i18n: "ratings_rating" }), h("th", { i18n: "ratings_games" }))),
            h("tbody", {}, ...rows),
          )
        : h("p", { "data-testid": "leaderboard-empty", i18n: "ratings_none" }),
    );
  }

  async choose(name, value) {
    this.pool[name] = name === "players" ? Number(value) : value;
    history.replaceState(null, "", `/ratings?${new URLSearchParams(this.pool)}`);
    try {
      await this.load();
    } catch (error) {
      toastRefusal(error);
    }
  }

  playerCard() {
    const { ratings, history } = this.answer;
    return h(
      "section",
      { class: "card ratings" },
      h("h1", { i18n: ["ratings_player_title", { player: this.answer.name }] }),
      ratings.length
        ? h(
            "ul",
            { class: "ratings-pools", "data-testid": "player-ratings" },
            ...ratings.map((entry) => h("li", {}, `${this.poolName(entry.pool)}: ${ratingText(entry)}`)),
          )
        : h("p", { i18n: "ratings_no_games" }),
      history.length ? this.historyGraph(ratings.map((entry) => entry.pool.key), history) : null,
      h("a", { class: "button", href: "/ratings", i18n: "ratings_leaderboard" }),
    );
  }

  /**
   * The rating after each rated match, one line a pool (in the colours of the seats),
   * the matches numbered across, the rating up; with its legend below.
   */
  historyGraph(pools, history) {
    const values = history.map((point) => point.rating);
    const yTicks = ticks(Math.min(...values) - 50, Math.max(...values) + 50, 4);
    const low = Math.min(...values, yTicks[0]);
    const high = Math.max(...values, yTicks[yTicks.length - 1]);
    const right = GRAPH.width - GRAPH.right;
    const bottom = GRAPH.height - GRAPH.bottom;
    const x = (index) => GRAPH.left + (index / Math.max(1, history.length - 1)) * (right - GRAPH.left);
    const y = (value) => bottom - ((value - low) / Math.max(1, high - low)) * (bottom - GRAPH.top);
    const svg = svgElement("svg", { viewBox: `0 0 ${GRAPH.width} ${GRAPH.height}`, class: "analysis-graph", "data-testid": "rating-graph", role: "img" });
    svgElement("title", {}, svg).textContent = t("ratings_graph");
    const label = (text, attributes) => (svgElement("text", { class: "tick-label", ...attributes }, svg).textContent = text);
    for (const value of yTicks) {
      svgElement("line", { class: "grid", x1: GRAPH.left, x2: right, y1: y(value), y2: y(value) }, svg);
      label(number(value), { x: GRAPH.left - 4, y: y(value) + 3.5, "text-anchor": "end" });
    }
    svgElement("line", { class: "axis", x1: GRAPH.left, x2: GRAPH.left, y1: GRAPH.top, y2: bottom }, svg);
    svgElement("line", { class: "axis", x1: GRAPH.left, x2: right, y1: bottom, y2: bottom }, svg);
    for (const count of ticks(1, history.length, 6)) label(number(count), { x: x(count - 1), y: bottom + 13, "text-anchor": "middle" });
    label(t("ratings_graph_matches"), { x: right, y: GRAPH.height - 1, "text-anchor": "end" });
    pools.forEach((pool, index) => {
      const points = history.flatMap((point, at) => (point.pool === pool ? [`${x(at).toFixed(1)},${y(point.rating).toFixed(1)}`] : []));
      svgElement("polyline", { class: `line seat-${index % 6}`, points: points.join(" "), "data-testid": "rating-line" }, svg);
      history.forEach((point, at) => {
        if (point.pool === pool) svgElement("circle", { class: `dot seat-${index % 6}`, cx: x(at), cy: y(point.rating), r: 2.5 }, svg);
      });
    });
    const legend = h(
      "ul",
      { class: "graph-legend" },
      ...this.answer.ratings.map((entry, index) => {
        const swatch = svgElement("svg", { viewBox: "0 0 16 12", width: 16, height: 12, "aria-hidden": "true" });
        svgElement("line", { class: `line seat-${index % 6}`, x1: 1, x2: 15, y1: 6, y2: 6 }, swatch);
        return h("li", {}, swatch, this.poolName(entry.pool));
      }),
    );
    return h("figure", { class: "analysis-figure" }, svg, legend);
  }
}
