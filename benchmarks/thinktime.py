"""What the native core's saved time buys: ``sim`` searching more, measured against ``sim-v2``.

On the native core a ``sim`` move at 1,200 simulations costs about a tenth of its Python
time. Each variant here spends that saved time one way; ``triominos arena`` seats it
by name as an outside agent (``thinktime:more_simulations``, with ``benchmarks`` on
``PYTHONPATH``) against ``sim-v2`` at 1,200 simulations, on duplicate deals:

- ``more_simulations``: 12,000 simulations (6 candidates, 2,000 worlds each);
- ``more_candidates``: 12 candidates at the same 12,000 simulations (1,000 worlds each);
- ``hand_horizon``: every playout to the end of the hand, at 4,800 simulations: at four
  players, where a hand playout costs about two and a half turn playouts, about the
  think time of the other two (at two players, about twice theirs).

Run as a script, ``cpu`` prints each one's CPU time per move on the native core beside
``sim-v2``'s at 1,200 simulations on both cores, on the same seeded positions (medians
of ``--runs``), so that the think time each variant is given is measured, not assumed:
``nice -n 10 .venv/bin/python benchmarks/thinktime.py cpu --runs 3``. ``sprt VARIANT``
runs the test of ``triominos arena --sprt 0,20`` of it against ``sim-v2`` (classic, two
players), printing the test's figures after every pair, so that a run stopped for want
of time still says where it stood.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable

from native import positions  # benchmarks/native.py: the same seeded positions

from triominos import native
from triominos.arena import ArenaConfig, GameResult, Sprt, pair_scores, play_sprt
from triominos.bots import Budget, make_bot
from triominos.bots.sim import SimBot
from triominos.cli.arena import sprt_lines
from triominos.game import Observation
from triominos.rules import PRESETS


def more_simulations(seed: int | None = None) -> SimBot:
    return SimBot(seed, Budget(simulations=12_000), name="sim(12000sims)")


def more_candidates(seed: int | None = None) -> SimBot:
    return SimBot(seed, Budget(simulations=12_000), candidates=12, name="sim(12 candidates)")


def hand_horizon(seed: int | None = None) -> SimBot:
    return SimBot(seed, Budget(simulations=4_800), horizon="hand", name="sim(hand, 4800sims)")


VARIANTS: dict[str, Callable[[int | None], SimBot]] = {
    "more_simulations": more_simulations,
    "more_candidates": more_candidates,
    "hand_horizon": hand_horizon,
}


def sim_v2(seed: int | None = None) -> SimBot:
    bot = make_bot("sim-v2", seed)
    assert isinstance(bot, SimBot)
    return bot


def cpu_per_move(make: Callable[[int | None], SimBot], seen: list[Observation], core: str) -> float:
    """Milliseconds of this process's CPU time per move, each position seeded by its number."""
    with native.running_on(core):
        start = time.process_time()
        for seed, observation in enumerate(seen):
            make(seed).act(observation)
        return (time.process_time() - start) / len(seen) * 1000


def cpu(runs: int, moves: int) -> None:
    for players in (2, 4):
        seen = positions("classic", players, moves)
        timed: list[tuple[str, Callable[[int | None], SimBot], str]] = [
            ("sim-v2 (1,200 simulations)", sim_v2, "python"),
            ("sim-v2 (1,200 simulations)", sim_v2, "native"),
            *((name, make, "native") for name, make in VARIANTS.items()),
        ]
        for _, make, core in timed:  # untimed: the lattice's memo tables and caches
            cpu_per_move(make, seen[:1], core)
        medians = [
            statistics.median(cpu_per_move(make, seen, core) for _ in range(runs))
            for _, make, core in timed
        ]
        python = medians[0]
        for (name, _, core), median in zip(timed, medians, strict=True):
            print(
                f"classic {players}p {name}, {core}: {median:.1f} ms a move, "
                f"{median / python:.2f} of sim-v2's Python time",
                flush=True,
            )


def sprt(variant: str, pairs: int, seed: int) -> None:
    """Pairs of ``variant`` against sim-v2 at 1,200 simulations until the test decides."""
    config = ArenaConfig(
        PRESETS["classic"].rules,
        (f"thinktime:{variant}", "sim-v2"),
        Budget(simulations=1200),
        pairs,
        seed,
    )
    test = Sprt(0, 20)
    played: list[GameResult] = []

    def done(game: GameResult) -> None:
        played.append(game)
        if len(played) % config.players == 0:  # one job: the games come in order
            print(" | ".join(sprt_lines(test.test(pair_scores(played)))), flush=True)

    result, _ = play_sprt(config, test, on_done=done)
    print(f"{variant} against sim-v2, seeds from {seed}: " + " | ".join(sprt_lines(result)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    timing = commands.add_parser("cpu", help="CPU time per move of sim-v2 and each variant")
    timing.add_argument("--runs", type=int, default=3, help="timed runs of each")
    timing.add_argument("--moves", type=int, default=8, help="seeded positions a run")
    testing = commands.add_parser("sprt", help="a variant against sim-v2, pair by pair")
    testing.add_argument("variant", choices=sorted(VARIANTS))
    testing.add_argument("--pairs", type=int, default=1000, help="the most pairs to play")
    testing.add_argument("--seed", type=int, default=34_000, help="the first pair's seed")
    args = parser.parse_args()
    if args.command == "cpu":
        if not native.built():
            sys.exit(f"no native core to time: {native.core()}")
        cpu(args.runs, args.moves)
    else:
        sprt(args.variant, args.pairs, args.seed)


if __name__ == "__main__":
    main()
