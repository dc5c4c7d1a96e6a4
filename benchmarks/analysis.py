"""How long ``triominos analyse`` takes on a 2-player classic match, and what the losses
of real games look like (how the marks' thresholds were chosen: docs/analysis.md).

Plays ``--matches`` matches (``--bots``, seeds from ``--seed``), analyses each with
``--sims`` simulations a decision, and prints:

- ``seconds per match: median M (min A, max B) over N matches, D decisions a match``;
- for each bot, the quantiles of the losses of its decisions that had a choice, and
  how many of them each threshold of :data:`~triominos.analysis.THRESHOLDS` marks.

The machines are shared and noisy: the median is what counts.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import defaultdict

from triominos.analysis import DEFAULT_SIMULATIONS, MARKS, THRESHOLDS, analyse
from triominos.bots import make_bot
from triominos.game import Match
from triominos.record import PlayerInfo, match_record
from triominos.rules import PRESETS

QUANTILES = (0.5, 0.75, 0.9, 0.95, 0.99)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", default="greedy,sim", help="two bots, comma-separated")
    parser.add_argument("--matches", type=int, default=3)
    parser.add_argument("--sims", type=int, default=DEFAULT_SIMULATIONS)
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    names = options.bots.split(",")
    seconds, decisions = [], []
    losses: dict[str, list[float]] = defaultdict(list)
    for number in range(options.matches):
        seed = options.seed + number
        match = Match(PRESETS["classic-house"].rules, 2, seed)
        bots = [make_bot(name, seed * 8 + seat) for seat, name in enumerate(names)]
        while not match.is_over:
            match.apply(bots[match.to_move].act(match.observe(match.to_move)))
        document = match_record(match, [PlayerInfo(name) for name in names])
        start = time.perf_counter()
        analysis = analyse(document, simulations=options.sims, seed=seed)
        seconds.append(time.perf_counter() - start)
        decisions.append(len(analysis.decisions))
        for decision in analysis.decisions:
            if decision.choices > 1:
                losses[names[decision.seat]].append(decision.loss)
    print(
        f"seconds per match: median {statistics.median(seconds):.1f} "
        f"(min {min(seconds):.1f}, max {max(seconds):.1f}) over {len(seconds)} matches, "
        f"{statistics.median(decisions):.0f} decisions a match, {options.sims} sims"
    )
    for name, found in losses.items():
        found.sort()
        at = [found[round(q * (len(found) - 1))] for q in QUANTILES]
        quantiles = ", ".join(
            f"{q:.0%} {value:.1f}" for q, value in zip(QUANTILES, at, strict=True)
        )
        marked = ", ".join(
            f"{mark} {sum(loss >= THRESHOLDS[mark] for loss in found) / len(found):.1%}"
            for mark in MARKS
        )
        print(f"{name}: {len(found)} choices; losses {quantiles}; at least {marked}")


if __name__ == "__main__":
    main()
