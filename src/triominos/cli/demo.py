"""``triominos demo``: a match between bots, printed move by move (``make run``)."""

from __future__ import annotations

from rich.console import Console

from triominos.cli.main import (
    bots_option,
    main,
    match_rules,
    parse_bots,
    players_option,
    preset_option,
    rule_options,
    scores_table,
    seat_bot,
    seed_option,
)
from triominos.explain import describe_end, describe_event
from triominos.game import Match


@main.command()
@preset_option
@players_option
@bots_option("greedy")
@seed_option()
@rule_options
def demo(
    preset: str,
    players: int,
    bots: str,
    seed: int | None,
    target: int | None,
    rule: tuple[str, ...],
) -> None:
    """Watch bots play one whole match, move by move, with every tile shown."""
    names = parse_bots(bots, players)
    rules = match_rules(preset, target, rule, players)
    match = Match(rules, players, seed)
    seats = [seat_bot(name, match.seed, seat) for seat, name in enumerate(names)]
    labels = [f"{name} ({seat})" for seat, name in enumerate(names)]
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
        console.print("  " + describe_event(event, labels, rules))
        if hand.end is not None:
            console.print("  " + describe_end(hand.end, labels, rules))
            console.print("  totals: " + ", ".join(map(str, match.totals)))
    console.print(scores_table(labels, match.totals, match.winners, "Final scores"))
