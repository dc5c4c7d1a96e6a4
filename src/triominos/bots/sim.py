"""The sim bot: candidate placements played out in the same sampled worlds.

This is Macondo's recipe for Scrabble, applied to Triominos:

0. with two players and an empty pool nothing is hidden: the bot searches the rest of
   the hand exactly (:mod:`triominos.bots.endgame`) and plays the solved move, unless
   the search needs more than its node limit (``endgame``; ``sim-v1`` never searches);
1. the static evaluation (:mod:`triominos.bots.expert`) values every legal action. At
   two and three players, where a draw keeps the turn, the bot draws on purpose
   whenever the rules let it, unless a placement goes out (*fishing*, up to
   :data:`FISHING` players; ``sim-v1`` does not): a draw keeps every placement open for
   later in the turn, and takes a tile the others cannot have. Measured with
   ``benchmarks/duel.py`` at 600 simulations a move, on duplicate deals, in points a
   hand: at two players (100 deals) fishing made +121 against ``sim-v1``, +165 against
   ``expert`` and +265 against ``greedy``, where ``sim`` without it made +8, +51 and
   +185; at three players (100 deals) +75 against two experts, where without it +42.
   At four players, where three others may go out and collect the rack, it lost (-7
   against three experts, where without it +8, on 60 deals), so from four players on
   the bot draws when the evaluation's best is a draw: its weights price the fishing
   that follows, which greedy playouts never do, and measured, a simulation that
   second-guessed the draw lost to plain ``expert``;
2. otherwise the best few placements (:data:`CANDIDATES`, plus greedy's choice if it
   is not among them) go on to the simulation;
3. worlds are sampled from what the seat has seen (:mod:`triominos.bots.sampler`): the
   opponents' racks and the pool's order, read from their draws and passes (and, not in
   ``sim-v1``, from the bonuses their placements passed up: ``read_placements``). Where
   the consistent worlds are no more than the budget would sample (a small pool, or an
   empty one at three players or more), every one is played once instead, each counted
   by its weight (``exact_worlds``; ``sim-v1`` samples). Not by default: the worlds
   can also be weighed by how likely the others' last placements were in them, had
   they chosen as expert does (``read_choices``, :mod:`triominos.bots.opponents`);
   against three experts, where that model is exact, it won no more matches;
4. in each world, each candidate is played and the others play greedy's moves until
   the seat begins its next turn (``horizon="turn"``, the default; a candidate that
   draws plays greedy's move for the rest of the seat's turn) or to the end of the
   hand (``horizon="hand"``, the seat playing greedy too). A candidate's value in a
   world is the seat's points from here less the mean of the others' (settlement
   included), plus ``win_value`` (:data:`~triominos.bots.outcome.WIN_VALUE`) when the
   hand ends the match won (minus it, lost); with ``"turn"``, plus what the seat's next
   turn is worth: its best placement's points and the static value of the rack it
   keeps. Once the hand in play may end the match (the leader within ``closing``
   points of the target, :data:`CLOSING_REACH`, or ``crowded_closing`` at four players
   and more, :data:`CROWDED_CLOSING_REACH`; or the last hand), every playout goes to
   the end of the hand (``sim-v1`` does not), where the match is won or lost; and a
   hand that ends short of the target is worth the chance to win the match it leaves
   the seat (``equity``, :func:`~triominos.bots.outcome.win_chances`; ``sim-v1`` does
   not), counted as a match won is: ``win_value`` times twice the chance, less one.
   Measured with 600 simulations a move on the same matches (``benchmarks/paired.py``),
   paired difference in points of matches won, against three experts (400 matches a
   row), two (300) or ``sim-v1`` (200 or 120):

   - closing from 200 points against no closing: +3.4 ± 2.5 at four players (36.9%
     against 33.5%, seeds from 700); at three +4.7 ± 2.1 (91.0% against 86.3%), at two
     +3.5 ± 1.6 (98.5% against 95.0%);
   - at four players, closing from 320 points against from 200: +3.0 ± 2.3 (seeds from
     700) and +2.1 ± 2.1 (39.5% against 37.4%, seeds from 900); with ``equity`` too,
     +2.9 ± 2.1 (40.2%, seeds from 900) and +2.0 ± 2.3 (39.0% against 37.0%, seeds
     from 1100);
   - at three players, closing from 320 against from 200 (so kept at 200): -2.7 ± 2.0
     (84.3% against 87.0%, seeds from 1100); with ``equity`` too, -1.7 ± 2.1 (seeds
     from 1100) and -2.7 ± 2.3 (seeds from 900); at two, with ``equity`` too, +0.8 ±
     2.5 (95.8% against 95.0%, seeds from 1100); ``equity`` with closing from 200 is
     not measured apart at two and three players;
   - not kept: closing from the first hand on (``crowded_closing=1000``, with
     ``equity``), +0.4 ± 2.7; ``win_value=300`` (closing from 320), -0.1 ± 2.3 (both
     at four players, seeds from 900); at four players, seeds from 1500 (where ``sim``
     won 38.2%): 3 candidates instead of 6, each in 200 worlds instead of 100 (in 133
     positions the best of 10 candidates at 1,200 simulations was the static third or
     better 94% of the time), +0.0 ± 2.4; playouts in which every seat also weighs the
     tiles a placement leaves that fit nowhere (the evaluation's ``stuck``: greedy
     chooses expert's placement 74% of the time at four players, this 83%), -0.2 ± 2.7,
     at 60% more time;
5. the candidate with the best mean is played.

Every candidate meets the *same* worlds, pool order included, so a candidate is never
preferred because it drew luckier tiles: the comparison is paired, as in a duplicate
tournament, and far less noisy than independent samples would be. ``"turn"`` measured
as strong as ``"hand"`` at a fifth of the cost (on the same 20 duplicate deals, 300
simulations a move: +49 and +47 points a hand over expert), so it is the default.

Worlds are played with the engine's own rules (:meth:`Hand.resume`) on one copy of the
board, popped back after each playout: nothing is copied per simulation but the racks.

**Triominos Junior** is simulated too, without the static evaluation (tuned for classic
scoring, it knows neither counters nor the joker): every legal action is a candidate,
ranked by counters now (:func:`junior_candidates`): each card laid anywhere it fits,
buying a card, taking the joker back, passing. All are played out to the end of the
hand, whatever the ``horizon``: a Junior match is that one hand, so the playout ends in
what counts (the counters won and the match won or lost), and there is no static value
of a Junior rack to stop at. Greedy players take the joker back when nothing fits, as
the greedy bot does.

The budget (:class:`~triominos.bots.base.Budget`) counts *simulations*, one candidate
played out in one world: ``Budget(simulations=600)`` with 6 candidates is 100 worlds.
With a number of simulations the bot is deterministic: the worlds come from a random
generator seeded by the bot's seed and the position (hand number, events so far, seat),
so the same seed and budget give the same move in the same position, whatever was
asked before. A time budget plays worlds until the time is up (at least one).
"""

