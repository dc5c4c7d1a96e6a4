"""``triominos demo``: a match between bots, printed move by move."""

from __future__ import annotations

import click
from rich.console import Console
from rich.table import Table

from triominos.bots import make_bot
from triominos.cli.main import main, parse_bots, players_option, preset_option
from triominos.explain import describe_end, describe_event
from triominos.game import Match
from triominos.rules import PRESETS


@main.command()
@preset_option
@players_option
@click.option("--bots", default="greedy", show_default=True, help="Bots, comma-separated.")
@click.option("--seed", type=int, default=None, help="Seed of the deals (random if omitted).")
def demo(preset: str, players: int, bots: str, seed: int | None) -> None:
    """Watch bots play one whole match, move by move."""
    names = parse_bots(bots, players)
    seats = [make_bot(name, seed) for name in names]
    labels = [f"{name} ({seat})" for seat, name in enumerate(names)]
    match = Match(PRESETS[preset].rules, players, seed)
    console = Console(highlight=False)
    console.print(f"[bold]{preset} match, seed {match.seed}[/bold]")
    number = 0
    while not match.is_over:
        hand = match.hand
        if hand.number != number:
            number = hand.number
            console.print(f"\n[bold]Hand {number}[/bold]")
        seat = match.to_move
        event = match.apply(seats[seat].act(match.observe(seat)))
        console.print("  " + describe_event(event, labels))
        if hand.end is not None:
            console.print("  " + describe_end(hand.end, labels))
            console.print("  totals: " + ", ".join(map(str, match.totals)))
    table = Table(title="Final scores")
    table.add_column("player")
    table.add_column("total", justify="right")
    for seat, label in enumerate(labels):
        mark = " (winner)" if seat in match.winners else ""
        table.add_row(label + mark, str(match.totals[seat]))
    console.print(table)
