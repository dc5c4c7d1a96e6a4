"""The native core against the pure-Python one on what people wait for after a match:
``triominos analyse`` and ``triominos puzzles generate``, side by side in one run.

The same method as ``benchmarks/native.py`` (its :func:`side_by_side`): the seeded work
timed on both cores in turn (triominos.native.running_on), ``--runs`` times each, the
cores alternating, after one untimed run of each, in the process's CPU time. It prints
the medians and their ratio, native over Python, of

- a 2-player match analysed (:func:`triominos.analysis.analyse` at its default 500
  simulations a decision, seed 0): the matches of ``benchmarks/analysis.py``, greedy
  against ``sim``, classic-house, seeds from ``--seed``; decisions valued per second;
- puzzles generated (:func:`triominos.puzzles.game_positions` at the default screening
  and confirming budgets, the sim players thinking 200 simulations a move): the first
  ``--games`` games of ``triominos puzzles generate --seed 0``; positions valued per
  second;
- expert's moves (the static evaluation of every option, in C on the native core:
  ``triominos._search``) on seeded positions of classic 2-player greedy hands, moves per
  second.

The first two also check that the two cores gave the same analysis and the same puzzles.

Usage: ``nice -n 10 .venv/bin/python benchmarks/native_analysis.py --runs 5`` (several
minutes); ``--only analyse`` runs the figures whose names hold "analyse".
"""

from __future__ import annotations

import argparse
import itertools
import sys
from collections.abc import Callable, Iterator, Mapping
from functools import partial
from typing import Any

from native import compare, positions

from triominos import native
from triominos.analysis import DEFAULT_SIMULATIONS, analyse
from triominos.bots import make_bot
from triominos.bots.expert import ExpertBot
from triominos.game import Match
from triominos.puzzles import CONFIRM, PRESET, SIMULATIONS, game_positions, games
from triominos.record import PlayerInfo, match_record
from triominos.rules import PRESETS

BOTS = ("greedy", "sim")
"""The players of the analysed matches, as in ``benchmarks/analysis.py``."""


def played(seed: int) -> dict[str, Any]:
    """The record of the seeded match of ``benchmarks/analysis.py``."""
    match = Match(PRESETS[PRESET].rules, 2, seed)
    bots = [make_bot(name, seed * 8 + seat) for seat, name in enumerate(BOTS)]
    while not match.is_over:
        match.apply(bots[match.to_move].act(match.observe(match.to_move)))
    return match_record(match, [PlayerInfo(name) for name in BOTS])


def same_on_both_cores(work: Callable[[], object]) -> Callable[[], object]:
    """``work`` after checking that it gives the same result on both cores."""
    results = []
    for core in ("python", "native"):
        with native.running_on(core):
            results.append(work())
    if results[0] != results[1]:
        sys.exit("the native core's result differs from Python's")
    return work


def analyses(seeds: range) -> Callable[[], int]:
    """Work: the matches of ``seeds`` analysed; the decisions valued."""
    records = [played(seed) for seed in seeds]

    def result() -> list[Mapping[str, Any]]:
        return [analyse(record, simulations=DEFAULT_SIMULATIONS).to_json() for record in records]

    same_on_both_cores(result)
    return lambda: sum(len(found["decisions"]) for found in result())


def puzzle_games(count: int) -> Callable[[], int]:
    """Work: the first ``count`` games of ``puzzles generate --seed 0`` valued; the
    positions valued."""
    chosen = list(itertools.islice(games(0), count))
    valued = partial(game_positions, SIMULATIONS, SIMULATIONS * CONFIRM, 200)

    def result() -> list[tuple[float, float | None, str | None]]:
        return [
            (
                found.screen_margin,
                found.confirm_margin,
                None if found.puzzle is None else found.puzzle.to_json(),
            )
            for game in chosen
            for found in valued(game)
        ]

    same_on_both_cores(result)
    return lambda: len(result())


def expert_moves(count: int) -> Callable[[], int]:
    """Work: expert's move in ``count`` seeded classic 2-player positions."""
    seen, bot = positions("classic", 2, count), ExpertBot()

    def work() -> int:
        for observation in seen:
            bot.act(observation)
        return count

    return work


def figures(args: argparse.Namespace) -> Iterator[tuple[str, Callable[[], Callable[[], int]]]]:
    """Each figure's name and what makes its work (made only when it is measured)."""
    seeds = range(args.seed, args.seed + args.matches)
    yield "classic-house 2p matches analysed, decisions", partial(analyses, seeds)
    yield "puzzles generate, positions valued", partial(puzzle_games, args.games)
    yield "classic 2p expert moves", partial(expert_moves, 300)


def main() -> None:
    def options(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--seed", type=int, default=1, help="the first analysed match's seed")
        parser.add_argument("--matches", type=int, default=3, help="matches analysed in a run")
        parser.add_argument("--games", type=int, default=2, help="puzzle games valued in a run")

    compare(__doc__.splitlines()[0], figures, options)


if __name__ == "__main__":
    main()