from __future__ import annotations

import bisect
import itertools
import math
import random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from typing import Literal, NamedTuple

from triominos import native
from triominos.board import Placement
from triominos.bots.base import Budget, GreedyBot
from triominos.bots.endgame import NODE_LIMIT, solvable, solve
from triominos.bots.expert import Evaluator, ExpertBot, Weights, choices, evaluated, understood
from triominos.bots.opponents import ChoiceModel
from triominos.bots.outcome import WIN_VALUE, Played, outcome
from triominos.bots.sampler import UnsupportedObservationError, World, WorldSampler
from triominos.game import (
    BOARD_ACTIONS,
    DRAWS,
    Action,
    Draw,
    Hand,
    LegalAction,
    Observation,
    Pass,
    TakeJoker,
    match_ends,
    may_draw,
)
from triominos.lattice import Cell

DEFAULT_BUDGET = Budget(simulations=1200)
"""What ``sim`` thinks per move when not told (the command line's ``--think``; the web
app gives it a second instead): some 60 ms on one core of this machine. Measured
against 600, four players against three experts, 800 matches (seeds from 2000 and from
2500): 40.3% of the matches won against 37.3%, +3.0 ± 1.8 paired match by match.
``benchmarks/noise.py`` puts most of the gain at the end of the hand, where the
playouts run longest and spread widest. Over all 2,000 four-player matches measured at
this budget (seeds from 2000, 2500, 3000 and 4000), 40.2% won [38.3, 42.1]."""

CANDIDATES = 6
"""Actions the static evaluation lets through to the simulation."""

FISHING = 3
"""The largest table at which sim draws on purpose whenever it may (:func:`fish`): with
more players, any of whom may go out and collect the rack, it loses (the module
docstring has the figures)."""

EXACT_WORLDS = 1000
"""The most worlds a time budget goes through one by one (``exact_worlds``); a budget in
simulations goes through as many as it would sample."""

OVERSAMPLE = 4
"""Worlds sampled for each one played, when the others' placements are read
(``read_choices``): the likeliest are played, by systematic resampling."""

CHECK_EVERY = 32
"""Worlds between two looks at which candidates a time budget can drop (:meth:`Simulation.run`)."""

CLEAR_MARGIN = 4.0
"""Standard errors of its paired deficit to the leader that drop a candidate under a time
budget. Well above the usual 2 because the test is repeated every :data:`CHECK_EVERY`
worlds: a good move dropped by bad luck costs more than the time it saves."""

