"""One bot against another on duplicate hands, where either may be ``sim`` with other
settings: how each of sim's settings is measured before it becomes the default.

    python benchmarks/duel.py "sim(fishing=0)" sim-v1 --deals 300 --seed 50000

A bot is a spec (:class:`~triominos.bots.spec.BotSpec`), as ``triominos arena`` reads
one: a name, or ``sim`` with settings (``sim(fishing=0,candidates=10)``).
The first bot takes one seat, the second every other; each deal is played once per
seat of the first (duplicate: the luck of the deal cancels). Prints the first bot's
mean hand margin (its points less the mean of the others') with its standard error
over the deals, and its share of the hands won. Budgets are in simulations, so the
same seed gives the same figures on any machine.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

from triominos.bots import Budget
from triominos.bots.spec import BotSpec, BotSpecError
from triominos.game import Match
from triominos.rules import PRESETS


def play(
    first: str, other: str, players: int, sims: int, seed: int, seat: int
) -> tuple[int, float, float]:
    """One hand of deal ``seed`` with ``first`` at ``seat``: (seed, margin, win share)."""
    rules = PRESETS["classic"].rules.replace(target_score=None, hand_limit=1)
    budget = Budget(simulations=sims)
    bots = [
        BotSpec.from_text(first if each == seat else other).make(seed * 8 + each, budget)
        for each in range(players)
    ]
    match = Match(rules, players, seed)
    while not match.is_over:
        to_move = match.to_move
        match.apply(bots[to_move].act(match.observe(to_move)), to_move)
    totals = match.totals
    margin = totals[seat] - (sum(totals) - totals[seat]) / (players - 1)
    share = 1 / len(match.winners) if seat in match.winners else 0.0
    return seed, margin, share


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
    for spec in (options.first, options.other):
        try:
            BotSpec.from_text(spec)  # a wrong setting stops here, not in a worker
        except BotSpecError as wrong:
            parser.error(str(wrong))
    began = time.perf_counter()
    by_deal: dict[int, list[tuple[float, float]]] = {}
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(options.jobs, mp_context=context) as pool:
        games = [
            pool.submit(
                play, options.first, options.other, options.players, options.sims, seed, seat
            )
            for seed in range(options.seed, options.seed + options.deals)
            for seat in range(options.players)
        ]
        for game in games:
            seed, margin, share = game.result()
            by_deal.setdefault(seed, []).append((margin, share))
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
