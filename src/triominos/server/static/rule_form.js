// The house-rule form of the home page and of the score pad, built from the option
// declarations of `GET /api/presets`: every option of the preset, the values it allows
// and its texts in the chosen language. Nothing about an option is written here, so a
// new option appears on both pages with its declaration (triominos.rules.OPTIONS).
// The presets' names come from the same answer (each preset's `edition`, see
// triominos.server.presets.edition), so a new preset is named on both pages too.

import { h } from "./dom.js";
import { format } from "./i18n.js";

let textsByLanguage = {};

/** Keep the option texts of `/api/presets` (`rule_texts`: language -> key -> text). */
export function useRuleTexts(byLanguage) {
  textsByLanguage = byLanguage ?? {};
}

/** An option text in the page's language (the one dom.js's `speak` set), else English. */
export function ruleText(key, params = {}) {
  const texts = textsByLanguage[document.documentElement.lang] ?? textsByLanguage.en;
  return format(texts, key, params);
}

/** The language names of the page's language: "Dutch", "néerlandais", ... */
export function languageName(code) {
  return new Intl.DisplayNames([document.documentElement.lang || "en"], { type: "language" }).of(code);
}

/** The plain name of a preset of `/api/presets`: "Classic (56 tiles)", "Junior", ... */
export function editionName(preset) {
  const { box, tiles, variant, language } = preset.edition;
  const edition = ruleText(`edition.${box}`, { count: tiles });
  if (variant === "children") return ruleText("edition.children", { edition });
  if (variant === "rulebook") return ruleText("edition.rulebook", { edition, language: languageName(language) });
  if (variant === "other") return ruleText("edition.named", { edition, name: preset.name });
  return edition;
}

/** The rulebooks a preset follows, in words: "Follows rulebook 002 (Dutch) and ...". */
export function editionDetail(preset) {
  const list = new Intl.ListFormat(document.documentElement.lang || "en", { type: "conjunction" });
  const rulebooks = preset.edition.rulebooks.map(({ number, languages }) =>
    ruleText("edition.rulebook_detail", { number, languages: list.format(languages.map(languageName)) }),
  );
  return ruleText("edition.follows", { rulebooks: list.format(rulebooks) });
}

/** Each option's label in the page's language, by option name: how a refusal names it. */
export function optionLabels(preset) {
  return Object.fromEntries((preset?.options ?? []).map((option) => [option.name, ruleText(option.label)]));
}

/**
 * One field per option of `preset` (an entry of `/api/presets`), showing `changes[name]`
 * when set, else the preset's value, in the two groups the declarations give: `common`
 * (an option's `common` flag) and `more`. Editing a field puts the new value in
 * `changes`, and takes it out again when it is back at the preset's value: `changes` is
 * what to send.
 */
export function ruleFields(preset, changes) {
  const field = (option) => ruleField(option, changes, preset.players);
  return { common: preset.options.filter((option) => option.common).map(field), more: preset.options.filter((option) => !option.common).map(field) };
}

/**
 * The house rules of a form: the `common` fields, then the `more` behind a "More"
 * disclosure (a <details>: opened by click, Enter or Space), whose being open is kept in
 * `state.moreOpen` for the form drawn again.
 */
export function houseRuleGroups({ common, more }, state) {
  return [
    h("div", { class: "fields", "data-testid": "common-rules" }, ...common),
    h(
      "details",
      { class: "more-rules", open: state.moreOpen, on: { toggle: (event) => (state.moreOpen = event.target.open) } },
      h("summary", { "data-testid": "more-rules", text: ruleText("rule.more", { count: more.length }) }),
      h("div", { class: "fields" }, ...more),
    ),
  ];
}

function same(one, other) {
  return JSON.stringify(one) === JSON.stringify(other);
}

function ruleField(option, changes, players) {
  const value = option.name in changes ? changes[option.name] : option.value;
  const set = (next) => {
    if (same(next, option.value)) delete changes[option.name];
    else changes[option.name] = next;
  };
  const testid = `rule-${option.name}`;
  const label = h("span", { class: "rule-label", text: ruleText(option.label) });
  const help = h("small", { class: "rule-help", text: ruleText(option.help) });
  if (option.kind === "flag") {
    const box = h("input", { type: "checkbox", checked: value === true, "data-testid": testid, on: { change: (event) => set(event.target.checked) } });
    return h("label", { class: "field check rule", dataset: { option: option.name } }, box, label, help);
  }
  if (option.kind === "choice") {
    const select = h(
      "select",
      { "data-testid": testid, on: { change: (event) => set(event.target.value) } },
      option.choices.map((choice) => h("option", { value: choice, selected: choice === value, text: ruleText(option.choice_labels[choice]) })),
    );
    return h("label", { class: "field rule", dataset: { option: option.name } }, label, select, help);
  }
  if (option.kind === "whole") {
    return h("label", { class: "field rule", dataset: { option: option.name } }, label, wholeInput(option, value, set, testid), help);
  }
  // rack_sizes: one number for each player count of the preset.
  const sizes = { ...value };
  const inputs = players.map((count) =>
    h(
      "label",
      { class: "rack-size" },
      h("span", { text: ruleText("rule.rack_sizes.players", { count }) }),
      wholeInput({ minimum: 1, optional: false }, sizes[String(count)] ?? null, (size) => {
        sizes[String(count)] = size;
        set({ ...sizes });
      }, `${testid}-${count}`),
    ),
  );
  return h("fieldset", { class: "field rule", dataset: { option: option.name } }, h("legend", {}, label), ...inputs, help);
}

/** A whole number from the option's minimum to its maximum (if any); empty is none (no
 * limit, no target). */
function wholeInput(option, value, set, testid) {
  return h("input", {
    type: "number",
    min: option.minimum,
    max: option.maximum ?? null,
    step: 1,
    inputmode: "numeric",
    value: value ?? "",
    placeholder: option.optional ? ruleText("rule.none") : null,
    "data-testid": testid,
    on: {
      input: (event) => {
        const text = event.target.value.trim();
        set(text === "" ? null : Number(text));
      },
    },
  });
}
