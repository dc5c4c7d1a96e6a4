"""``triominos rules``: the presets, and every rule option of one, in words."""

from __future__ import annotations

import json
import textwrap

import click
from rich.console import Console
from rich.table import Table
from rich.text import Text

from triominos.cli.main import main
from triominos.rules import OPTIONS, PRESETS, Preset, Rules

INDENT = " " * 4


def option_value_words(value: object) -> str:
    """An option's value as the rules page shows it: rack sizes as "players: tiles"."""
    if value is None:
        return "none"
    if isinstance(value, dict):
        return ", ".join(f"{players}: {size}" for players, size in value.items())
    return str(value)


def print_options(console: Console, rules: Rules) -> None:
    """Each option as ``name = value``, its meaning indented beneath (wraps at any width)."""
    for name, value in rules.to_dict().items():
        console.print(Text.assemble((name, "bold"), " = ", option_value_words(value)))
        meaning = textwrap.fill(
            OPTIONS[name].meaning,
            width=console.width - 1,
            initial_indent=INDENT,
            subsequent_indent=INDENT,
        )
        console.print(meaning, markup=False, soft_wrap=True)


def presets_table() -> Table:
    table = Table(show_header=True, header_style="bold", box=None, padding=(0, 2, 0, 0))
    table.add_column("preset", no_wrap=True)
    table.add_column("summary")
    table.add_column("rulebooks (seeds)")
    for preset in PRESETS.values():
        table.add_row(preset.name, preset.summary, "\n".join(preset.seeds))
    return table


def print_preset(console: Console, preset: Preset) -> None:
    console.print(f"[bold]{preset.name}[/bold]: {preset.summary}")
    console.print(f"Rulebooks (seeds): {', '.join(preset.seeds)}", markup=False)
    for source, rules in preset.sources:
        console.print(f"From {source}: {rules}", markup=False, soft_wrap=True)
    console.print()
    print_options(console, preset.rules)
    console.print()
    console.print("Every rule, and the rulebook it comes from: RULES.md")


@main.command("rules")
@click.argument(
    "preset_name", metavar="[PRESET]", required=False, type=click.Choice(tuple(PRESETS))
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print every option's declaration and value as JSON (without PRESET: all presets).",
)
def show_rules(preset_name: str | None, as_json: bool) -> None:
    """The rules of a preset in words (without PRESET: the list of presets).

    Every rule option is shown with the preset's value and what it means.
    """
    if as_json:
        chosen = [PRESETS[preset_name]] if preset_name else list(PRESETS.values())
        documents = [preset.to_json() for preset in chosen]
        click.echo(json.dumps(documents[0] if preset_name else documents, indent=2))
        return
    console = Console(highlight=False)
    if preset_name is None:
        console.print(presets_table())
        console.print()
        console.print(f"Show one preset's rules: triominos rules {next(iter(PRESETS))}")
        return
    print_preset(console, PRESETS[preset_name])
