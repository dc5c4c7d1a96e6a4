// How long a player has for their turn: minutes and seconds under a turn timer, hours or
// days in a game over days (RULES.md §13).

import { t } from "./dom.js";

const HOUR = 3600;
const DAY = 24 * HOUR;

/** `seconds` left as the clock shows it: "1:05", "5 h 12 min", "2 d 3 h". */
export function timeLeft(seconds) {
  if (seconds >= DAY) return t("duration_days", { days: Math.floor(seconds / DAY), hours: Math.floor((seconds % DAY) / HOUR) });
  if (seconds >= HOUR) return t("duration_hours", { hours: Math.floor(seconds / HOUR), minutes: Math.floor((seconds % HOUR) / 60) });
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}
