"""One bot against another on duplicate hands, where either may be ``sim`` with other
settings: how each of sim's settings is measured before it becomes the default.

    python benchmarks/duel.py "sim(fishing=0)" sim-v1 --deals 300 --seed 50000

A bot is a spec (:class:`~triominos.bots.spec.BotSpec`), as ``triominos arena`` reads
one: a name, or ``sim`` with settings (``sim(fishing=0,candidates=10)``).
The first bot takes one seat, the second every other; each deal is played once per
seat of the first (duplicate: the luck of the deal cancels), by the arena's own schedule
of single hands (``triominos arena --hands``). Prints the first bot's
mean hand margin (its points less the mean of the others') with its standard error
over the deals, and its share of the hands won. Budgets are in simulations, so the
same seed gives the same figures on any machine.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

from triominos.arena import ArenaConfig, play_games
from triominos.bots import Budget
from triominos.bots.spec import BotSpecError
from triominos.rules import PRESETS


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first")
    parser.add_argument("other")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--sims", type=int, default=600, help="simulations a move")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    options = parser.parse_args()
    bots = (options.first, *(options.other,) * (options.players - 1))
    budget = Budget(simulations=options.sims)
    try:  # the arena's single hands: each deal once with the first bot at every seat
        config = ArenaConfig(
            PRESETS["classic-house"].rules, bots, budget, options.deals, options.seed, hands=True
        )
    except BotSpecError as wrong:
        parser.error(str(wrong))
    began = time.perf_counter()
    by_deal: dict[int, list[tuple[float, float]]] = {}
    for game in play_games(config, jobs=options.jobs):
        by_deal.setdefault(game.game.group, []).append((game.margin(0), game.win_share(0)))
    margins = [statistics.fmean(margin for margin, _ in hands) for hands in by_deal.values()]
    shares = [statistics.fmean(share for _, share in hands) for hands in by_deal.values()]
    error = statistics.stdev(margins) / math.sqrt(len(margins)) if len(margins) > 1 else 0.0
    print(
        f"{options.first} against {options.other}, {options.players} players, "
        f"{options.sims} simulations a move, {len(margins)} deals from seed {options.seed}: "
        f"margin {statistics.fmean(margins):+.1f} ± {error:.1f} a hand, "
        f"hands won {statistics.fmean(shares):.1%} ({time.perf_counter() - began:.0f} s)"
    )


if __name__ == "__main__":
    main()
