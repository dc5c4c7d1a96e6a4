"""What the others' racks are worth to ``sim``'s choices, and how much of that its sampled
worlds win back: the question behind every inference idea, answered in minutes.

    python benchmarks/inference.py --players 4 --horizon hand --hands 8 --seed 100

Experts play ``--hands`` seeded classic hands. At each of seat 0's moves that ``sim``
would simulate (:meth:`~triominos.bots.sim.SimBot.plan`, the bot's own path), the
candidates' *true* values are their means over ``--truth`` playouts in worlds holding
the true racks (only the pool's order shuffled), played as ``sim`` plays them out. Each
way of choosing below picks one candidate; its loss is how far the true values put its
choice below the true best, in points of the simulation's own value (the seat's margin,
the match won or its chance). It prints, one figure a line:

- ``decisions: N`` — the moves measured;
- ``loss of the static best: L`` — the static evaluation's choice;
- ``loss of sim: L`` — ``sim``'s simulation at ``--budget`` simulations, in the worlds
  it samples from what the seat has seen;
- ``loss of sim reading choices: L`` — the same, its worlds weighed by how likely each
  other seat's last three placements were in them (``read_choices=3``,
  :mod:`triominos.bots.opponents`);
- ``loss of the clairvoyant: L`` — the same simulation in worlds holding the true racks
  (:mod:`triominos.bots.clairvoyant`): what is left is noise and the pool's order;
- ``... less sim: D ± E`` — each way's loss less ``sim``'s, paired by decision, with
  its standard error;
- ``pips of the true racks among sim's worlds, percentile: P`` — how the others' true
  racks compare with those of ``sim``'s worlds in points (the tiles' values, which a
  player who goes out collects): for each other seat at each decision, the share of
  :data:`CALIBRATION` sampled worlds whose rack of that seat holds fewer points (ties
  count half), averaged. 0.50 when the worlds are drawn as the true racks are; below,
  the true racks are lighter than the sampled ones;
- ``... among the worlds read by choices, percentile: P`` — the same, each world
  weighed by the likelihood of the others' last three placements in it.

The gap between ``sim`` and the clairvoyant is all that any reading of the others'
racks could win; a way of reading them is worth a match run once it closes a clear part
of that gap here. Against the truth the losses are large and spread wide (one true
world is one draw of the hidden tiles), so compare ways by their paired differences.
Figures are counts over seeded hands, not times: the same seed gives the same figures.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Iterator, Sequence
from typing import NamedTuple

from noise import moves_parser, simulated_moves, some_moves

from triominos.bots.base import Budget
from triominos.bots.expert import choices
from triominos.bots.sampler import World
from triominos.bots.sim import Horizon, Planned, SimBot, Simulation
from triominos.game import LegalAction, Observation
from triominos.rules import PRESETS
from triominos.tiles import TileSet

Candidates = Sequence[tuple[LegalAction, float]]

CALIBRATION = 200
"""Worlds sampled at each decision to place the true racks among them."""

WAYS = ("the static best", "sim", "sim reading choices", "the clairvoyant")
"""The ways of choosing measured, in the order printed."""


class Decision(NamedTuple):
    """One of seat 0's simulated moves, measured."""

    losses: dict[str, float]
    """By way of choosing (:data:`WAYS`)."""
    sampled: list[float]
    """Each other seat's true rack, its percentile in points among sim's worlds."""
    read: list[float]
    """The same among the worlds weighed by the others' last placements."""


def decisions(
    players: int, hands: int, seed: int, horizon: Horizon, budget: int, truth: int
) -> Iterator[Decision]:
    """Each of seat 0's simulated moves over ``hands`` expert hands, measured."""
    sim = SimBot(seed, horizon=horizon, closing=None)
    reader = SimBot(seed, horizon=horizon, closing=None, read_choices=3)
    rules = PRESETS["classic-house"].rules
    for hand, observation, plan in simulated_moves(rules, players, hands, seed, sim):
        yield measured(plan, observation, hand.racks, reader, budget, truth)


