"""The expert bot: a static evaluation of every legal action, its weights tuned by self-play.

Greedy takes the most points now. Expert adds what a Triominos player weighs besides:

- **threat**: the bonus points the opponents can expect to take next, on the hexagon and
  bridge cells left open. A cell's chance is the chance that the opponents' racks hold
  one of the *unseen* tiles that fit it (hypergeometric over the tiles not on the table
  and not in the seat's own rack). A cell that only tiles on the table or in one's own
  rack fit is safe: that is *denial*.
- **chance**: the bonus one can expect to take oneself next turn, on cells a tile of
  the rack fits and the opponents are unlikely to fill first.
- **the tiles kept**: how many (going out ends the hand with a bonus and the others'
  racks), their value (what a player who goes out scores from us), how many fit
  nowhere (they mean draws at 5 points each), and whether a last tile still fits
  (planning to go out).
- **going out** is scored as it is settled: the going-out bonus plus the opponents'
  expected rack totals.
- **drawing on purpose**: a draw is worth its penalty plus the expected best of what the
  rack can do with one more tile (the mean over the unseen tiles), so the bot draws
  when every placement sets up a big bonus for the opponents and a fresh tile is likely
  to do better.

Every feature is computed from the observation alone. The weights were tuned by
self-play, not guessed: :func:`tune` is a coordinate search that moves one weight a step
at a time and keeps the step when the mean hand margin over ``greedy`` grows, on
duplicate deals (the same deals, each played with expert in every seat, for every
weight tried). Each run below took under five minutes on two cores, classic rules,
seed 1.

Two players (:data:`TUNED`), 400 deals::

    python -m triominos.bots.expert --deals 400 --rounds 1 --jobs 2 \
        --start threat=0,chance=0,tiles=0,rack_value=0,stuck=0,last_tile=0,draw=0
    # +19.4 -> +73.0: chance 0.2, tiles 1, rack_value 0.1, stuck -1.5, draw 3
    python -m triominos.bots.expert --deals 400 --rounds 1 --jobs 2 \
        --start chance=0.2,tiles=1,rack_value=0.1,stuck=-1.5,draw=3
    # -> +93.5: chance 0.4, tiles 2
    python -m triominos.bots.expert --deals 400 --rounds 1 --jobs 2 --names chance,tiles,draw \
        --start chance=0.4,tiles=2,rack_value=0.1,stuck=-1.5,draw=3
    # -> +96.4: chance 0.6 (tiles 1 or 3 and draw 0 or 6 all do worse)

What the search found is a style, not a nudge: draw on purpose and keep a full rack,
fishing for the tiles that complete hexagons and bridges the opponent cannot (about 20
draws and 6 bonuses a hand against greedy's 1), while the threat weight stays at 0.

Why it fishes so much: with these weights a draw costs nothing in the evaluation (its
5-point penalty against ``draw`` +3 and ``tiles`` +2 for the tile it adds) and keeps
today's best placement open, since classic rules let a player draw and then place in
the same turn. So a draw is worth at least that placement, less ``stuck`` for drawn
tiles that would fit nowhere, plus the chance that the fresh tile does better, and
expert draws up to the three a turn allows unless a placement is clearly good.
``benchmarks/fishing.py`` (50 duplicate deals against greedy, seed 1): 24.5 voluntary
draws a hand, the rack at 23 tiles at its fullest (median), and a quarter of the hands
ending with 15 tiles or more in it, at -118 points, the others at +162. Measured as a
strategy it pays: no voluntary draw with 15, 12 or 9 tiles in the rack already, the
mean hand margin over greedy fell from +78 to +58, +41 and +31 (standard errors 14 to
20) on 80 duplicate hands (``benchmarks/fishing.py --deals 40 --seed 1000 --cap 15``).
Sim, which chooses its placement better after the draws, fishes harder still: at two
players it draws whenever the rules let it (:func:`triominos.bots.sim.drawn_on_purpose`).

Three players (:data:`TUNED_THREE`), 400 deals::

    python -m triominos.bots.expert --players 3 --deals 400 --rounds 1 --jobs 2 \
        --start chance=0.6,tiles=2,rack_value=0.1,stuck=-1.5,draw=3
    # +9.6 -> +14.1: tiles 1, last_tile 4 (the four-player weights make +6 at three)

Four players or more (:data:`TUNED_MANY`), tuned at four players, 400 deals::

    python -m triominos.bots.expert --players 4 --deals 400 --rounds 2 --jobs 2 \
        --start draw=-10
    # -2.6 -> +3.5: threat -0.2, chance 0.2, rack_value -0.05, stuck -1.5, draw -5.5
    python -m triominos.bots.expert --players 4 --deals 400 --rounds 1 --jobs 2 \
        --names threat,draw,chance,stuck,last_tile \
        --start threat=-0.2,chance=0.2,rack_value=-0.05,stuck=-1.5,draw=-5.5
    # -> +4.2: stuck -3, draw -2.5

With three opponents, any of whom may go out and collect one's rack, fishing loses (the
two-player weights make -20 a hand at four players): the tuned style keeps the rack
playable and rarely draws on purpose. ``--check`` measures one set of weights.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import math
import multiprocessing
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, fields, replace
from typing import Any, NamedTuple

from triominos import native
from triominos.board import Board, Placement
from triominos.bots.base import GreedyBot
from triominos.game import Action, Deal, Draw, Hand, LegalAction, Observation, Pass, StarterDraw
from triominos.rules import PRESETS, Rules
from triominos.tiles import indices


@dataclass(frozen=True, slots=True)
class Weights:
    """How much each feature of a position is worth, in points (added to the score)."""

    threat: float = 0.0
    """Per point of bonus the opponents can expect to take next."""
    chance: float = 0.0
    """Per point of bonus the seat can expect to take on its next turn."""
    tiles: float = 0.0
    """Per tile kept in the rack."""
    rack_value: float = 0.0
    """Per point of value kept in the rack."""
    stuck: float = 0.0
    """Per tile kept that fits nowhere on the board."""
    last_tile: float = 0.0
    """When a single tile is kept and it fits somewhere: going out is in sight."""
    draw: float = 0.0
    """Added to the value of drawing on purpose (beyond its exact penalty)."""


TUNED = Weights(
    threat=0.0, chance=0.6, tiles=2.0, rack_value=0.1, stuck=-1.5, last_tile=0.0, draw=3.0
)
"""The weights for two players, tuned from all zeros (see the module docstring): a margin
of about +96 points a hand over greedy on the tuning deals, where all zeros (greedy plus
the going-out value and drawing on purpose at its bare expected value) made +19."""

TUNED_THREE = Weights(
    threat=0.0, chance=0.6, tiles=1.0, rack_value=0.1, stuck=-1.5, last_tile=4.0, draw=3.0
)
"""The weights for three players, tuned from the two-player ones: +14 points a hand over
greedy (margin over the others' mean) on the tuning deals, where those made +10."""

TUNED_MANY = Weights(
    threat=-0.2, chance=0.2, tiles=0.0, rack_value=-0.05, stuck=-3.0, last_tile=0.0, draw=-2.5
)
"""The weights for four players or more, tuned at four: +4 points a hand over greedy
(margin over the others' mean) on the tuning deals, where the two-player weights lose 20:
with three opponents who may go out and collect one's rack, fishing does not pay."""


def tuned_weights(players: int) -> Weights:
    """The tuned weights for a table of ``players`` (five and six use four's)."""
    return TUNED if players <= 2 else TUNED_THREE if players == 3 else TUNED_MANY


PLAY_ACTIONS = (Placement, Draw, Pass, StarterDraw)
"""The actions the evaluation understands; with others it plays as greedy does."""


def choices(observation: Observation) -> list[LegalAction]:
    """The legal actions of the seat to move; an error when it is not the seat's turn."""
    options = observation.legal_actions()
    if not options:
        raise ValueError("it is not this seat's turn: there is no action to choose")
    return options


def evaluated(rules: Rules) -> bool:
    """Whether the static evaluation models these rules: not Triominos Junior.

    Its features and weights were made for points, not Junior's counters (a card is worth
    1 whatever it shows, a bonus 1 to 3, the bank may run dry), and know neither the joker
    nor a first card laid from the pool.
    """
    return not rules.joker and rules.bank is None and rules.opening != "pool_card"


def understood(observation: Observation, options: Sequence[LegalAction]) -> bool:
    """Whether the evaluation models these rules and every action offered.

    When it does not (Triominos Junior's joker and counters), expert plays as greedy
    does, the most points now (sim simulates Junior without it).
    """
    return evaluated(observation.rules) and all(
        isinstance(option.action, PLAY_ACTIONS) for option in options
    )


class Evaluator:
    """The static evaluation of one seat's options at one moment.

    Built once per decision: it knows the unseen tiles, the opponents' rack sizes and
    works on its own copy of the board (or the ``board`` given, which must equal the
    observation's and which it leaves as it found it). ``weights`` default to the ones
    tuned for the table's player count (:func:`tuned_weights`).
    """

    def __init__(
        self,
        observation: Observation,
        weights: Weights | None = None,
        board: Board | None = None,
    ) -> None:
        if observation.seat is None or observation.rack is None:
            raise ValueError("an evaluation is for a seat, not for a spectator")
        self.observation = observation
        self.weights = tuned_weights(observation.players) if weights is None else weights
        self.rules = rules = observation.rules
        self.board = observation.board.copy() if board is None else board
        self.tile_set = tile_set = self.board.tile_set
        self.rack = observation.rack
        on_table = tile_set.mask(placement.tile for placement in self.board)
        self.unseen = tile_set.full_mask & ~on_table & ~self.rack
        unseen = self.unseen.bit_count()
        seat = observation.seat
        sizes = observation.rack_sizes
        held = min(unseen, sum(size for other, size in enumerate(sizes) if other != seat))
        # no_hit[f]: the chance that the opponents' racks hold none of f given unseen tiles.
        total = math.comb(unseen, held)
        self._no_hit = [math.comb(unseen - f, held) / total for f in range(unseen + 1)]
        self._going_out = float(rules.going_out_bonus)
        if rules.going_out_collects and unseen:
            self._going_out += tile_set.value_of(self.unseen) / unseen * held
        self._figure_points = rules.figure_points
        self._tile_points = rules.tile_values
        self._native = native_valuer(self)

    # --- the evaluation ------------------------------------------------------------

    def ranked(self, options: Sequence[LegalAction]) -> list[tuple[LegalAction, float]]:
        """Every option with its value, best first (ties keep the options' order)."""
        placements = [option for option in options if isinstance(option.action, Placement)]
        scored = [(option, self.placement_value(option)) for option in placements]
        best = max((value for _, value in scored), default=None)
        for option in options:
            if isinstance(option.action, Draw):
                scored.append((option, self.draw_value(option.points, best)))
            elif not isinstance(option.action, Placement):
                scored.append((option, float(option.points)))
        scored.sort(key=lambda pair: -pair[1])
        return scored

    def placement_value(self, option: LegalAction) -> float:
        """Points now plus the value of the position the placement leaves."""
        placement = option.action
        assert isinstance(placement, Placement)
        tile = self.tile_set.index(placement.tile)
        self.board.push_unchecked(placement.cell.id, tile, placement.corners)
        try:
            return option.points + self.position_value(self.rack & ~(1 << tile))
        finally:
            self.board.pop()

    def position_value(
        self,
        rack: int,
        unseen: int | None = None,
        cells: Sequence[BonusCell] | None = None,
        fitting: int | None = None,
    ) -> float:
        """What keeping ``rack`` on the current board is worth, beyond points scored.

        ``cells`` and ``fitting`` are the board's :meth:`bonus_cells` and
        ``board.fitting_tiles`` of tiles that ``rack`` and ``unseen`` are drawn from, when
        the caller has them already: one look at a board serves every rack valued on it
        (:mod:`triominos.bots.opponents` values thousands). On the native core, the same
        sums in C when the board is to be looked at (:func:`native_valuer`).
        """
        if self._native is not None and cells is None and fitting is None:
            value: float = self._native.position_value(
                rack, self.unseen if unseen is None else unseen
            )
            return value
        if not rack:
            return self._going_out
        weights = self.weights
        unseen = self.unseen if unseen is None else unseen
        threat, chance = self.bonus_outlook(rack, unseen, cells)
        kept = rack.bit_count()
        fits = self.board.fitting_tiles(rack) if fitting is None else fitting
        stuck = (rack & ~fits).bit_count()
        value = (
            weights.threat * threat
            + weights.chance * chance
            + weights.tiles * kept
            + weights.rack_value * self.tile_set.value_of(rack)
            + weights.stuck * stuck
        )
        if kept == 1 and not stuck:
            value += weights.last_tile
        return value

    def bonus_outlook(
        self, rack: int, unseen: int, cells: Sequence[BonusCell] | None = None
    ) -> tuple[float, float]:
        """(threat, chance) of keeping ``rack`` (:func:`outlook`), on the board's
        :meth:`bonus_cells` unless given."""
        if cells is None:
            cells = self.bonus_cells(rack | unseen)
        return outlook(cells, rack, unseen, self._no_hit)

    def bonus_cells(self, tiles: int) -> list[BonusCell]:
        """The open cells where a tile of ``tiles`` would make a bonus, each with its
        bonus and which of ``tiles`` fit it, by falling bonus."""
        figure_points = self._figure_points
        cells: dict[int, BonusCell] = {}
        for cell, tile, _, figure in self.board.placement_ids(tiles):
            bonus = figure_points[figure]
            if not bonus:
                continue
            entry = cells.get(cell)
            cells[cell] = BonusCell(bonus, (0 if entry is None else entry.fitting) | 1 << tile)
        return sorted(cells.values(), key=lambda cell: -cell.bonus)

    def draw_value(self, penalty_points: int, best_placement: float | None) -> float:
        """Drawing on purpose: its penalty, then the expected best use of one more tile.

        For each unseen tile (each as likely as the next to be drawn): the better of
        placing it (keeping today's rack) and making today's best placement while
        keeping it too.
        """
        unseen = self.unseen
        count = unseen.bit_count()
        if not count:
            return float(penalty_points)
        weights, values, points_of = self.weights, self.tile_set.values, self._tile_points
        fits = self.board.fitting_tiles(unseen)
        total = 0.0
        for tile in indices(unseen):
            best = -math.inf
            if best_placement is not None:
                best = best_placement + weights.tiles + weights.rack_value * values[tile]
                if not fits >> tile & 1:
                    best += weights.stuck
            if fits >> tile & 1:
                rest = unseen & ~(1 << tile)
                for cell, _, corners, figure in list(self.board.placement_ids(1 << tile)):
                    points = points_of[tile] + self._figure_points[figure]
                    self.board.push_unchecked(cell, tile, corners)
                    try:
                        value = points + self.position_value(self.rack, rest)
                    finally:
                        self.board.pop()
                    best = max(best, value)
            if best == -math.inf:  # nothing fits and nothing was placeable: draw again
                best = float(penalty_points) + weights.tiles + weights.rack_value * values[tile]
            total += best
        return penalty_points + weights.draw + total / count


_SEARCH = (
    importlib.import_module("triominos._search")
    if importlib.util.find_spec("triominos._search") is not None
    else None
)
"""The native evaluation (``_search.pyx``), where it was built."""


def native_valuer(evaluator: Evaluator) -> Any | None:
    """The native :meth:`Evaluator.position_value` of ``evaluator``
    (``triominos._search.Valuer``), or None where it runs in Python: the native core is
    off (the sim playouts' switch, :func:`triominos.native.playout`, so that
    :func:`triominos.native.running_on` turns both), or was built without it."""
    if _SEARCH is None or native.playout() is None:
        return None
    return _SEARCH.Valuer(evaluator)


class BonusCell(NamedTuple):
    """An open cell where a tile would make a bonus (:meth:`Evaluator.bonus_cells`)."""

    bonus: int
    fitting: int
    """The tiles looked at that fit it and make the bonus."""


def outlook(
    cells: Sequence[BonusCell], rack: int, unseen: int, no_hit: Sequence[float]
) -> tuple[float, float]:
    """(threat, chance): the bonus the opponents can expect to take next, and the one
    the seat can expect on its next turn if they leave it.

    The opponents take the best bonus they can: ``cells`` by falling bonus
    (:meth:`Evaluator.bonus_cells`), each taken with its chance if no better one was
    (``no_hit[f]``: the chance that their racks hold none of ``f`` unseen tiles). A cell
    that only the seat's own tiles fit is safe: denial.
    """
    threat = chance = 0.0
    untaken = 1.0
    for bonus, fitting in cells:
        theirs = (fitting & unseen).bit_count()
        spared = no_hit[theirs] if theirs else 1.0
        threat += untaken * (1 - spared) * bonus
        untaken *= spared
        if fitting & rack:
            chance = max(chance, bonus * spared)
    return threat, chance


class ExpertBot:
    """Plays the option of highest static value (see the module docstring)."""

    name = "expert"

    def __init__(self, weights: Weights | None = None) -> None:
        self.weights = weights  # None: the tuned weights for each table's player count

    def act(self, observation: Observation) -> Action:
        options = choices(observation)
        if len(options) == 1:
            return options[0].action
        if not understood(observation, options):
            return _GREEDY.act(observation)
        return Evaluator(observation, self.weights).ranked(options)[0][0].action


_GREEDY = GreedyBot()


# --- tuning by self-play ------------------------------------------------------------


def duplicate_margin(
    weights: Weights, rules: Rules, players: int, deals: int, seed: int, jobs: int = 1
) -> float:
    """Expert's mean hand margin over greedy on duplicate deals.

    Deal ``d`` is shuffled from ``f"{seed}/{d}"`` and played ``players`` times, expert
    taking each seat in turn and greedy the others; the margin of a hand is expert's
    points minus the mean of the others'. The same deals for every weight make two
    weights' results comparable with far less noise than fresh deals would. ``jobs``
    processes share the deals.
    """
    numbers = range(deals)
    if jobs <= 1:
        return _deal_margins(weights, rules, players, seed, numbers) / deals
    with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
        parts = [numbers[start::jobs] for start in range(jobs)]
        runs = [pool.submit(_deal_margins, weights, rules, players, seed, part) for part in parts]
        return sum(run.result() for run in runs) / deals


def _deal_margins(
    weights: Weights, rules: Rules, players: int, seed: int, numbers: Sequence[int]
) -> float:
    """The sum over deals ``numbers`` of expert's mean margin on each (duplicate_margin)."""
    expert, greedy = ExpertBot(weights), GreedyBot()
    total = 0.0
    for number in numbers:
        deal = Deal.shuffle(rules, players, random.Random(f"{seed}/{number}"))
        for seat in range(players):
            hand = Hand(rules, deal, rng=random.Random(f"{seed}/{number}/starter"))
            while not hand.is_over:
                bot = expert if hand.to_move == seat else greedy
                hand.apply(bot.act(hand.observe(hand.to_move)))
            others = sum(hand.points) - hand.points[seat]
            total += (hand.points[seat] - others / (players - 1)) / players
    return total


STEPS = Weights(
    threat=0.2, chance=0.2, tiles=1.0, rack_value=0.1, stuck=1.5, last_tile=4.0, draw=3.0
)
"""The first step of :func:`tune` for each weight; halved after every round."""


def tune(
    rules: Rules,
    *,
    players: int = 2,
    deals: int = 300,
    rounds: int = 2,
    seed: int = 1,
    start: Weights | None = None,
    names: Sequence[str] | None = None,
    jobs: int = 1,
    log: Callable[[str], None] = print,
) -> Weights:
    """Coordinate search for the weights that beat greedy by the most.

    Each round tries each weight of ``names`` (all by default) one step up, then one
    step down (:data:`STEPS`, halved each round), keeping a change when
    :func:`duplicate_margin` on the same deals improves. Deterministic for a seed.
    """
    names = [field.name for field in fields(Weights)] if names is None else list(names)
    best = tuned_weights(players) if start is None else start
    best_score = duplicate_margin(best, rules, players, deals, seed, jobs)
    log(f"start {best} margin {best_score:.2f}")
    for round_number in range(rounds):
        scale = 0.5**round_number
        for name in names:
            step = getattr(STEPS, name) * scale
            for direction in (1, -1):
                trial = replace(best, **{name: getattr(best, name) + direction * step})
                score = duplicate_margin(trial, rules, players, deals, seed, jobs)
                log(f"round {round_number} {name}={getattr(trial, name):.3f}: {score:.2f}")
                if score > best_score:
                    best, best_score = trial, score
                    break
    log(f"tuned {best} margin {best_score:.2f}")
    return best


def parse_weights(text: str, base: Weights = Weights()) -> Weights:
    """Weights from ``"threat=-0.4,draw=2"`` (the others from ``base``, by default 0)."""
    changes: dict[str, float] = {}
    names = {field.name for field in fields(Weights)}
    for item in filter(None, (part.strip() for part in text.split(","))):
        name, _, value = item.partition("=")
        if name not in names:
            raise ValueError(f"no weight {name!r}; weights are {', '.join(sorted(names))}")
        changes[name] = float(value)
    return replace(base, **changes)


def main(arguments: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Tune the expert bot's weights by self-play.")
    parser.add_argument("--preset", default="classic", choices=sorted(PRESETS))
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument(
        "--start", default="", help="weights to start from, like threat=-0.4 (others 0)"
    )
    parser.add_argument("--names", default="", help="weights to tune, comma-separated")
    parser.add_argument("--check", action="store_true", help="only measure the start weights")
    options = parser.parse_args(arguments)
    rules = PRESETS[options.preset].rules
    weights = parse_weights(options.start) if options.start else tuned_weights(options.players)
    began = time.perf_counter()
    if options.check:
        margin = duplicate_margin(
            weights, rules, options.players, options.deals, options.seed, options.jobs
        )
        print(f"{weights}: {margin:.2f} points a hand over greedy")
    else:
        tune(
            rules,
            players=options.players,
            deals=options.deals,
            rounds=options.rounds,
            seed=options.seed,
            start=weights,
            names=[name for name in options.names.split(",") if name] or None,
            jobs=options.jobs,
        )
    print(f"time: {time.perf_counter() - began:.1f} s")


if __name__ == "__main__":
    main()
