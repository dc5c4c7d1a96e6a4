// Ratings (docs/ratings.md): /ratings, the leaderboard of a pool (edition, player count,
// against people or bots), each name linked to its player page; and what the player page
// (profile.js) shows of a player's ratings: each pool's rating, and the graph of their
// history with the same points as a table. Everything comes from GET /api/ratings/... and
// /api/players/... (PROTOCOL.md, "Ratings"); the editions are named as the home page
// names them (the box's own preset).

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
export function ratingText(entry) {
  return t(entry.provisional ? "ratings_value_provisional" : "ratings_value", { rating: entry.rating, deviation: entry.deviation });
}

/** The presets of /api/presets, their option texts in use: what names the editions. */
export async function loadPresets() {
  const presets = await getJson("/api/presets");
  useRuleTexts(presets.rule_texts);
  return presets.presets;
}

/** An edition as the home page names its box's own preset: "Classic (56 tiles)". */
export function editionText(presets, edition) {
  const preset = presets.find((found) => found.name === edition);
  return preset ? editionName(preset) : edition;
}

/** A pool's name: "Classic (56 tiles), 2 players", "…, with bots". */
export function poolName(presets, pool) {
  const edition = editionText(presets, pool.edition);
  return t(pool.against === "bots" ? "ratings_pool_bots" : "ratings_pool", { edition, players: pool.players });
}

/**
 * A player's rating history (`ratings`, `history` of GET /api/players/{name}): the graph
 * of the rating after each rated match, one line a pool in the colours of the seats, the
 * matches numbered across, the rating up; its legend; and the same points as a table
 * (a screen reader's way through them, and anyone's exact figures), folded away.
 */
export function ratingHistory(presets, ratings, history) {
  const pools = ratings.map((entry) => entry.pool.key);
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
  const label = (text, attributes) => (svgElement("text", { class: "tick-label", "aria-hidden": "true", ...attributes }, svg).textContent = text);
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
    { class: "graph-legend", "aria-hidden": "true" }, // the table says which pool each point is
    ...ratings.map((entry, index) => {
      const swatch = svgElement("svg", { viewBox: "0 0 16 12", width: 16, height: 12 });
      svgElement("line", { class: `line seat-${index % 6}`, x1: 1, x2: 15, y1: 6, y2: 6 }, swatch);
      return h("li", {}, swatch, poolName(presets, entry.pool));
    }),
  );
  const names = new Map(ratings.map((entry) => [entry.pool.key, poolName(presets, entry.pool)]));
  const day = new Intl.DateTimeFormat(document.documentElement.lang || "en", { dateStyle: "medium" });
  const table = h(
    "details",
    { class: "rating-points", "data-testid": "rating-table" },
    h("summary", { i18n: "ratings_history_table" }),
    h(
      "div",
      { class: "table-scroll" },
      h(
        "table",
        { class: "ratings-table" },
        h("thead", {}, h("tr", {}, ...["ratings_history_match", "ratings_history_pool", "ratings_rating", "ratings_history_date", "replay"].map((key) => h("th", { scope: "col", i18n: key })))),
        h(
          "tbody",
          {},
          ...history.map((point, at) =>
            h(
              "tr",
              { "data-testid": "rating-point" },
              h("td", { class: "number" }, number(at + 1)),
              h("td", {}, names.get(point.pool) ?? point.pool),
              h("td", { class: "number" }, t("ratings_value", point)),
              h("td", {}, day.format(new Date(point.played_at * 1000))),
              h("td", {}, h("a", { href: `/t/${encodeURIComponent(point.table)}?replay=1` }, point.table)),
            ),
          ),
        ),
      ),
    ),
  );
  return h("figure", { class: "analysis-figure" }, svg, legend, table);
}

/** The page /ratings: a pool's leaderboard, the pool chosen by the query or the selects. */
export class RatingsPage {
  constructor(root) {
    this.root = root;
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
      this.presets = await loadPresets();
      await this.load();
    } catch (error) {
      toastRefusal(error);
    }
  }

  async load() {
    const { edition, players, against } = this.pool;
    this.answer = await getJson(`/api/ratings/leaderboard?edition=${edition}&players=${players}&against=${against}`);
    this.render();
  }

  render() {
    if (!this.answer) return;
    this.root.replaceChildren(this.leaderboardCard());
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
    const editions = EDITIONS.map((edition) => [edition, editionText(this.presets, edition)]);
    const rows = this.answer.players.map((entry) =>
      h(
        "tr",
        { "data-testid": "ratings-row" },
        h("td", {}, number(entry.rank)),
        // a deleted account keeps its place under the neutral name, and has no page
        h("td", {}, entry.page ? h("a", { href: entry.page }, entry.name) : entry.name),
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
}
