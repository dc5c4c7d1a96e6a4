// The house-rule form of the home page and of the score pad, built from the option
// declarations of `GET /api/presets`: every option of the preset, the values it allows
// and its texts in the chosen language. Nothing about an option is written here, so a
// new option appears on both pages with its declaration (triominos.rules.OPTIONS).

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

/** Each option's label in the page's language, by option name: how a refusal names it. */
export function optionLabels(preset) {
  return Object.fromEntries((preset?.options ?? []).map((option) => [option.name, ruleText(option.label)]));
}

/**
 * One field per option of `preset` (an entry of `/api/presets`), showing `changes[name]`
 * when set, else the preset's value. Editing a field puts the new value in `changes`, and
 * takes it out again when it is back at the preset's value: `changes` is what to send.
 */
export function ruleFields(preset, changes) {
  return preset.options.map((option) => ruleField(option, changes, preset.players));
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
