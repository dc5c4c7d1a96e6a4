// The bot levels a seat may be given, and the names bots go by at a table.
//
// The server knows a bot by its engine ("greedy") and thinking time; people know it by a
// level ("Easy") and a friendly name, both in their language. A bot seat still called by
// its engine's name (the server's default) is shown by its level's name, numbered when
// two seats share one, so that two bots of one level can be told apart.

import { t } from "./dom.js";

/**
 * The levels offered for a seat, weakest first, as the server declares them
 * (`GET /api/bots`, from `triominos.bots.levels`): a level's id (its texts' key), its
 * bot, the bot's thinking time on the clock (null: none, or its `simulations` a move),
 * its Elo on the ladder of README's "Bot levels" (random at 0), each level at least 150
 * Elo above the one before. A table made when `sim` thought for a time (1 or 3 s a move)
 * shows that seat as the strong bot, the nearest level.
 */
const declared = await (await fetch("/api/bots")).json();
export const LEVELS = declared.levels;

/**
 * A level's strength in words, as a text key and its values: how many games in a few it
 * wins against the level below, from their Elo gap ("about 4 games in 5"); the lowest
 * level plays any tile that fits.
 */
export function strength(level) {
  const index = LEVELS.indexOf(level);
  if (index <= 0) return [`level_strength_${level.id}`, {}];
  const share = 1 / (1 + 10 ** ((LEVELS[index - 1].elo - level.elo) / 400));
  // The fewest games that say the share to within two points in a hundred.
  for (let games = 2; games < 10; games++) {
    const wins = Math.round(share * games);
    if (Math.abs(wins / games - share) <= 0.02) return [`level_strength_${level.id}`, { wins, games }];
  }
  return [`level_strength_${level.id}`, { wins: Math.round(share * 10), games: 10 }];
}

/** The level a new bot seat gets unless the player picks another. */
export const DEFAULT_LEVEL = declared.default;

/** The level of a bot seat: the one with its engine and, among those, the nearest thinking time. */
export function levelOf(seat) {
  const same = LEVELS.filter((level) => level.bot === seat.bot);
  if (!same.length) return null;
  const think = seat.think ?? 0;
  return same.reduce((best, level) => (Math.abs((level.think ?? 0) - think) < Math.abs((best.think ?? 0) - think) ? level : best));
}

/** Each seat's name as shown: a person's own, a bot's friendly one, or "Seat N". */
export function seatNames(seats) {
  const counts = new Map();
  const named = seats.map((seat, index) => {
    const level = seat.kind === "bot" && (!seat.name || seat.name === seat.bot) ? levelOf(seat) : null;
    if (!level) return seat.name || t("seat_n", { number: index + 1 });
    const name = t(`bot_name_${level.id}`);
    counts.set(name, (counts.get(name) ?? 0) + 1);
    return { name, number: counts.get(name) };
  });
  return named.map((each) => (typeof each === "string" ? each : counts.get(each.name) > 1 ? `${each.name} ${each.number}` : each.name));
}
