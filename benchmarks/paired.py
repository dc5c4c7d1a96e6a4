"""Two versions of a bot, each in turn in the same seat of the same matches against the
same others: how a change to a bot moves its share of matches won, paired match by match.

    python benchmarks/paired.py sim "sim(closing=none)" --players 4 --others expert \\
        --groups 100 --seed 700 --save runs/closing.json

Each group is one match seed played in every seating, by the arena's own schedule
(:func:`triominos.arena.play_games`), once with the first version in the entry under
test and once with the second. The bots are deterministic for a seed and a budget in
simulations, so the two matches of a pair are the same game until the first move on
which the versions differ: the difference of the two shares won (and of the two
margins) has far less noise than two separate arenas would. Bots are specs
(:class:`~triominos.bots.spec.BotSpec`); ``--others`` fills the other seats. Prints
one figure a line.

A four-player run is most of an hour on two cores, half of it replaying a baseline that
an earlier run already played. ``--save FILE`` keeps every match's result of both
versions; ``--reuse FILE`` takes a version's results from such a file instead of playing
them, when the file played that spec on the same matches (players, others, simulations,
target, groups, seed). Whether the code still plays that spec the same way cannot be
read from the code, so it is checked: the first ``--verify`` groups (2 by default) are
played again and must come out exactly as stored, or the run stops and says so.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from triominos.arena import ArenaConfig, play_games
from triominos.bots import Budget
from triominos.bots.spec import BotSpecError
from triominos.rules import PRESETS

Results = list[tuple[float, float]]
"""Each match's (share won, margin) of the entry under test, in schedule order."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first")
    parser.add_argument("second")
    parser.add_argument("--others", default="expert", help="the bot of every other seat")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--sims", type=int, default=600, help="simulations a move")
    parser.add_argument("--target", type=int, default=400, help="the match's target score")
    parser.add_argument("--groups", type=int, default=50, help="match seeds, each in every seating")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--save", type=Path, help="write every match's result to this file")
    parser.add_argument("--reuse", type=Path, help="take a version's results from this file")
    parser.add_argument("--verify", type=int, default=2, help="groups replayed from --reuse")
    options = parser.parse_args()
    rules = PRESETS["classic-house"].rules.replace(target_score=options.target)
    others = (options.others,) * (options.players - 1)
    budget = Budget(simulations=options.sims)
    matches = {  # what a saved file must have played for its results to be reused
        key: getattr(options, key) for key in ("others", "players", "sims", "target", "seed")
    } | {"groups": options.groups}
    stored = _stored(options.reuse, matches) if options.reuse else {}
    began = time.perf_counter()
    versions = (options.first, options.second)
    try:  # the arena's schedule and seeding: the same matches for either version
        configs = [
            ArenaConfig(rules, (version, *others), budget, options.groups, options.seed)
            for version in versions
        ]
    except BotSpecError as wrong:
        parser.error(str(wrong))
    for version, config in zip(versions, configs, strict=True):  # checked before any long run
        if version in stored:
            replayed = _play(config, min(max(options.verify, 0), options.groups), options.jobs)
            if replayed != stored[version][: len(replayed)]:
                parser.error(
                    f"{version} no longer plays as {options.reuse} has it (the first "
                    f"{options.verify} groups differ): play it again, without --reuse"
                )
    results = [
        stored[version] if version in stored else _play(config, options.groups, options.jobs)
        for version, config in zip(versions, configs, strict=True)
    ]
    if options.save:
        played = dict(zip(versions, results, strict=True))
        options.save.write_text(json.dumps({"matches": matches, "versions": played}))
    _report(options, *results)
    print(f"seconds: {time.perf_counter() - began:.0f}")


def _play(config: ArenaConfig, groups: int, jobs: int) -> Results:
    """The first ``groups`` groups of ``config``, each version in a pool of its own."""
    config = replace(config, groups=groups)
    return [(game.win_share(0), game.margin(0)) for game in play_games(config, jobs=jobs)]


def _stored(path: Path, matches: dict[str, Any]) -> dict[str, Results]:
    """The results saved in ``path`` by version, if they were played on ``matches``."""
    try:
        saved = json.loads(path.read_text())
        if saved["matches"] != matches:
            raise SystemExit(f"{path} played other matches: {saved['matches']}, not {matches}")
        return {
            version: [(float(share), float(margin)) for share, margin in played]
            for version, played in saved["versions"].items()
        }
    except (OSError, ValueError, KeyError, TypeError) as wrong:
        raise SystemExit(f"{path} is no file that --save wrote: {wrong!r}") from None


def _report(options: argparse.Namespace, first: Results, second: Results) -> None:
    wins = [share for share, _ in first], [share for share, _ in second]
    differences = [a - b for a, b in zip(*wins, strict=True)]
    margins = [a[1] - b[1] for a, b in zip(first, second, strict=True)]
    count = len(first)
    print(f"{options.first} matches won %: {100 * statistics.fmean(wins[0]):.1f}")
    print(f"{options.second} matches won %: {100 * statistics.fmean(wins[1]):.1f}")
    print(
        f"paired difference, points of %: {100 * statistics.fmean(differences):+.1f} "
        f"± {100 * statistics.stdev(differences) / math.sqrt(count):.1f}"
        f" ({count} pairs of matches against {options.others}, {options.players} players, "
        f"{options.sims} simulations a move, seeds from {options.seed})"
    )
    print(
        f"paired margin difference, points: {statistics.fmean(margins):+.1f} "
        f"± {statistics.stdev(margins) / math.sqrt(count):.1f}"
    )
    print(f"pairs played the same to the end: {sum(1 for margin in margins if margin == 0)}")


if __name__ == "__main__":
    main()
