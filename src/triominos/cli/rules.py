"""``triominos rules``: the presets, and every rule option of one, in words."""

from __future__ import annotations

import textwrap

import click
from rich.console import Console
from rich.table import Table
from rich.text import Text

from triominos.cli.main import main
from triominos.rules import PRESETS, Preset, Rules

OPTION_HELP: dict[str, str] = {
    "tile_set": "The box: classic has 56 tiles (numbers 0 to 5); extended adds the 20 "
    "mirror images, 76 tiles in all; junior has 35 picture cards (symbols 1 to 5, each "
    "with its own colour) and a joker.",
    "joker": "Whether the joker of the junior set is played: it fits anywhere, showing "
    "the numbers around it, and may be taken back with a card that fits exactly.",
    "min_players": "The fewest players the rules are written for.",
    "max_players": "The most players the rules are written for.",
    "rack_sizes": "How many tiles each player is dealt, by the number of players (players: tiles).",
    "opening": "Who opens: highest_triple (the holder of the highest triple lays it), "
    "starter_draw (each draws a tile; the highest opens with any tile) or pool_card (a "
    "pool card, never the joker, is laid first).",
    "opening_triple_bonus": "Points besides the tile's value for opening with a triple "
    "(only when the highest triple opens).",
    "opening_zero_bonus": "Points on top of that for opening with 0-0-0 (likewise).",
    "max_draws": "The most tiles a player draws in one turn before passing (none: as long as "
    "the pool lasts).",
    "draw_penalty": "Points lost for each tile drawn (with a bank: the counters a card costs).",
    "failed_draw_penalty": "Points lost for passing after drawing in the same turn.",
    "empty_pool_pass_penalty": "Points lost for passing without drawing, the pool being empty.",
    "bridge_bonus": "Points for a bridge: a tile touching the board by one edge and by the "
    "corner opposite it.",
    "hexagon_bonus": "Points for completing a hexagon (six tiles around one corner).",
    "double_hexagon_bonus": "Points for completing two hexagons with one tile.",
    "triple_hexagon_bonus": "Points for completing three hexagons with one tile.",
    "two_sides_bonus": "Points for a tile laid in a gap, against two edges at once.",
    "going_out_bonus": "Points for going out (emptying the rack), besides the value of the "
    "tiles the others still hold when going_out_collects.",
    "going_out": "What going out does: ends_hand (the hand ends at once), finish_round "
    "(the others play until the round of turns is complete) or plays_on (the player "
    "draws next turn and the hand goes on).",
    "going_out_collects": "Whether the player who goes out also scores the value of the "
    "tiles the others still hold.",
    "blocked": "A blocked hand: lowest_scores_difference (the lowest rack scores the others' "
    "racks minus its own), each_loses_own (each loses its rack's value) or no_settlement "
    "(nothing is scored or lost).",
    "tile_points": "What laying a tile scores before bonuses: value (the sum of its "
    "numbers) or one (1 for every tile, the children's scoring).",
    "last_tile_bonus": "Points for laying the last tile of one's rack, whether or not the "
    "hand ends.",
    "draw_ends_turn": "Whether drawing (buying) a tile ends the turn at once, without "
    "trying to lay it.",
    "pool_empty": "What the pool running out does: plays_on (nothing) or last_round (the "
    "round of turns is played out and ends with the player who took the last tile).",
    "starting_score": "Each player's score (counters, with a bank) at the start of the match.",
    "bank": "Scores are counters, the players' and the bank's adding up to this: a card "
    "is bought from the bank, not without counters, and the bank pays what it holds "
    "(none: points, no limit).",
    "open_racks": "Whether every rack lies face up for all to see (for young children, "
    "so a grown-up can help).",
    "target_score": "The match ends after the hand in which a total reaches this score "
    "(none: no target).",
    "hand_limit": "The match ends after this many hands (none: no limit).",
}
"""A one-line explanation of every rule option (triominos.rules.OPTION_NAMES)."""


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
            OPTION_HELP[name],
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
    console.print()
    print_options(console, preset.rules)
    console.print()
    console.print("Every rule, and the rulebook it comes from: RULES.md")


@main.command("rules")
@click.argument(
    "preset_name", metavar="[PRESET]", required=False, type=click.Choice(tuple(PRESETS))
)
def show_rules(preset_name: str | None) -> None:
    """The rules of a preset in words (without PRESET: the list of presets).

    Every rule option is shown with the preset's value and what it means.
    """
    console = Console(highlight=False)
    if preset_name is None:
        console.print(presets_table())
        console.print()
        console.print(f"Show one preset's rules: triominos rules {next(iter(PRESETS))}")
        return
    print_preset(console, PRESETS[preset_name])
