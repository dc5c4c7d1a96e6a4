// The languages of the rulebooks, and the one small API every page uses to speak them.
//
// A page keeps its texts in `locales/<code>.json` (one flat object: key -> text with
// `{name}` placeholders), loads them with `loadMessages` and writes them with `format`;
// dom.js's `speak` does both for a page. The game (static/) and the score pad
// (static/pad/) each speak through it with their own locale directory.

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
 * The text of `key` with each `{name}` replaced by `params[name]`. A missing key is
 * shown as the key itself (and warned about), so a forgotten translation never breaks
 * a page.
 */
export function format(messages, key, params = {}) {
  const text = messages?.[key];
  if (typeof text !== "string") {
    console.warn(`i18n: no message for "${key}"`);
    return key;
  }
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}
