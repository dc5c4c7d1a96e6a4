"""OpenSpiel's ISMCTS against the project's bots, through ``triominos.rl.openspiel``.

Plays ``--hands`` 2-player hands of a preset against each opponent, the ISMCTS seat
alternating, every chance node drawn from one seeded generator; prints, every 25 hands
and at the end, ISMCTS's mean margin (its points less the opponent's, which is its
OpenSpiel return) and its share of hands won, each with a 95% interval (normal
approximation: 1.96 standard errors).

ISMCTS runs with OpenSpiel's defaults for everything its constructor does not require:
unlimited world samples, the most visited action, UCT selection; the two it requires are
``--uct-c`` (2, as in OpenSpiel's examples) and ``--simulations`` a move, with one random
rollout (``RandomRolloutEvaluator(1)``) at each leaf. ``sim`` gets ``--think``, a number of
simulations, so that the figures do not depend on the machine's speed. One process.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time

import numpy as np
import pyspiel  # type: ignore[import-not-found]
from open_spiel.python.algorithms import ismcts, mcts  # type: ignore[import-untyped]

import triominos.rl.openspiel as triominos_openspiel
from triominos.bots import Budget, make_bot


def play_hand(
    game: triominos_openspiel.TriominosGame,
    searcher: ismcts.ISMCTSBot,
    opponent: str,
    seat: int,
    think: Budget,
    rng: np.random.RandomState,
) -> float:
    """One hand; ISMCTS plays ``seat``. Returns ISMCTS's margin."""
    bot = make_bot(opponent, seed=int(rng.randint(2**31)), budget=think)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
        elif state.current_player() == seat:
            state.apply_action(int(searcher.step(state)))
        else:
            observation = state.observation(state.current_player())
            state.apply_action(game.space.encode(bot.act(observation)))
    return float(state.returns()[seat])


def interval(values: list[float]) -> str:
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0
    return f"{mean:.3g} ± {half:.2g}"


def report(opponent: str, margins: list[float], seconds: float) -> None:
    wins = [1.0 if margin > 0 else 0.0 for margin in margins]
    print(
        f"ismcts vs {opponent}: {len(margins)} hands, mean margin {interval(margins)}, "
        f"won {interval(wins)} of hands, {seconds / len(margins):.1f} s a hand",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="classic-house")
    parser.add_argument("--hands", type=int, default=200, help="hands against each opponent")
    parser.add_argument("--simulations", type=int, default=30, help="ISMCTS simulations a move")
    parser.add_argument("--uct-c", type=float, default=2.0)
    parser.add_argument("--opponents", nargs="+", default=["greedy", "sim"])
    parser.add_argument("--think", type=Budget.parse, default=Budget(simulations=600))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = pyspiel.load_game("triominos", {"preset": args.preset, "players": 2})
    print(
        f"{args.preset}, ISMCTS uct_c={args.uct_c} {args.simulations} simulations a move, "
        f"sim at {args.think}",
        file=sys.stderr,
    )
    for opponent in args.opponents:
        rng = np.random.RandomState(args.seed)
        searcher = ismcts.ISMCTSBot(
            game,
            mcts.RandomRolloutEvaluator(1, rng),
            args.uct_c,
            args.simulations,
            random_state=rng,
        )
        # OpenSpiel's ISMCTS resamples the hidden tiles through an unseeded sampler of
        # its own; drawing from this run's generator makes a seed reproduce the run.
        searcher.set_resampler(
            lambda state, player, sample=rng.random_sample: state.resample_from_infostate(
                player, sample
            )
        )
        margins: list[float] = []
        start = time.perf_counter()
        for number in range(args.hands):
            margins.append(play_hand(game, searcher, opponent, number % 2, args.think, rng))
            if len(margins) % 25 == 0 and len(margins) < args.hands:
                report(opponent, margins, time.perf_counter() - start)
        report(opponent, margins, time.perf_counter() - start)


if __name__ == "__main__":
    main()