def measured(
    plan: Planned,
    observation: Observation,
    racks: Sequence[int],
    reader: SimBot,
    budget: int,
    truth: int,
) -> Decision:
    """One decision measured (see the module docstring)."""
    simulation, candidates = plan
    options = choices(observation)
    seeing = observation._replace(open_racks=tuple(racks))
    clairvoyant = _simulation(reader, seeing, options)  # (open racks: no choices to read)
    reading = _simulation(reader, observation, options)
    true_values = _true_values(clairvoyant, candidates, truth)
    best = max(true_values)
    actions = [option.action for option, _ in candidates]

    def loss(chosen: LegalAction) -> float:
        return best - true_values[actions.index(chosen.action)]

    def chosen_by(way: Simulation) -> LegalAction:
        return way.run(candidates, Budget(simulations=budget))[0].option

    found = {
        "the static best": loss(candidates[0][0]),
        "sim": loss(chosen_by(simulation)),
        "sim reading choices": loss(chosen_by(reading)),
        "the clairvoyant": loss(chosen_by(clairvoyant)),
    }
    rng = random.Random(f"calibration/{observation.seen_count}")
    worlds = [(reading.sampler.sample(rng), 1.0) for _ in range(CALIBRATION)]
    assert reading.choices is not None, "the reader reads the others' choices"
    read = reading.choices.reweighed(worlds)
    tile_set = observation.board.tile_set
    return Decision(
        found, _percentiles(worlds, racks, tile_set), _percentiles(read, racks, tile_set)
    )


def _percentiles(
    worlds: Sequence[tuple[World, float]], racks: Sequence[int], tile_set: TileSet
) -> list[float]:
    """For each other seat holding tiles, the weighted share of ``worlds`` in which its
    rack holds fewer points (what a player going out collects for it) than its true rack
    (ties count half)."""
    points = tile_set.value_of
    total = sum(weight for _, weight in worlds)
    found = []
    for seat in range(1, len(racks)):
        if not racks[seat]:
            continue
        true = points(racks[seat])
        below = 0.0
        for world, weight in worlds:
            sampled = points(world.racks[seat])
            below += weight if sampled < true else weight / 2 if sampled == true else 0.0
        found.append(below / total)
    return found


def _simulation(
    bot: SimBot, observation: Observation, options: Sequence[LegalAction]
) -> Simulation:
    """The bot's simulation of ``observation``, which sim simulates."""
    simulation = bot.simulation(observation, options)
    assert simulation is not None, "sim simulated this position, so it is understood"
    return simulation


def _true_values(clairvoyant: Simulation, candidates: Candidates, truth: int) -> list[float]:
    """Each candidate's mean over ``truth`` playouts in the true racks, the same pool orders
    for every candidate, drawn apart from the clairvoyant's own."""
    rng = random.Random(f"truth/{clairvoyant.observation.seen_count}")
    worlds = [clairvoyant.sampler.sample(rng) for _ in range(truth)]
    return [
        statistics.fmean(clairvoyant.play_out(world, option.action) for world in worlds)
        for option, _ in candidates
    ]


def report(measured: Sequence[Decision]) -> None:
    """Print the figures of the module docstring."""
    found = [decision.losses for decision in measured]
    print(f"decisions: {len(found)}")
    for way in WAYS:
        print(f"loss of {way}: {statistics.fmean(row[way] for row in found):.2f}")
    for way in WAYS:
        if way == "sim":
            continue
        differences = [row[way] - row["sim"] for row in found]
        error = statistics.stdev(differences) / math.sqrt(len(found)) if len(found) > 1 else 0.0
        print(f"{way} less sim: {statistics.fmean(differences):.2f} ± {error:.2f}")
    sampled = [share for decision in measured for share in decision.sampled]
    read = [share for decision in measured for share in decision.read]
    for worlds, shares in (("sim's worlds", sampled), ("the worlds read by choices", read)):
        print(f"pips of the true racks among {worlds}, percentile: {statistics.fmean(shares):.3f}")


def main() -> None:
    parser = moves_parser(__doc__.splitlines()[0])
    parser.add_argument("--budget", type=int, default=1200, help="simulations a move")
    parser.add_argument("--truth", type=int, default=1000, help="playouts a candidate's truth")
    options = parser.parse_args()
    if options.budget < 1 or options.truth < 1:
        parser.error("--budget and --truth are at least 1 playout")
    found = decisions(
        options.players,
        options.hands,
        options.seed,
        options.horizon,
        options.budget,
        options.truth,
    )
    report(some_moves(list(found)))


if __name__ == "__main__":
    main()
