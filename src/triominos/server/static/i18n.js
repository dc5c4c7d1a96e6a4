// The languages of the rulebooks, and the one small API every page uses to speak them.
//
// A page keeps its texts in `locales/<code>.json` (one flat object: key -> text with
// `{name}` placeholders), loads them with `loadMessages` and writes them with `format`;
// dom.js's `speak` does both for a page. The game (static/) and the score pad
// (static/pad/) each speak through it with their own locale directory.
//
// Every number a page shows goes through `number` or `signed` (Intl.NumberFormat in the
// page's language: 11,3 in French, and the true minus sign U+2212 everywhere), and every
// text that counts something through `plural`, whose forms are keys `KEY.one`,
// `KEY.other` (Intl.PluralRules' categories; a missing category falls back to `other`).
// A number given to `format` as a parameter is written by `number` too.

/** The six languages of the rulebooks: code -> the language's own name. */
export const LANGUAGES = Object.freeze({
  en: "English",
  nl: "Nederlands",
  fr: "Français",
  de: "Deutsch",
  es: "Español",
  pt: "Português",
});

const STORAGE_KEY = "triominos.lang";

function stored() {
  try {
    return window.localStorage.getItem(STORAGE_KEY);
  } catch {
    return null; // storage refused (private mode): fall back to the browser's choice
  }
}

/**
 * The language to show: the one the user picked (kept in localStorage), else the first
 * of the browser's languages that we speak ("nl-BE" counts as "nl"), else English.
 */
export function chosenLanguage() {
  const picked = stored();
  if (picked && picked in LANGUAGES) return picked;
  const wanted = navigator.languages?.length ? navigator.languages : [navigator.language];
  for (const tag of wanted) {
    const code = String(tag || "").toLowerCase().split("-")[0];
    if (code in LANGUAGES) return code;
  }
  return "en";
}

/** Keep `code` as the user's choice and tell the page (a `languagechange` event). */
export function setLanguage(code) {
  if (!(code in LANGUAGES)) throw new Error(`unknown language ${code}`);
  try {
    window.localStorage.setItem(STORAGE_KEY, code);
  } catch {
    // Not kept across visits, but this page still switches.
  }
  document.documentElement.lang = code;
  window.dispatchEvent(new CustomEvent("languagechange", { detail: { code } }));
}

/** The messages of one language from `${dirUrl}/${code}.json`. */
export async function loadMessages(dirUrl, code) {
  const response = await fetch(`${dirUrl}/${code}.json`);
  if (!response.ok) throw new Error(`no messages for ${code} in ${dirUrl} (${response.status})`);
  return response.json();
}

/**
 * The text of `key` with each `{name}` replaced by `params[name]` (a number written by
 * `number`); a key with plural forms takes the one for `params.count`. A missing key is
 * shown as the key itself (and warned about), so a forgotten translation never breaks
 * a page.
 */
export function format(messages, key, params = {}) {
  if (typeof params.count === "number" && `${key}.other` in (messages ?? {})) return plural(messages, key, params.count, params);
  const text = messages?.[key];
  if (typeof text !== "string") {
    console.warn(`i18n: no message for "${key}"`);
    return key;
  }
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? shown(params[name]) : whole));
}

/** A parameter as a text shows it: a number by `number` (one decimal unless whole). */
function shown(value) {
  if (typeof value !== "number") return String(value);
  return number(value, { digits: Number.isInteger(value) ? 0 : 1 });
}

/**
 * The form of `key` for `count` (`KEY.one`, `KEY.other`, ... as Intl.PluralRules picks
 * it in the page's language), with `{count}` and the other `params` filled in.
 */
function plural(messages, key, count, params) {
  const category = new Intl.PluralRules(pageLanguage()).select(count);
  const form = `${key}.${category}` in messages ? `${key}.${category}` : `${key}.other`;
  return format(messages, form, { ...params, count });
}

/** The page's language, as `speak` set it on the document (English before that). */
function pageLanguage() {
  return document.documentElement.lang || "en";
}

const HYPHEN_MINUS = /-/g;
const MINUS = "\u2212";

/**
 * `value` written in the page's language with `digits` decimals (none by default), no
 * grouping (a puzzle's number or a year reads as one word), and the true minus sign.
 */
export function number(value, { digits = 0, sign = "auto" } = {}) {
  const written = new Intl.NumberFormat(pageLanguage(), { maximumFractionDigits: digits, minimumFractionDigits: digits, useGrouping: false, signDisplay: sign }).format(value);
  return written.replace(HYPHEN_MINUS, MINUS);
}

/** A number with its sign, as a score change is written: +14, −5, 0 (−2,5 in French). */
export function signed(value, digits = 0) {
  return number(value, { digits, sign: "exceptZero" });
}
