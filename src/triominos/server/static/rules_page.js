// The rules, readable: one page per edition.
//
//   /rules                  the editions
//   /rules/{preset}         one edition's rules; with ?table=CODE that table's choices
//                           beside the edition's
//
// Nothing here states a rule. The options, their values and texts come from the
// declarations (`/api/presets`: each option with its label and help in six languages),
// the bonus figures' pictures and RULES.md's prose from `/api/rules/{preset}`
// (triominos.server.rules_page). RULES.md is English: in the other languages the page
// says so and marks its text as English.

import { getJson } from "./api.js";
import { h, signed, t } from "./dom.js";
import { toastRefusal } from "./errors.js";
import { EDITIONS } from "./learn.js";
import { editionDetail, editionName, ruleText, useRuleTexts } from "./rule_form.js";

/** An option's value in words: its choice's label, yes or no, a number, or none. */
function valueText(option, value) {
  if (value === null || value === undefined) return ruleText("rule.none");
  if (option.kind === "flag") return t(value ? "rules_yes" : "rules_no");
  if (option.kind === "choice") return ruleText(option.choice_labels[value]);
  if (option.kind === "rack_sizes") {
    return Object.entries(value)
      .map(([count, size]) => `${ruleText("rule.rack_sizes.players", { count: Number(count) })}: ${size}`)
      .join(" · ");
  }
  return new Intl.NumberFormat(document.documentElement.lang).format(value);
}

export class RulesPage {
  /** @param {string|null} name  a preset, or null for the list of editions */
  constructor(root, name) {
    this.root = root;
    this.name = name;
    this.table = new URLSearchParams(location.search).get("table");
    this.presets = null; // /api/presets
    this.rules = null; // /api/rules/{name}
    this.tableRules = null; // the table's option values, with ?table=CODE
  }

  async start() {
    try {
      const payload = await getJson("/api/presets");
      useRuleTexts(payload.rule_texts);
      this.presets = payload.presets;
      if (this.name) this.rules = await getJson(`/api/rules/${encodeURIComponent(this.name)}`);
      if (this.name && this.table) this.tableRules = (await getJson(`/api/tables/${encodeURIComponent(this.table)}`)).rules;
    } catch (error) {
      if (error.code === "not_found") this.notFound();
      else toastRefusal(error);
      return;
    }
    this.render();
  }

  notFound() {
    this.root.replaceChildren(h("section", { class: "card narrow", "data-testid": "no-rules" }, h("h1", { i18n: "not_found" }), h("a", { class: "button primary", href: "/rules", i18n: "rules_title" })));
  }

  render() {
    if (!this.presets) return;
    if (!this.rules) {
      this.root.replaceChildren(
        h(
          "section",
          { class: "card narrow rules-page", "data-testid": "rules-list" },
          h("h1", { i18n: "rules_title" }),
          h("ul", { class: "rules-editions" }, ...this.presets.map((entry) => h("li", {}, h("a", { href: `/rules/${entry.name}`, "data-testid": `rules-${entry.name}` }, editionName(entry)), " ", h("span", { class: "muted" }, editionDetail(entry))))),
        ),
      );
      return;
    }
    const { preset, figures, text } = this.rules;
    const entry = this.presets.find(({ name }) => name === preset.name); // its plain name
    const english = document.documentElement.lang === "en";
    const prose = h("div", { class: "rules-text", lang: "en", "data-testid": "rules-text" });
    prose.innerHTML = text; // RULES.md rendered by the server, with no HTML of its own passed on
    this.root.replaceChildren(
      h(
        "article",
        { class: "card rules-page", "data-testid": "rules", dataset: { preset: preset.name } },
        h("h1", { "data-testid": "rules-name" }, editionName(entry)),
        h("p", { class: "muted" }, editionDetail(entry)),
        h(
          "p",
          { class: "rules-links" },
          EDITIONS.includes(preset.name) ? h("a", { class: "button primary", href: `/learn/${preset.name}`, "data-testid": "learn-link", i18n: "learn_link" }) : null,
          h("a", { class: "button", href: "/rules", i18n: "rules_title" }),
          this.table ? h("a", { class: "button", href: `/t/${encodeURIComponent(this.table)}`, i18n: "rules_back_to_table" }) : null,
        ),
        h("h2", { i18n: "rules_figures" }),
        h("div", { class: "rules-figures" }, ...figures.map((figure) => this.figure(figure))),
        h("h2", { i18n: "rules_options" }),
        this.optionsTable(preset),
        h("h2", { i18n: "rules_full" }),
        english ? null : h("p", { class: "notice", "data-testid": "rules-in-english", i18n: "rules_in_english" }),
        prose,
      ),
    );
  }

  figure({ figure, bonus, svg }) {
    const picture = h("div", { class: "rules-figure-picture" });
    picture.innerHTML = svg; // drawn by the server (triominos.svg)
    return h("figure", { class: "rules-figure", "data-testid": `figure-${figure}` }, picture, h("figcaption", {}, h("strong", {}, t(`bonus_${figure}`)), " ", signed(bonus)));
  }

  /** Every option: its label, the edition's value (and the table's beside it), its help. */
  optionsTable(preset) {
    const table = this.tableRules;
    const head = h("tr", {}, h("th", { i18n: "rules_option" }), h("th", { i18n: "rules_edition" }), table ? h("th", { i18n: "rules_this_table" }) : null);
    const rows = preset.options.map((option) => {
      const changed = table && JSON.stringify(table[option.name]) !== JSON.stringify(option.value);
      return h(
        "tr",
        { "data-testid": `rule-${option.name}`, class: changed ? "changed" : "", dataset: { changed: String(Boolean(changed)) } },
        h("td", {}, h("strong", {}, ruleText(option.label)), h("br"), h("small", { class: "muted" }, ruleText(option.help))),
        h("td", { class: "rule-value" }, valueText(option, option.value)),
        table ? h("td", { class: "rule-value", "data-testid": "table-value" }, valueText(option, table[option.name])) : null,
      );
    });
    return h("div", { class: "rules-table-wrap" }, h("table", { class: "rules-options" }, h("thead", {}, head), h("tbody", {}, ...rows)));
  }
}
