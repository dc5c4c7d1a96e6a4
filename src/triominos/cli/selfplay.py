"""``triominos selfplay``: bots play a series of matches; a summary of how each seat did.

Every preset plays, Triominos Junior too: there the scores are the counters each seat
ends with, and the summary says so.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, NamedTuple

import click
from rich.console import Console
from rich.table import Table

from triominos.bots import Bot
from triominos.cli.main import (
    bots_option,
    main,
    match_rules,
    out_option,
    parse_bots,
    players_option,
    preset_option,
    progress_bar,
    rule_options,
    seat_bot,
    seed_option,
    seed_or_random,
)
from triominos.cli.workers import cluster_errors, ray_option
from triominos.cluster import ordered_map
from triominos.explain import CLASSIC_TERMS, Terms
from triominos.game import Match
from triominos.record import PlayerInfo, match_record, write_records
from triominos.rules import Rules


class Played(NamedTuple):
    """What a series keeps of a match played (wherever it was played): its figures, and
    its record when asked for."""

    hands: int
    winners: tuple[int, ...]
    totals: tuple[int, ...]
    record: dict[str, Any] | None


def play_out(match: Match, bots: Sequence[Bot]) -> None:
    """Play ``match`` to its end, each seat's bot acting on that seat's observation."""
    while not match.is_over:
        seat = match.to_move
        match.apply(bots[seat].act(match.observe(seat)))


@dataclass
class SeriesTally:
    """What a series of matches adds up to, seat by seat.

    A win shared by several seats (equal highest totals) counts as a fraction: 1/k to
    each of the k winners, so the wins always add up to the number of matches.
    """

    players: int
    matches: int = 0
    hands: int = 0
    wins: list[float] = field(default_factory=list)
    score_sums: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.wins = [0.0] * self.players
        self.score_sums = [0] * self.players

    def add(self, played: Played) -> None:
        self.matches += 1
        self.hands += played.hands
        winners = played.winners
        for seat in winners:
            self.wins[seat] += 1 / len(winners)
        for seat, total in enumerate(played.totals):
            self.score_sums[seat] += total


def play_match(rules: Rules, bot_names: Sequence[str], preset: str | None, seed: int) -> Played:
    """The match of ``seed`` played out; its record too, named after ``preset``, unless
    that is None."""
    match = Match(rules, len(bot_names), seed)
    play_out(match, [seat_bot(name, seed, seat) for seat, name in enumerate(bot_names)])
    record = None
    if preset is not None:
        record = match_record(match, [PlayerInfo(name, "bot") for name in bot_names], preset)
    return Played(len(match.hands), tuple(match.winners), tuple(match.totals), record)


def play_series(
    rules: Rules,
    bot_names: Sequence[str],
    first_seed: int,
    games: int,
    *,
    preset: str | None = None,
    ray: str | None = None,
) -> Iterator[Played]:
    """Matches seeded ``first_seed``, ``first_seed + 1``, …, in that order, each once
    played out (here, or as tasks of the Ray cluster at ``ray``); with their records
    when ``preset`` names the rules'."""
    play = partial(play_match, rules, bot_names, preset)
    return ordered_map(play, range(first_seed, first_seed + games), ray=ray)


def wins_words(wins: float) -> str:
    """A win count with at most two decimals, and none when whole: 3, 2.5, 0.33."""
    return f"{round(wins, 2):g}"


def summary_table(
    tally: SeriesTally, bot_names: Sequence[str], terms: Terms = CLASSIC_TERMS
) -> Table:
    """A row per seat: its bot, wins, and mean final score (counters, in Junior)."""
    table = Table()
    table.add_column("seat", justify="right")
    table.add_column("bot")
    table.add_column("wins", justify="right")
    table.add_column("win %", justify="right")
    table.add_column("mean counters" if terms.counters else "mean score", justify="right")
    for seat, name in enumerate(bot_names):
        wins = tally.wins[seat]
        table.add_row(
            str(seat),
            name,
            wins_words(wins),
            f"{100 * wins / tally.matches:.1f}",
            f"{tally.score_sums[seat] / tally.matches:.1f}",
        )
    return table


@main.command()
@preset_option
@players_option
@bots_option("greedy,random")
@click.option(
    "--games", type=click.IntRange(min=1), default=10, show_default=True, help="Matches to play."
)
@seed_option("Seed of the first match; match i uses seed + i (random if omitted).")
@rule_options
@out_option("Save every match's record to FILE.jsonl (JSON Lines, one match a line).")
@ray_option
def selfplay(
    preset: str,
    players: int,
    bots: str,
    games: int,
    seed: int | None,
    target: int | None,
    rule: tuple[str, ...],
    out: Path | None,
    ray: str | None,
) -> None:
    """Bots play many matches against each other: wins and scores seat by seat.

    Match i of the series uses seed S + i (S from --seed), so any match can be played
    again on its own, and --out saves every match's record.
    """
    bot_names = parse_bots(bots, players)
    if out is not None and not out.parent.is_dir():
        raise click.BadParameter(
            f"no directory {str(out.parent)!r} to write in", param_hint="--out"
        )
    rules = match_rules(preset, target, rule, players)
    first_seed = seed_or_random(seed)
    progress = progress_bar()
    tally = SeriesTally(players)
    task = progress.add_task("matches", total=games)

    def played() -> Iterator[Played]:
        """The matches one by one, each counted in the tally and the progress bar."""
        series = play_series(
            rules, bot_names, first_seed, games, preset=None if out is None else preset, ray=ray
        )
        for match in series:
            tally.add(match)
            progress.advance(task)
            yield match

    start = time.perf_counter()
    with cluster_errors(), progress:
        if out is None:
            for _match in played():
                pass  # the tally is all that is kept
        else:
            try:
                # One match at a time, never all in memory.
                write_records(out, (match.record or {} for match in played()))
            except OSError as error:
                raise click.FileError(str(out), hint=error.strerror) from None
    elapsed = time.perf_counter() - start
    last_seed = first_seed + games - 1
    click.echo(f"{games} {preset} matches, {players} players, seeds {first_seed} to {last_seed}")
    Console(highlight=False).print(summary_table(tally, bot_names, Terms.of(rules)))
    click.echo("wins: a win shared by k seats counts 1/k to each of them")
    click.echo(f"hands per match: {tally.hands / tally.matches:.2f} on average")
    click.echo(f"time: {elapsed:.2f} s, {games / elapsed:.1f} matches/s")
    if out is not None:
        click.echo(f"records: {games} matches written to {out}")
