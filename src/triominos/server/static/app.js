// The page's entry: the language, the header, and which page the address shows.
//
//   /            the home page (start, join, open tables)
//   /t/{code}    a table: play or watch it; with ?replay=1 the replay of a finished match
//   /puzzles     puzzles: the next one, /puzzles/daily the puzzle of the day, /puzzles/{id}
//   /learn       learn to play: the lessons, /learn/{edition} one of them
//   /rules       the rules: the editions, /rules/{preset} one of them
//   /account     sign in or up (optional), then the account's profile and friends
//   /players/{name}  a player's public profile
//   /ratings     the leaderboard of a pool (the server moves /ratings/{id} to /players/{name})

import { AccountPage, loadAccount } from "./account.js";
import { h, speak } from "./dom.js";
import { HomePage } from "./home.js";
import { LearnPage } from "./learn.js";
import { PlayerPage } from "./profile.js";
import { PuzzlePage } from "./puzzle.js";
import { RatingsPage } from "./ratings.js";
import { registerWorker } from "./push.js";
import { ReplayPage } from "./replay.js";
import { RulesPage } from "./rules_page.js";
import { TablePage } from "./table.js";

const LOCALES = "/static/locales";

function pageFor(root) {
  const table = location.pathname.match(/^\/t\/([A-Za-z0-9_-]+)\/?$/);
  if (table) {
    const code = decodeURIComponent(table[1]).toUpperCase();
    return new URLSearchParams(location.search).has("replay") ? new ReplayPage(root, code) : new TablePage(root, code);
  }
  const puzzle = location.pathname.match(/^\/puzzles(?:\/([A-Za-z0-9_-]+))?\/?$/);
  if (puzzle) return new PuzzlePage(root, puzzle[1] ? decodeURIComponent(puzzle[1]) : "next");
  const learn = location.pathname.match(/^\/learn(?:\/([a-z-]+))?\/?$/);
  if (learn) return new LearnPage(root, learn[1] ?? null);
  const rules = location.pathname.match(/^\/rules(?:\/([A-Za-z0-9_-]+))?\/?$/);
  if (rules) return new RulesPage(root, rules[1] ?? null);
  if (location.pathname.replace(/\/$/, "") === "/account") return new AccountPage(root);
  if (location.pathname.replace(/\/$/, "") === "/ratings") return new RatingsPage(root);
  const player = location.pathname.match(/^\/players\/([^/]+)\/?$/);
  if (player) return new PlayerPage(root, decodeURIComponent(player[1]));
  if (location.pathname === "/" || location.pathname === "/index.html") return new HomePage(root);
  root.replaceChildren(h("section", { class: "card narrow" }, h("h1", { i18n: "not_found" }), h("a", { class: "button primary", href: "/", i18n: "back_home" })));
  return null;
}

/** Refresh what a page draws itself (texts made from messages at drawing time). */
function redraw(page) {
  if (page instanceof ReplayPage && page.steps) page.go(page.at);
  else if (page instanceof TablePage || page instanceof PuzzlePage || page instanceof LearnPage || page instanceof RulesPage || page instanceof AccountPage || page instanceof PlayerPage || page instanceof RatingsPage) page.render();
  else if (page instanceof HomePage && page.presets.length) page.render();
}

async function main() {
  registerWorker(); // offline page and push notices; the page never waits for it
  let page = null;
  await Promise.all([speak(LOCALES, () => redraw(page)), loadAccount()]);
  page = pageFor(document.getElementById("app"));
  await page?.start();
}

main();
