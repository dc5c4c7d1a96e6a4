// Building elements, and the page's texts in the chosen language.
//
// A text made with `{ i18n: key }` remembers its key, so that `retranslate` can switch
// every text of the page to another language without rebuilding the page.

import { LANGUAGES, chosenLanguage, format, loadMessages, setLanguage } from "./i18n.js";

export { number, signed } from "./i18n.js";

let messages = {};

/** Use these messages (a loaded locale) for every text from now on. */
export function useMessages(loaded) {
  messages = loaded;
}

/** A text in the chosen language. */
export function t(key, params = {}) {
  return format(messages, key, params);
}

/** Whether the chosen language has a text for `key` (for keys made from server names). */
export function hasText(key) {
  return typeof messages[key] === "string" || typeof messages[`${key}.other`] === "string";
}

/**
 * An element: `h("button", {class: "primary", i18n: "create", on: {click}}, child, ...)`.
 * Attributes: `class`, `text`, `i18n` (a key, or [key, params]), `i18nAttrs` ({attribute:
 * key}), `on` ({event: handler}), `dataset`, properties such as `disabled`, `hidden`,
 * `value`, `checked`; anything else becomes an attribute.
 */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "class") element.className = value;
    else if (name === "text") element.textContent = value;
    else if (name === "i18n") setText(element, ...(Array.isArray(value) ? value : [value]));
    else if (name === "i18nAttrs") setAttributes(element, value);
    else if (name === "on") for (const [type, handler] of Object.entries(value)) element.addEventListener(type, handler);
    else if (name === "dataset") Object.assign(element.dataset, value);
    else if (["disabled", "hidden", "value", "checked", "selected"].includes(name)) element[name] = value;
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  element.append(...present(children.flat()));
  return element;
}

/** The children given, less the null, undefined and false that mark one left out. */
function present(children) {
  return children.filter((child) => child !== null && child !== undefined && child !== false);
}

/**
 * Make `children` the element's children, in order, moving only what must move: a node
 * kept from the last drawing (a form being typed in) is never taken out, so it keeps its
 * text and its focus. Where `replaceChildren` would take it out and put it back, blurred.
 */
export function arrange(element, ...children) {
  const wanted = present(children);
  for (const node of [...element.childNodes]) if (!wanted.includes(node)) node.remove();
  wanted.forEach((node, index) => {
    const there = element.childNodes[index] ?? null;
    if (there !== node) element.insertBefore(node, there);
  });
}

/**
 * Run `draw`, which draws `root` anew, then give the focus back to the control that had it,
 * found again by its `data-testid`: the place of someone on the keyboard (and a phone's
 * keyboard) survives a page drawn again at each of their changes.
 */
export function keepingFocus(root, draw) {
  const focused = document.activeElement?.dataset?.testid;
  draw();
  if (focused && document.activeElement === document.body) root.querySelector(`[data-testid="${CSS.escape(focused)}"]`)?.focus();
}

/** The `on` of a form: `action(event)` on submit, with the page staying where it is. */
export function onSubmit(action) {
  return {
    submit: (event) => {
      event.preventDefault();
      action(event);
    },
  };
}

/** Set an element's text from a message key; `retranslate` keeps it in the chosen language. */
export function setText(element, key, params = {}) {
  element.dataset.i18n = key;
  element.dataset.i18nParams = JSON.stringify(params);
  element.textContent = t(key, params);
  return element;
}

function setAttributes(element, keys) {
  element.dataset.i18nAttrs = JSON.stringify(keys);
  for (const [attribute, key] of Object.entries(keys)) element.setAttribute(attribute, t(key));
}

/** Put every remembered text under `root` into the chosen language. */
export function retranslate(root) {
  for (const element of root.querySelectorAll("[data-i18n]")) {
    element.textContent = t(element.dataset.i18n, JSON.parse(element.dataset.i18nParams || "{}"));
  }
  for (const element of root.querySelectorAll("[data-i18n-attrs]")) {
    setAttributes(element, JSON.parse(element.dataset.i18nAttrs));
  }
}

/**
 * Speak the chosen language on this page: load its messages from `localesUrl`, fill the
 * header's language picker, title the page and translate its remembered texts. When the
 * user picks another language, the same again, then `redraw()` for the texts a page
 * makes itself when it draws.
 */
export async function speak(localesUrl, redraw) {
  const language = chosenLanguage();
  useMessages(await loadMessages(localesUrl, language));
  document.documentElement.lang = language;
  const picker = document.querySelector("[data-testid=language]");
  picker.replaceChildren(...Object.entries(LANGUAGES).map(([code, name]) => h("option", { value: code, selected: code === language }, name)));
  picker.addEventListener("change", () => setLanguage(picker.value));
  const translatePage = () => {
    document.title = t("title");
    retranslate(document.body);
  };
  translatePage();
  window.addEventListener("languagechange", async (event) => {
    useMessages(await loadMessages(localesUrl, event.detail.code));
    picker.value = event.detail.code;
    translatePage();
    redraw();
  });
}

/**
 * A short message at the bottom of the screen that goes away by itself; `detail` (the
 * server's English reason, say) is shown small under it and as its tooltip.
 */
export function toast(text, kind = "info", detail = "") {
  const box = document.getElementById("toasts");
  const note = h(
    "div",
    { class: `toast ${kind}`, role: kind === "error" ? "alert" : "status", title: detail || null, "data-testid": "toast" },
    text,
    detail ? h("small", { class: "detail", lang: "en", "data-testid": "toast-detail" }, detail) : null,
  );
  box.append(note);
  setTimeout(() => note.classList.add("leaving"), 3500);
  setTimeout(() => note.remove(), 4000);
}
