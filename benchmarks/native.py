"""The native core against the pure-Python one, side by side in one run.

Each figure is the same seeded work timed on both cores in turn (:func:`on`: the board,
the playouts, the encoder and the match's turns, triominos.native's ``*_on``), ``--runs``
times each, the cores alternating so that a shared machine's noise falls on both, after
one untimed run of each; the time is the process's CPU time, which the other processes
of a shared machine change less than the wall clock's. It prints the medians and their
ratio, native over Python:

- the board's hot paths alone: placements laid, the greedy reply found, taken back, per
  second (classic, extended, Junior);
- greedy hands/s, each preset at 2 players and classic at 4 (every move through the
  public path: an observation, the bot's choice, ``Match.apply``), and the same hands
  as ``sim``'s playouts play them to the end of the hand (a world sampled, every seat
  greedy, the hand valued: on the native core all in C);
- ``sim`` moves/s at 1,200 simulations (classic 2p and 4p, extended 4p, Junior 2p; and
  classic 4p with every playout to the end of the hand, ``horizon="hand"``): on the
  native core the playouts and the world sampling are native too;
- random play through the public API (``Match.legal_actions``, ``Match.apply``), actions/s;
- observation tensors built/s (:class:`triominos.encoding.ObservationEncoder`, whose
  board planes and tile masks the native core lays: triominos.native.encoding_on);
- random decisions/s of OpenSpiel's ``triominos`` reading each observation tensor.

Usage: ``nice -n 10 .venv/bin/python benchmarks/native.py --runs 5`` (several minutes);
``--only sim`` runs the figures whose names hold "sim".
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial

from triominos import native
from triominos.board import Board
from triominos.bots import Budget, GreedyBot
from triominos.bots.sim import DEFAULT_BUDGET, Horizon, SimBot, Simulation
from triominos.encoding import ObservationEncoder
from triominos.game import Match, Observation
from triominos.rules import PRESETS


def greedy_hands(preset: str, players: int, hands: int) -> Callable[[], int]:
    """Work: ``hands`` seeded greedy hands (each the first hand of a match)."""
    rules, bot = PRESETS[preset].rules, GreedyBot()

    def work() -> int:
        for seed in range(hands):
            match = Match(rules, players, seed)
            first = match.hand
            while match.hand is first and not match.is_over:
                match.apply(bot.act(match.observe(match.to_move)))
        return hands

    return work


def greedy_playouts(preset: str, players: int, hands: int) -> Callable[[], int]:
    """Work: ``hands`` greedy hands as ``sim`` plays them out to the end of the hand
    (``horizon="hand"``): at seeded positions one tile into a hand, worlds sampled, and in
    each the greedy move, every seat greedy to the hand's end, the hand valued."""
    seen = positions(preset, players, max(hands // WORLDS, 1), tiles=(1, 2))
    bot = GreedyBot()

    def work() -> int:
        rng = random.Random(7)
        for observation in seen:
            simulation = Simulation(observation, rng, horizon="hand")
            action = bot.act(observation)
            for _ in range(WORLDS):
                simulation.play_outs(simulation.sampler.sample(rng), [action])
        return len(seen) * WORLDS

    return work


WORLDS = 20
"""Worlds a position of :func:`greedy_playouts`, as a simulation samples many."""


def positions(
    preset: str, players: int, count: int, tiles: tuple[int, int] = (4, 20)
) -> list[Observation]:
    """Seeded positions ``tiles`` (from, before) tiles into greedy hands, with a choice
    to make."""
    rules, bot, rng = PRESETS[preset].rules, GreedyBot(), random.Random(preset)
    found: list[Observation] = []
    while len(found) < count:
        match = Match(rules, players, rng.randrange(2**32))
        stop = rng.randrange(*tiles)
        while not match.is_over and len(match.hand.board) < stop:
            match.apply(bot.act(match.observe(match.to_move)))
        observation = match.observe(match.to_move)
        if observation.phase == "play" and len(observation.legal_actions()) > 2:
            found.append(observation)
    return found


def sim_moves(
    preset: str, players: int, moves: int, horizon: Horizon = "turn"
) -> Callable[[], int]:
    """Work: ``sim``'s choice at 1,200 simulations on ``moves`` seeded positions."""
    seen = positions(preset, players, moves)
    budget = Budget(simulations=DEFAULT_BUDGET.simulations)

    def work() -> int:
        for seed, observation in enumerate(seen):
            SimBot(seed, budget, horizon=horizon).act(observation)
        return moves

    return work


def board_paths(preset: str) -> Callable[[], int]:
    """Work: on seeded positions of the preset, every legal placement of the rack to move,
    each laid and taken back, and the greedy move: the board's hot paths alone."""
    seen: list[tuple[Board, int]] = []
    for observation in positions(preset, 2, 40):
        assert observation.rack is not None  # the seat to move sees its rack
        seen.append((observation.board.copy(), observation.rack))
    rules = PRESETS[preset].rules

    def work() -> int:
        done = 0
        for board, rack in seen:
            for cell, tile, corners, _ in list(board.placement_ids(rack)):
                board.push_unchecked(cell, tile, corners)
                board.best_placement(rack & ~(1 << tile), rules.figure_points, rules.tile_values)
                board.pop()
                done += 1
        return done

    return work


def random_actions(actions: int) -> Callable[[], int]:
    """Work: ``actions`` random legal actions of classic 2-player matches, public API."""

    def work() -> int:
        rng, match = random.Random(5), Match(PRESETS["classic"].rules, 2, 5)
        for _ in range(actions):
            if match.is_over:
                match = Match(PRESETS["classic"].rules, 2, rng.randrange(2**32))
            match.apply(rng.choice(match.legal_actions()).action)
        return actions

    return work


def tensors(count: int) -> Callable[[], int]:
    """Work: observation tensors of ``count`` classic 2-player positions."""
    seen = positions("classic", 2, count)
    encoder = ObservationEncoder(PRESETS["classic"].rules, 2)

    def work() -> int:
        for observation in seen:
            encoder.encode(observation)
        return count

    return work


def openspiel_decisions(decisions: int) -> Callable[[], int]:
    """Work: ``decisions`` random decisions of OpenSpiel's classic 2-player ``triominos``,
    each reading the observation tensor through OpenSpiel's observer, as learning does."""
    import pyspiel  # type: ignore[import-not-found]  # the rl extra: imported when measured

    import triominos.rl.openspiel  # noqa: F401  (registers the game)

    game = pyspiel.load_game("triominos")
    observer = game.make_py_observer()

    def work() -> int:
        rng, state, done = random.Random(5), game.new_initial_state(), 0
        while done < decisions:
            if state.is_terminal():
                state = game.new_initial_state()
            elif state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                observer.set_from(state, state.current_player())
                state.apply_action(rng.choice(state.legal_actions()))
                done += 1
        return decisions

    return work


@contextmanager
def on(core: str) -> Iterator[None]:
    """Everything the native core replaces (board, playouts, encoder, legal actions) on
    ``core`` meanwhile."""
    with native.running_on(core), native.encoding_on(core), native.match_on(core):
        yield


def side_by_side(name: str, work: Callable[[], int], runs: int) -> None:
    """Time ``work`` on both cores in turn; print the medians of the rates and the ratio."""
    rates: dict[str, list[float]] = {"python": [], "native": []}
    for core in rates:  # untimed: fills the lattice's memo tables and the caches
        with on(core):
            work()
    for _ in range(runs):
        for core, measured in rates.items():
            with on(core):
                start = time.process_time()
                units = work()
                measured.append(units / (time.process_time() - start))
    python, ours = (statistics.median(rates[core]) for core in ("python", "native"))
    print(f"{name}: python {python:.4g}/s, native {ours:.4g}/s, {ours / python:.2f}x", flush=True)


def figures(args: argparse.Namespace) -> Iterator[tuple[str, Callable[[], Callable[[], int]]]]:
    """Each figure's name and what makes its work (made only when it is measured)."""
    for preset in ("classic", "extended", "junior"):
        yield f"{preset} board: placements laid, answered, taken back", partial(board_paths, preset)
    for preset in PRESETS:
        yield f"{preset} 2p greedy hands", partial(greedy_hands, preset, 2, args.hands)
    yield "classic 4p greedy hands", partial(greedy_hands, "classic", 4, args.hands)
    for preset in PRESETS:
        yield (
            f"{preset} 2p greedy hands in sim's playouts",
            partial(greedy_playouts, preset, 2, args.playouts),
        )
    yield (
        "classic 4p greedy hands in sim's playouts",
        partial(greedy_playouts, "classic", 4, args.playouts),
    )
    for preset, players in (("classic", 2), ("classic", 4), ("extended", 4), ("junior", 2)):
        name = f"{preset} {players}p sim moves (1,200 simulations)"
        yield name, partial(sim_moves, preset, players, args.moves)
    yield (
        "classic 4p sim moves (1,200 simulations, to the end of the hand)",
        partial(sim_moves, "classic", 4, args.moves, "hand"),
    )
    yield "random actions through the public API", partial(random_actions, 2000)
    yield "observation tensors", partial(tensors, 200)
    yield (
        "OpenSpiel decisions reading the observation tensor",
        partial(openspiel_decisions, 1000),
    )


Figures = Callable[[argparse.Namespace], Iterator[tuple[str, Callable[[], Callable[[], int]]]]]
"""What :func:`figures` is: each figure's name and what makes its work, from the options."""


def compare(
    description: str, figures: Figures, options: Callable[[argparse.ArgumentParser], None]
) -> None:
    """The command line of a side-by-side benchmark: ``--runs`` and ``--only``, and the
    ``options`` of its figures; then each figure measured on both cores."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--runs", type=int, default=5, help="timed runs per figure and core")
    parser.add_argument("--only", default="", help="only the figures whose names hold this")
    options(parser)
    args = parser.parse_args()
    if not native.built():
        sys.exit(f"no native core to compare: {native.core()}")
    print(f"on CPython {sys.version.split()[0]}, {sys.executable}")
    for name, work in figures(args):
        if args.only in name:
            side_by_side(name, work(), args.runs)


def main() -> None:
    def options(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--hands", type=int, default=20, help="greedy hands in a run")
        parser.add_argument(
            "--playouts", type=int, default=200, help="greedy hands played out in a run"
        )
        parser.add_argument("--moves", type=int, default=3, help="sim moves in a run")

    compare(__doc__.splitlines()[0], figures, options)


if __name__ == "__main__":
    main()
