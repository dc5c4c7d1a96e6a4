"""What the sampling noise of ``sim``'s simulation costs it, by budget: whether ``sim`` is
short of simulations, measured in minutes instead of a 400-match run.

    python benchmarks/noise.py --players 4 --horizon hand --hands 8 --seed 100

Experts play ``--hands`` seeded classic hands. At each of seat 0's moves that ``sim``
would simulate (:meth:`~triominos.bots.sim.SimBot.plan`, the bot's own path), every
candidate is played out in the same ``--worlds`` sampled worlds (or, where the candidates
are few, twice what the largest budget gives each one): the second half of them is the
reference (the candidates' values as the simulation would find them with no end
of worlds), and the first half is cut into runs of as many worlds as each budget gives a
candidate. The loss of a choice is how far the reference puts it below the reference's
best; where the consistent worlds are so few that sim plays each of them once at a
budget, its choice there is the true best, a loss of 0. It prints, one figure a line:

- ``decisions: N`` — the moves measured;
- ``loss of the static best: L`` — the mean loss of the static evaluation's choice, in
  points of the simulation's own value (the seat's margin, the match won or its chance);
- ``loss at B simulations: L`` — the mean over the decisions of the loss of the choice
  that the simulation makes with ``B`` simulations a move (over every run of the first
  half), for each of ``--budgets``.

This is the simulation's noise only, in its own terms: what any number of simulations
could win at most, not how much stronger the bot would play (its greedy playouts and its
sampled worlds are the same at every budget). The reference is noisy too, so a loss is
measured against the reference's best, which is a little above the true best.
Figures are counts over seeded hands, not times: the same seed gives the same figures.
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections.abc import Iterator, Sequence
from typing import NamedTuple, TypeVar

from triominos.bots.base import Budget
from triominos.bots.expert import ExpertBot
from triominos.bots.sim import Horizon, Planned, SimBot
from triominos.game import Deal, Hand, Observation
from triominos.rules import PRESETS, Rules

Measured = TypeVar("Measured")
"""What a benchmark measured at one move."""

Values = list[list[float]]
"""A decision's playouts: by candidate (static best first), the value in each world."""


class Decision(NamedTuple):
    """One of seat 0's simulated moves, measured."""

    values: Values
    exact: int
    """The fewest simulations at which sim plays every consistent world once instead of
    sampling (no noise), as :meth:`~triominos.bots.sim.Simulation.run` decides; 0: never."""


def decisions(
    rules: Rules,
    players: int,
    hands: int,
    seed: int,
    horizon: Horizon,
    worlds: int,
    budgets: Sequence[int],
) -> Iterator[Decision]:
    """Every candidate of each of seat 0's simulated moves played out in ``worlds`` worlds,
    over ``hands`` hands between experts."""
    bot = SimBot(seed, horizon=horizon, closing=None)
    for _, _, plan in simulated_moves(rules, players, hands, seed, bot):
        yield measured(plan, worlds, budgets)


def simulated_moves(
    rules: Rules, players: int, hands: int, seed: int, bot: SimBot
) -> Iterator[tuple[Hand, Observation, Planned]]:
    """Each of seat 0's moves that ``bot`` would simulate, with the true hand and the
    seat's view, over ``hands`` seeded hands that experts play (seat 0 too: every bot
    measured meets the same positions)."""
    expert = ExpertBot()
    for number in range(hands):
        rng = random.Random(seed + number)
        hand = Hand(rules, Deal.shuffle(rules, players, rng), rng=rng)
        while not hand.is_over:
            observation = hand.observe(hand.to_move)
            if hand.to_move == 0:
                plan = bot.plan(observation)
                if isinstance(plan, Planned):
                    yield hand, observation, plan
            hand.apply(expert.act(observation))


def measured(plan: Planned, worlds: int, budgets: Sequence[int]) -> Decision:
    """The planned candidates, each played in the same ``worlds`` sampled worlds, or in
    enough for one run of the largest budget in each half."""
    simulation, candidates = plan
    count = len(candidates)
    worlds = max(worlds, 2 * -(-max(budgets) // count))
    exact = next(
        (
            budget
            for budget in sorted(budgets)
            if simulation.every_world(count, Budget(simulations=budget)) is not None
        ),
        0,
    )
    values: Values = [[] for _ in candidates]
    for _ in range(worlds):
        world = simulation.sampler.sample(simulation.rng)
        for row, (option, _) in zip(values, candidates, strict=True):
            row.append(simulation.play_out(world, option.action))
    return Decision(values, exact)


def reference(values: Values) -> list[float]:
    """Each candidate's mean over the second half of the worlds."""
    half = len(values[0]) // 2
    return [statistics.fmean(row[half:]) for row in values]


def losses(values: Values, budget: int) -> list[float]:
    """The loss of the choice made in each run of the first half of the worlds that
    ``budget`` simulations give every candidate (see the module docstring)."""
    found = reference(values)
    best = max(found)
    run = -(-budget // len(values))
    chosen = []
    for start in range(0, len(values[0]) // 2 - run + 1, run):
        sums = [sum(row[start : start + run]) for row in values]
        chosen.append(max(range(len(values)), key=sums.__getitem__))
    return [best - found[number] for number in chosen]


def report(measured: Sequence[Decision], budgets: Sequence[int]) -> None:
    """Print the figures of the module docstring."""
    static = [max(found) - found[0] for found in (reference(d.values) for d in measured)]
    by_budget = [[lost(decision, budget) for decision in measured] for budget in budgets]
    print(f"decisions: {len(measured)}")
    print(f"loss of the static best: {statistics.fmean(static):.2f}")
    for budget, found in zip(budgets, by_budget, strict=True):
        print(f"loss at {budget} simulations: {statistics.fmean(found):.2f}")


def lost(decision: Decision, budget: int) -> float:
    """The mean loss of ``decision``'s choices at ``budget`` (:func:`losses`); 0 where sim
    plays every world once, its choice then the true best."""
    if decision.exact and budget >= decision.exact:
        return 0.0
    return statistics.fmean(losses(decision.values, budget))


def simulations(text: str) -> list[int]:
    """``--budgets``: simulations a move, comma-separated."""
    try:
        budgets = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"budgets are whole numbers, not {text!r}") from None
    if min(budgets) < 1:
        raise argparse.ArgumentTypeError(f"a budget is at least 1 simulation, not {min(budgets)}")
    return budgets


def moves_parser(description: str) -> argparse.ArgumentParser:
    """The options of a benchmark over seat 0's simulated moves (:func:`simulated_moves`);
    the benchmark adds its own."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--horizon", choices=("turn", "hand"), default="hand")
    parser.add_argument("--hands", type=int, default=8, help="expert hands to measure")
    parser.add_argument("--seed", type=int, default=100)
    return parser


def some_moves(measured: list[Measured]) -> list[Measured]:
    """``measured``, unless no move was simulated: then the benchmark stops, saying so."""
    if not measured:
        raise SystemExit("no move of seat 0 was simulated in these hands: play more --hands")
    return measured


def main() -> None:
    parser = moves_parser(__doc__.splitlines()[0])
    parser.add_argument("--worlds", type=int, default=2000, help="worlds a decision, at least")
    parser.add_argument(
        "--budgets", type=simulations, default="600,1200,2400", help="simulations a move"
    )
    options = parser.parse_args()
    rules = PRESETS["classic-house"].rules
    measured = some_moves(
        list(
            decisions(
                rules,
                options.players,
                options.hands,
                options.seed,
                options.horizon,
                options.worlds,
                options.budgets,
            )
        )
    )
    report(measured, options.budgets)


if __name__ == "__main__":
    main()
