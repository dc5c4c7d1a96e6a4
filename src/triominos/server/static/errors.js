// What a refusal from the server says, in the player's language.
//
// The server refuses with a code (PROTOCOL.md), for `illegal` the name of the engine
// rule that was broken, and maybe the offending field (`options.<name>`, `players`,
// `seats.<i>.bot`, …); its `message` is English. The page shows the locale's text for
// those, and the English message only as a small detail for whoever wants to know more.

import { hasText, t, toast } from "./dom.js";

/**
 * The fields of a `bad_request` that have a text of their own, by the field's last or
 * else first part: `seats[1].name` is a name, `seats[1].kind` is about the seats.
 */
const FIELD_KEYS = {
  name: "error_name",
  bot: "error_bot",
  seat: "error_seat",
  seats: "error_seats",
  players: "error_players",
  preset: "error_preset",
};

/**
 * A refusal (an `ApiError`, or a WebSocket `error` message) as `{ text, detail }`: the
 * translated text and the server's English message. `optionLabels` maps a house rule
 * option to its label on the form (rule_form.js's `optionLabels`), so that a refused
 * house rule is named as the player saw it.
 */
export function describeRefusal(error, optionLabels = {}) {
  const detail = error.code === "network" ? "" : error.message || "";
  return { text: refusalText(error, optionLabels), detail };
}

/** Tell the player about a refusal, in a toast. */
export function toastRefusal(error, optionLabels = {}) {
  const { text, detail } = describeRefusal(error, optionLabels);
  toast(text, "error", detail);
}

function refusalText({ code, rule, field }, optionLabels) {
  if (code === "illegal" && hasText(`illegal_${rule}`)) return t(`illegal_${rule}`);
  const fieldName = String(field ?? "");
  if (fieldName.startsWith("options.")) {
    const option = fieldName.slice("options.".length);
    return t("error_option", { option: optionLabels[option] ?? option });
  }
  const parts = fieldName.split(/[.[\]]+/).filter(Boolean);
  const fieldKey = FIELD_KEYS[parts.at(-1)] ?? FIELD_KEYS[parts[0]];
  if (code === "bad_request" && fieldKey) return t(fieldKey);
  return hasText(`error_${code}`) ? t(`error_${code}`) : t("error_unknown");
}