Horizon = Literal["turn", "hand"]
"""How far a playout goes: to the seat's next turn (then the static evaluation), or to
the end of the hand."""


class CandidateValue(NamedTuple):
    """A candidate action and what the simulation found it worth."""

    option: LegalAction
    static: float
    """The static evaluation that let it through."""
    mean: float
    """The mean over the worlds of the seat's margin from here (see the module docstring)."""
    simulations: int


class Simulation:
    """Plays candidate actions of one seat out in the same sampled worlds."""

    def __init__(
        self,
        observation: Observation,
        rng: random.Random,
        *,
        horizon: Horizon = "turn",
        weights: Weights | None = None,
        read_placements: bool = False,
        exact_worlds: bool = False,
        win_value: float = WIN_VALUE,
        equity: bool = False,
        read_choices: int = 0,
    ) -> None:
        """``read_placements``: the sampler also reads what the others' placements
        suggest about their racks (:class:`~triominos.bots.sampler.WorldSampler`).
        ``exact_worlds``: where the consistent worlds are no more than the budget would
        sample, play every one of them once, by its weight, instead (:meth:`run`).
        ``read_choices``: weigh the worlds by how likely each other seat's last placements
        (this many at most) were in them (:mod:`triominos.bots.opponents`)."""
        if observation.seat is None:
            raise ValueError("a simulation is for a seat, not for a spectator")
        if horizon == "turn" and not evaluated(observation.rules):
            raise ValueError(
                "these rules have no static evaluation to end a playout at the next turn "
                '(Triominos Junior): play out to the end of the hand, horizon="hand"'
            )
        self.observation = observation
        self.seat = observation.seat
        self.rng = rng
        self.horizon = horizon
        self.exact_worlds = exact_worlds
        self.win_value = win_value
        self.equity = equity
        self.sampler = WorldSampler(observation, placements=read_placements)
        self.choices = (  # (open racks, shown to the clairvoyant bot, leave nothing to read)
            ChoiceModel(observation, self.sampler.unseen, depth=read_choices)
            if read_choices and observation.open_racks is None
            else None
        )
        self.board = self.sampler.board  # the replayed copy: ours to push and pop
        self.evaluator = Evaluator(observation, weights, self.board)
        self._out = _gone_out(observation)
        self._last_round_by = _last_card_taker(observation)
        self._starter = observation.starter if observation.starter is not None else self.seat
        playout = native.playout()
        # The same playout in C where the native core has it (triominos.native).
        self._native = (
            None
            if playout is None
            else playout(
                observation.rules,
                self.board,
                self.evaluator,
                observation=observation,
                win_value=win_value,
                equity=equity,
                seat=self.seat,
                starter=self._starter,
                draws=observation.draws,
                out=self._out,
                totals=observation.totals,
                to_the_end=horizon == "hand",
                last_round_by=self._last_round_by,
            )
        )

    def run(
        self, candidates: Sequence[tuple[LegalAction, float]], budget: Budget
    ) -> list[CandidateValue]:
        """Each (option, static value) played out in the same worlds; best mean first.

        With a time budget, the time is a limit, not a quota: every
        :data:`CHECK_EVERY` worlds a candidate whose paired deficit to the leader is
        :data:`CLEAR_MARGIN` standard errors wide is dropped (its mean stays, over the
        worlds it met), and the move is decided as soon as one candidate is left. The
        time saved goes to the candidates still in doubt, and a clear move costs
        milliseconds instead of the whole second. A budget in simulations plays every
        candidate in every world, as before.
        """
        if not candidates:
            return []
        count = len(candidates)
        deadline = None if budget.seconds is None else time.perf_counter() + budget.seconds
        every = self.every_world(count, budget)
        if every is not None:
            return self._run_exact(candidates, every, deadline)
        native_sums = self._native_sums(candidates, budget)
        if native_sums is not None:
            played, sums = native_sums
            return self._ranked(candidates, sums, played)
        played = [0] * count
        sums = [0.0] * count
        # cross[i][j]: the sum over the shared worlds of value_i * value_j, so that the
        # variance of any paired difference is at hand without keeping every value.
        cross = [[0.0] * count for _ in range(count)]
        alive = list(range(count))
        worlds = 0
        batch = CHECK_EVERY if budget.simulations is None else -(-budget.simulations // count)
        sampled = self._worlds(batch)
        while True:
            world = next(sampled)
            values = [0.0] * count
            found = self.play_outs(world, [candidates[number][0].action for number in alive])
            for number, value in zip(alive, found, strict=True):
                values[number] = value
                sums[number] += value
                played[number] += 1
            for i in alive:
                row, value = cross[i], values[i]
                for j in alive:
                    row[j] += value * values[j]
            worlds += 1
            if deadline is None:
                assert budget.simulations is not None
                if worlds * count >= budget.simulations:
                    break
            elif time.perf_counter() >= deadline:
                break
            elif worlds % CHECK_EVERY == 0:
                alive = _still_in_doubt(alive, sums, cross, worlds)
                if len(alive) == 1:
                    break
        return self._ranked(candidates, sums, played)

    @staticmethod
    def _ranked(
        candidates: Sequence[tuple[LegalAction, float]], sums: list[float], played: list[int]
    ) -> list[CandidateValue]:
        """The candidates' values from their sums over the worlds each met, best first."""
        found = [
            CandidateValue(option, static, sums[number] / played[number], played[number])
            for number, (option, static) in enumerate(candidates)
        ]
        # Stable: ties keep the static order. The candidates played to the end come
        # first: a dropped one was shown worse in the worlds it met.
        found.sort(key=lambda value: (-value.simulations, -value.mean))
        return found

    def _native_sums(
        self, candidates: Sequence[tuple[LegalAction, float]], budget: Budget
    ) -> tuple[list[int], list[float]] | None:
        """:meth:`run`'s worlds played and value sums, sampled and played out in C at
        once, where the native core does both and the budget is in simulations (every
        candidate in every world, nothing dropped: the same sums as the loop adds up);
        None where the loop runs in Python, and where :meth:`play_out` was replaced on
        this simulation (tests script its values so)."""
        sampler = self.sampler.native
        if (
            self._native is None
            or "play_out" in vars(self)
            or sampler is None
            or budget.simulations is None
            or self.choices is not None
            or type(self.rng) is not random.Random
        ):
            return None
        count = len(candidates)
        worlds = max(-(-budget.simulations // count), 1)
        actions = [option.action for option, _ in candidates]
        sums = self._native.simulate(sampler, self.rng, actions, worlds)
        return [worlds] * count, sums

    def every_world(self, candidates: int, budget: Budget) -> list[tuple[World, float]] | None:
        """Each consistent world with its weight, where :meth:`run` plays every one of them
        once instead of sampling (``exact_worlds``, and no more of them than ``budget``
        would sample for this many candidates); None where it samples."""
        if not self.exact_worlds:
            return None
        cap = EXACT_WORLDS if budget.simulations is None else budget.simulations // candidates
        every = self.sampler.worlds(max(cap, 1))
        if every and self.choices is not None:
            every = self.choices.reweighed(every)
        return every or None

    def _worlds(self, batch: int) -> Iterator[World]:
        """Sampled worlds, without end. Read by :attr:`choices`, ``batch`` worlds at a
        time are drawn from :data:`OVERSAMPLE` times as many, each as likely as the
        others' placements were in it, the likelihood tempered to keep ``batch`` worlds'
        worth (systematic resampling): the playouts go to the likely worlds, and their
        number, the budget, is unchanged. A world drawn again has its pool shuffled
        again: the placements read say nothing of the pool's order."""
        sample, rng = self.sampler.sample, self.rng
        while True:
            if self.choices is None:
                yield sample(rng)
                continue
            drawn = [(sample(rng), 1.0) for _ in range(batch * OVERSAMPLE)]
            drawn = self.choices.reweighed(drawn, effective=batch)
            weights = list(itertools.accumulate(weight for _, weight in drawn))
            step = weights[-1] / batch
            mark = rng.random() * step
            last = -1
            for _ in range(batch):
                number = bisect.bisect_left(weights, mark)
                world = drawn[number][0]
                if number == last:
                    pool = list(world.pool)
                    rng.shuffle(pool)
                    world = replace(world, pool=tuple(pool))
                last = number
                yield world
                mark += step

    def _run_exact(
        self,
        candidates: Sequence[tuple[LegalAction, float]],
        worlds: list[tuple[World, float]],
        deadline: float | None,
    ) -> list[CandidateValue]:
        """Each candidate played out once in every world, its mean weighted by the
        worlds' weights; a time budget stops at its deadline, the worlds taken in a
        shuffled order so that those played are a fair part of them."""
        if deadline is not None:
            worlds = worlds[:]
            self.rng.shuffle(worlds)
        sums = [0.0] * len(candidates)
        total = 0.0
        played = 0
        actions = [option.action for option, _ in candidates]
        for world, weight in worlds:
            for number, value in enumerate(self.play_outs(world, actions)):
                sums[number] += weight * value
            total += weight
            played += 1
            if deadline is not None and time.perf_counter() >= deadline:
                break
        found = [
            CandidateValue(option, static, sums[number] / total, played)
            for number, (option, static) in enumerate(candidates)
        ]
        found.sort(key=lambda value: -value.mean)  # stable: ties keep the static order
        return found

    def play_outs(self, world: World, actions: Sequence[Action]) -> list[float]:
        """:meth:`play_out` of each action in ``world``: on the native core in one call
        (unless :meth:`play_out` was replaced on this simulation: tests script it)."""
        if self._native is None or "play_out" in vars(self):
            return [self.play_out(world, action) for action in actions]
        found: list[float] = self._native.run(world.racks, world.pool, actions)
        return found

    def play_out(self, world: World, action: Action) -> float:
        """The seat's value of ``action`` in ``world`` (see the module docstring)."""
        if self._native is not None:  # the same playout, the board taken back already
            value: float = self._native.run(world.racks, world.pool, [action])[0]
            return value
        observation, board = self.observation, self.board
        hand = Hand.resume(
            observation.rules,
            board,
            world.racks,
            world.pool,
            to_move=self.seat,
            starter=self._starter,
            draws=observation.draws,
            drawn=observation.drawn,
            out=self._out,
            number=observation.hand_number,
            totals=observation.totals,
            last_round_by=self._last_round_by,
        )
        try:
            hand.apply(action)
            if self.horizon == "hand":
                _greedy_play(hand, lambda: False)
            else:
                # The seat's next turn, not the rest of this one: after a draw (or more)
                # the seat plays greedy's move until its turn ends, as the others do.
                _greedy_play(hand, lambda: hand.to_move == self.seat and not hand.draws)
            outlook = 0.0 if hand.is_over else self._outlook(hand.racks[self.seat])
            return self._value(hand, outlook)
        finally:
            # Undo the playout's placements and joker swaps, last first: a swap leaves
            # the number of tiles on the board as it was, so it is counted by its event.
            for event in hand.events:
                if event.action in BOARD_ACTIONS:
                    board.pop()

    def _value(self, played: Played, outlook: float) -> float:
        """What a playout is worth: its outcome, plus the ``outlook`` of the seat's next
        turn (:meth:`_outlook`; 0 when the hand is over)."""
        value = outcome(self.observation, played, self.seat, self.win_value, self.equity)
        return value + outlook

    def _outlook(self, rack: int) -> float:
        """At the seat's next turn, holding ``rack``: its best placement now plus the
        static value of what it keeps (what its next turn is worth)."""
        board, rules = self.board, self.observation.rules
        best = board.best_placement(rack, rules.figure_points, rules.tile_values)
        if best is None:
            return self.evaluator.position_value(rack) - rules.draw_penalty
        cell, tile, corners, figure = best
        points = rules.tile_values[tile] + rules.figure_points[figure]
        board.push_unchecked(cell, tile, corners)
        try:
            return points + self.evaluator.position_value(rack & ~(1 << tile))
        finally:
            board.pop()


CLOSING_REACH = 200
"""Points from the target within which the leader makes the hand in play one that may
end the match, for ``closing`` at two and three players (a seat makes 236 and 136
points a hand on average between experts): from 320 measured worse at three players
(the module docstring)."""

CROWDED_CLOSING_REACH = 320
"""The same at four players and more (``crowded_closing``): from the second hand of most
matches to 400 (a seat makes 76 points a hand on average, the hand's winner often twice
that), measured better than from 200 and than from the first hand (the module
docstring)."""


def may_end_match(observation: Observation, reach: int) -> bool:
    """Whether the hand in play may end the match: whether it would, finished with the
    leader ``reach`` points further on (see :data:`CLOSING_REACH`); a hand in which the
    gong rang ends it."""
    leader = [max(observation.totals) + reach]
    gong = observation.gong is not None
    return match_ends(observation.rules, leader, observation.hand_number, gong)


def _greedy_play(hand: Hand, stop: Callable[[], bool]) -> None:
    """Every seat plays greedy's move until the hand ends or ``stop()`` says so: its best
    placement; when nothing fits, the joker taken back with the first card that may (the
    greedy bot's 0 counters before a buy's -1), else a draw, else a pass."""
    board, rules = hand.board, hand.rules
    tiles = board.tile_set.tiles
    figure_points, tile_values = rules.figure_points, rules.tile_values
    jokers = board.tile_set.joker is not None
    while hand.phase != "over" and not stop():
        player = hand.to_move
        rack = hand.racks[player]
        best = board.best_placement(rack, figure_points, tile_values)
        if best is not None:
            cell, tile, corners, _ = best
            hand.apply(Placement(tiles[tile], Cell.from_id(cell), corners))
            continue
        swap = next(board.joker_swaps(rack), None) if jokers else None
        if swap is not None:
            hand.apply(TakeJoker(tiles[swap[0]], swap[1]))
            continue
        balance = None if rules.bank is None else hand.totals[player]  # counters to pay with
        hand.apply(_DRAW if may_draw(rules, hand.draws, hand.pool_size, balance) else _PASS)


_DRAW, _PASS = Draw(), Pass()


def _still_in_doubt(
    alive: list[int], sums: list[float], cross: list[list[float]], worlds: int
) -> list[int]:
    """The candidates of ``alive`` not yet shown worse than the leader: each one's paired
    difference to the leader over the ``worlds`` they all met is under
    :data:`CLEAR_MARGIN` standard errors."""
    leader = max(alive, key=lambda number: sums[number])
    kept = []
    for number in alive:
        if number == leader:
            kept.append(number)
            continue
        total = sums[leader] - sums[number]
        squares = cross[leader][leader] + cross[number][number] - 2 * cross[leader][number]
        variance = max(squares - total * total / worlds, 0.0) / (worlds - 1)
        if total <= CLEAR_MARGIN * math.sqrt(variance * worlds):
            kept.append(number)
    return kept


def _gone_out(observation: Observation) -> list[int]:
    """The seats that already emptied their racks (``finish_round``), first out first."""
    empty = {seat for seat, size in enumerate(observation.rack_sizes) if not size}
    if not empty:
        return []
    last_place = {}
    for number, event in enumerate(observation.history):
        if event.action == "place" and event.player in empty:
            last_place[event.player] = number
    return sorted(empty, key=lambda seat: last_place.get(seat, -1))


def _last_card_taker(observation: Observation) -> int | None:
    """The seat that took the pool's last tile, when that began the last round
    (``pool_empty="last_round"``, Junior); None before."""
    if observation.rules.pool_empty != "last_round" or observation.pool_size:
        return None
    draws = [event.player for event in observation.history if event.action in DRAWS]
    return draws[-1] if draws else None


class Planned(NamedTuple):
    """A position that sim decides by simulation (:meth:`SimBot.plan`)."""

    simulation: Simulation
    candidates: list[tuple[LegalAction, float]]
    """The actions played out, each with its static value."""


class SimBot:
    """The strongest bot: static pruning, then simulation (see the module docstring)."""

    def __init__(
        self,
        seed: int | None = None,
        budget: Budget = DEFAULT_BUDGET,
        *,
        candidates: int = CANDIDATES,
        horizon: Horizon = "turn",
        weights: Weights | None = None,
        endgame: int | None = NODE_LIMIT,
        read_placements: bool = True,
        exact_worlds: bool = True,
        fishing: int = FISHING,
        closing: int | None = CLOSING_REACH,
        crowded_closing: int = CROWDED_CLOSING_REACH,
        win_value: int = WIN_VALUE,
        equity: bool = True,
        read_choices: int = 0,
        name: str = "sim",
    ) -> None:
        """``endgame``: the positions an exact endgame search may visit
        (:mod:`triominos.bots.endgame`) before the bot simulates instead; None: never
        search, simulate every move (``sim-v1``). ``fishing``: at tables of at most
        this many players, draw on purpose whenever the rules allow
        (:func:`drawn_on_purpose`; 0, ``sim-v1``: always leave the call to the static
        evaluation). ``read_placements``: sample worlds in
        which the others' placements passed up no bonus (:class:`Simulation`;
        ``sim-v1`` does not). ``exact_worlds``: play every consistent world where they
        are few (:class:`Simulation`; ``sim-v1`` samples). ``closing``: once the hand
        may end the match (:func:`may_end_match`, the leader within this many points of
        the target), play out to the end of the hand, whatever the ``horizon``; None:
        never (``sim-v1``). ``crowded_closing``: the same reach at tables of four
        players and more. ``win_value``: what a playout's match won is worth, in
        points (:func:`~triominos.bots.outcome.outcome`). ``equity``: a playout whose
        hand ends short of the match is worth the chance to win that it leaves (``sim-v1``
        does not). ``read_choices``: play the worlds in which each other seat's last
        placements (this many at most) were likely, had it chosen as expert does
        (:mod:`triominos.bots.opponents`; 0, the default: measured no stronger)."""
        if candidates < 1:
            raise ValueError(f"candidates must be at least 1, not {candidates}")
        if fishing < 0:
            raise ValueError(f"fishing must be 0 (never) or more players, not {fishing}")
        if endgame is not None and endgame < 1:
            raise ValueError(f"endgame must be none or at least 1 position, not {endgame}")
        if closing is not None and closing < 0:
            raise ValueError(f"closing must be none (never) or 0 or more points, not {closing}")
        if crowded_closing < 0:
            raise ValueError(f"crowded_closing must be 0 or more points, not {crowded_closing}")
        if win_value < 0:
            raise ValueError(f"win_value must be 0 or more points, not {win_value}")
        if read_choices < 0:
            raise ValueError(f"read_choices must be 0 (never) or more, not {read_choices}")
        self.name = name
        self.endgame = endgame
        self.read_placements = read_placements
        self.exact_worlds = exact_worlds
        self.fishing = fishing
        self.closing = closing
        self.crowded_closing = crowded_closing
        self.win_value = win_value
        self.equity = equity
        self.read_choices = read_choices
        self.seed = random.SystemRandom().randrange(2**63) if seed is None else seed
        self.budget = budget
        self.candidates = candidates
        self.horizon = horizon
        self.weights = weights
        self._fallback = ExpertBot(weights)

    def __repr__(self) -> str:
        return f"SimBot(seed={self.seed}, budget={self.budget!r}, name={self.name!r})"

    def act(self, observation: Observation) -> Action:
        plan = self.plan(observation)
        if isinstance(plan, Planned):
            return plan.simulation.run(plan.candidates, self.budget)[0].option.action
        return plan

    def plan(self, observation: Observation) -> Action | Planned:
        """What the bot makes of a position before its first playout: the action it plays
        without simulating (the only one, the solved endgame, a draw on purpose, expert's
        move where the static evaluation models neither the rules nor the moment), or the
        simulation and the candidates it plays out. One path for :meth:`act` and for what
        measures it (``benchmarks/noise.py``), so that the two cannot drift apart."""
        options = choices(observation)
        if len(options) == 1:
            return options[0].action
        if self.endgame is not None and solvable(observation):
            solution = solve(observation, self.endgame)
            if solution is not None:
                return solution.action
        if observation.phase == "play" and not evaluated(observation.rules):
            return Planned(self.junior_simulation(observation), junior_candidates(options))
        simulation = self.simulation(observation, options)
        if simulation is None:
            return self._fallback.act(observation)
        ranked = simulation.evaluator.ranked(options)
        decided = drawn_on_purpose(observation, ranked, fishing=self.fishing)
        if decided is not None:
            return decided[0].action
        candidates = shortlist(observation, ranked, self.candidates)
        if len(candidates) == 1:  # (one placement, the rest draws: nothing to compare)
            return candidates[0][0].action
        return Planned(simulation, candidates)

    def simulation(
        self, observation: Observation, options: Sequence[LegalAction]
    ) -> Simulation | None:
        """A simulation of this position pruned by the static evaluation, or None where
        that evaluation models neither the rules nor the moment (the opening, Triominos
        Junior: :meth:`simulate_junior`)."""
        if observation.phase != "play" or not understood(observation, options):
            return None
        try:
            return Simulation(
                observation,
                self.rng_for(observation),
                horizon=self.horizon_for(observation),
                weights=self.weights,
                read_placements=self.read_placements,
                exact_worlds=self.exact_worlds,
                win_value=self.win_value,
                equity=self.equity,
                read_choices=self.read_choices,
            )
        except UnsupportedObservationError:
            return None

    def horizon_for(self, observation: Observation) -> Horizon:
        """The bot's horizon, or the end of the hand once it may end the match
        (``closing``, ``crowded_closing``)."""
        if self.closing is None:
            return self.horizon
        reach = self.crowded_closing if observation.players >= 4 else self.closing
        return "hand" if may_end_match(observation, reach) else self.horizon

    def simulate(
        self,
        simulation: Simulation,
        ranked: Sequence[tuple[LegalAction, float]],
        *,
        budget: Budget | None = None,
    ) -> list[CandidateValue]:
        """The :func:`shortlist` of ``ranked`` (:attr:`candidates` long) valued by
        simulation, best first."""
        chosen = shortlist(simulation.observation, ranked, self.candidates)
        return simulation.run(chosen, self.budget if budget is None else budget)

    def simulate_junior(
        self, observation: Observation, options: Sequence[LegalAction]
    ) -> list[CandidateValue]:
        """Triominos Junior: :func:`junior_candidates` played out to the end of the hand
        in the same worlds, best first (see the module docstring)."""
        return self.junior_simulation(observation).run(junior_candidates(options), self.budget)

    def junior_simulation(self, observation: Observation) -> Simulation:
        """Triominos Junior's simulation, to the end of the hand (the module docstring)."""
        return Simulation(observation, self.rng_for(observation), horizon="hand")

    def rng_for(self, observation: Observation) -> random.Random:
        """The random generator for this position: the same for the same seed and position."""
        return random.Random(
            f"{self.seed}/{observation.hand_number}/{observation.seen_count}/{observation.seat}"
        )


_GREEDY = GreedyBot()


def static_call(
    ranked: Sequence[tuple[LegalAction, float]],
) -> tuple[LegalAction, float] | None:
    """The static evaluation's best when it is no placement (drawing on purpose, in
    play), which sim plays without simulating; None when the simulation decides.

    The evaluation's weights price the fishing that follows a draw, which greedy
    playouts never do: measured, a simulation that second-guessed the draw lost to plain
    ``expert``; and the other way round, a draw simulated beside the placements at four
    players lost 4.5 points of matches won (the README has the run)."""
    return None if isinstance(ranked[0][0].action, Placement) else ranked[0]


def drawn_on_purpose(
    observation: Observation,
    ranked: Sequence[tuple[LegalAction, float]],
    *,
    fishing: int = FISHING,
) -> tuple[LegalAction, float] | None:
    """The draw that sim makes without simulating, with its static value, or None when
    the simulation decides: at a table of at most ``fishing`` players where a draw keeps
    the turn, every draw the rules allow unless a placement goes out (:func:`fish`);
    elsewhere the evaluation's call (:func:`static_call`)."""
    rules = observation.rules
    if observation.players <= fishing and not rules.draw_ends_turn:
        return fish(observation, ranked)
    return static_call(ranked)


def fish(
    observation: Observation, ranked: Sequence[tuple[LegalAction, float]]
) -> tuple[LegalAction, float] | None:
    """A draw on purpose whenever the rules allow one, unless a placement empties the
    rack (going out); None when the simulation decides."""
    draw = next((pair for pair in ranked if isinstance(pair[0].action, Draw)), None)
    if draw is None:
        return None
    rack = observation.rack
    goes_out = rack is not None and rack.bit_count() == 1
    if goes_out and any(isinstance(option.action, Placement) for option, _ in ranked):
        return None
    return draw


def shortlist(
    observation: Observation, ranked: Sequence[tuple[LegalAction, float]], keep: int
) -> list[tuple[LegalAction, float]]:
    """The best ``keep`` placements of ``ranked`` by static value, and greedy's choice if
    it is not among them: the few a simulation can afford to play out, and the one the
    static evaluation may misjudge the most (points now, whatever it leaves)."""
    placements = [pair for pair in ranked if isinstance(pair[0].action, Placement)]
    chosen = placements[:keep]
    greedy_choice = _GREEDY.act(observation)
    if all(option.action != greedy_choice for option, _ in chosen):
        chosen += [pair for pair in placements if pair[0].action == greedy_choice]
    return chosen


def sim_v1(seed: int | None = None, budget: Budget | None = None) -> SimBot:
    """The frozen reference ``sim-v1``: the sim bot as it was when issue 18 opened, so
    that every later change to ``sim`` is measured against a fixed opponent.

    Its settings are written out here, not taken from the defaults, so that tuning a
    default moves ``sim`` but not ``sim-v1``; a change to the simulation itself must come
    behind a setting that ``sim-v1`` leaves off (as ``endgame`` does).
    """
    return SimBot(
        seed,
        Budget(simulations=600) if budget is None else budget,
        candidates=6,
        horizon="turn",
        weights=None,
        endgame=None,
        read_placements=False,
        exact_worlds=False,
        fishing=0,
        closing=None,
        crowded_closing=CROWDED_CLOSING_REACH,
        win_value=100,
        equity=False,
        read_choices=0,
        name="sim-v1",
    )


def sim_v2(seed: int | None = None, budget: Budget | None = None) -> SimBot:
    """The frozen reference ``sim-v2``: the sim bot as it was when the native core came
    (issue 34), its settings written out as :func:`sim_v1`'s are, so that what the
    native core's saved time buys is measured against a fixed opponent."""
    return SimBot(
        seed,
        Budget(simulations=1200) if budget is None else budget,
        candidates=6,
        horizon="turn",
        weights=None,
        endgame=1000,
        read_placements=True,
        exact_worlds=True,
        fishing=3,
        closing=200,
        crowded_closing=320,
        win_value=100,
        equity=True,
        read_choices=0,
        name="sim-v2",
    )


FROZEN: dict[str, Callable[[int | None, Budget | None], SimBot]] = {
    "sim-v1": sim_v1,
    "sim-v2": sim_v2,
}
"""The frozen references by name (:data:`triominos.bots.base.REFERENCES`)."""


def junior_candidates(options: Sequence[LegalAction]) -> list[tuple[LegalAction, float]]:
    """Every Junior action with its counters now, most first (ties keep the options' order).

    All of them go on to the simulation: Junior racks are small, and cutting each card's
    placements to its best by counters now measured no stronger (where a card goes
    decides the cells it opens to the others and to oneself, which counters now do not
    show). A time budget drops the clearly worse ones as it goes (:meth:`Simulation.run`).
    """
    ranked = sorted(options, key=lambda option: -option.points)
    return [(option, float(option.points)) for option in ranked]
