"""The sim bot: every candidate move played out in the same sampled worlds.

This is Macondo's recipe for Scrabble, applied to Triominos:

1. the static evaluation (:mod:`triominos.bots.expert`) ranks every legal action, and
   only the best few (:data:`CANDIDATES`, plus greedy's choice if it is not among them)
   go on;
2. worlds are sampled from what the seat has seen (:mod:`triominos.bots.sampler`): the
   opponents' racks and the pool's order;
3. in each world, each candidate is played and the hand is played out by greedy
   players (to its end, or for a number of plies); the candidate's value in that world
   is the seat's point margin from here (its points minus the mean of the others'),
   settlement included, plus :data:`WIN_VALUE` when the hand ends the match won (or
   minus it, lost);
4. the candidate with the best mean wins.

Every candidate meets the *same* worlds, pool order included, so a candidate is never
preferred because it drew luckier tiles: the comparison is paired, as in a duplicate
tournament, and far less noisy than independent samples would be.

Worlds are played with the engine's own rules (:meth:`Hand.resume`) on one copy of the
board, popped back after each playout: nothing is copied per simulation but the racks.

The budget (:class:`~triominos.bots.base.Budget`) counts *simulations*, one candidate
played out in one world: ``Budget(simulations=600)`` with 6 candidates is 100 worlds.
With a number of simulations the bot is deterministic: the worlds come from a random
generator seeded by the bot's seed and the position (hand number, events so far, seat),
so the same seed and budget give the same move in the same position, whatever was
asked before. A time budget plays worlds until the time is up (at least one).
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import NamedTuple

from triominos.board import Placement
from triominos.bots.base import Budget, GreedyBot
from triominos.bots.expert import TUNED, Evaluator, ExpertBot, Weights, understood
from triominos.bots.sampler import UnsupportedObservationError, World, WorldSampler
from triominos.game import Action, Draw, Hand, LegalAction, Observation, Pass, may_draw
from triominos.lattice import Cell

DEFAULT_BUDGET = Budget(simulations=600)
"""What ``sim`` thinks per move when not told: about 0.2 s on a 2020s laptop core."""

CANDIDATES = 6
"""Actions the static evaluation lets through to the simulation."""

WIN_VALUE = 100.0
"""Points a playout is worth more when the hand ends the match won (less when lost).

Far from the target only the margin counts; when the hand in play can end the match,
winning it outweighs a few points of margin."""


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
        plies: int | None = None,
    ) -> None:
        if observation.seat is None:
            raise ValueError("a simulation is for a seat, not for a spectator")
        self.observation = observation
        self.seat = observation.seat
        self.rng = rng
        self.plies = plies
        self.sampler = WorldSampler(observation)
        self.board = self.sampler.board  # the replayed copy: ours to push and pop
        self._out = _gone_out(observation)

    def evaluator(self, weights: Weights = TUNED) -> Evaluator:
        """The static evaluation, working on this simulation's board."""
        return Evaluator(self.observation, weights, self.board)

    def run(
        self, candidates: Sequence[tuple[LegalAction, float]], budget: Budget
    ) -> list[CandidateValue]:
        """Each (option, static value) played out in the same worlds; best mean first."""
        if not candidates:
            return []
        sums = [0.0] * len(candidates)
        deadline = None if budget.seconds is None else time.perf_counter() + budget.seconds
        worlds = 0
        while True:
            world = self.sampler.sample(self.rng)
            for number, (option, _) in enumerate(candidates):
                sums[number] += self.play_out(world, option.action)
            worlds += 1
            if deadline is None:
                assert budget.simulations is not None
                if worlds * len(candidates) >= budget.simulations:
                    break
            elif time.perf_counter() >= deadline:
                break
        found = [
            CandidateValue(option, static, total / worlds, worlds)
            for (option, static), total in zip(candidates, sums, strict=True)
        ]
        found.sort(key=lambda value: -value.mean)  # stable: ties keep the static order
        return found

    def play_out(self, world: World, action: Action) -> float:
        """The seat's value of ``action`` in ``world``: play it, then greedy for everyone."""
        observation, board = self.observation, self.board
        rules = observation.rules
        start = len(board)
        hand = Hand.resume(
            rules,
            board,
            world.racks,
            world.pool,
            to_move=self.seat,
            starter=observation.starter if observation.starter is not None else self.seat,
            draws=observation.draws,
            out=self._out,
            number=observation.hand_number,
            totals=observation.totals,
        )
        try:
            hand.apply(action)
            _greedy_play(hand, self.plies)
            return self._value(hand)
        finally:
            while len(board) > start:
                board.pop()

    def _value(self, hand: Hand) -> float:
        seat, players = self.seat, hand.players
        points = list(hand.points)
        if not hand.is_over:
            # Cut short: count the racks as if the hand were blocked now.
            values = hand.tile_set.value_of
            left = [values(rack) for rack in hand.racks]
            points = [mine - rack for mine, rack in zip(points, left, strict=True)]
        others = (sum(points) - points[seat]) / (players - 1)
        value = points[seat] - others
        if hand.is_over and _ends_match(self.observation, hand):
            totals = hand.totals
            best = max(totals)
            value += WIN_VALUE if totals[seat] == best else -WIN_VALUE
        return value


def _greedy_play(hand: Hand, plies: int | None) -> None:
    """Every seat plays greedy's move until the hand ends (or ``plies`` actions)."""
    board, rules = hand.board, hand.rules
    tiles = board.tile_set.tiles
    figure_points, tile_values = rules.figure_points, rules.tile_values
    played = 0
    while hand.phase != "over" and (plies is None or played < plies):
        best = board.best_placement(hand.racks[hand.to_move], figure_points, tile_values)
        if best is not None:
            cell, tile, corners, _ = best
            hand.apply(Placement(tiles[tile], Cell.from_id(cell), corners))
        elif may_draw(rules, hand.draws, hand.pool_size, None):
            hand.apply(_DRAW)
        else:
            hand.apply(_PASS)
        played += 1


_DRAW, _PASS = Draw(), Pass()


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


def _ends_match(observation: Observation, hand: Hand) -> bool:
    """Whether the finished ``hand`` (played out from the observation) ends the match."""
    rules = observation.rules
    target, limit = rules.target_score, rules.hand_limit
    return (target is not None and max(hand.totals) >= target) or (
        limit is not None and observation.hand_number >= limit
    )


class SimBot:
    """The strongest bot: static pruning, then simulation (see the module docstring)."""

    name = "sim"

    def __init__(
        self,
        seed: int | None = None,
        budget: Budget = DEFAULT_BUDGET,
        *,
        candidates: int = CANDIDATES,
        plies: int | None = None,
        weights: Weights = TUNED,
    ) -> None:
        self.seed = random.SystemRandom().randrange(2**63) if seed is None else seed
        self.budget = budget
        self.candidates = candidates
        self.plies = plies
        self.weights = weights
        self._fallback = ExpertBot(weights)

    def __repr__(self) -> str:
        return f"SimBot(seed={self.seed}, budget={self.budget!r})"

    def act(self, observation: Observation) -> Action:
        options = observation.legal_actions()
        if not options:
            raise ValueError("it is not this seat's turn: there is no action to choose")
        if len(options) == 1:
            return options[0].action
        ranked = self.evaluate(observation, options)
        return ranked[0].option.action if ranked else self._fallback.act(observation)

    def evaluate(
        self,
        observation: Observation,
        options: Sequence[LegalAction],
        *,
        budget: Budget | None = None,
        keep: int | None = None,
    ) -> list[CandidateValue]:
        """The best ``keep`` options (default :attr:`candidates`) valued by simulation.

        Empty when the position is not one the simulation models (the opening, Junior's
        rules): the caller falls back on the static evaluation.
        """
        if observation.phase != "play" or not understood(observation, options):
            return []
        try:
            simulation = Simulation(observation, self.rng_for(observation), plies=self.plies)
        except UnsupportedObservationError:
            return []
        ranked = simulation.evaluator(self.weights).ranked(options)
        keep = self.candidates if keep is None else keep
        chosen = ranked[:keep]
        greedy_choice = _GREEDY.act(observation)
        if all(option.action != greedy_choice for option, _ in chosen):
            chosen += [pair for pair in ranked if pair[0].action == greedy_choice]
        return simulation.run(chosen, self.budget if budget is None else budget)

    def rng_for(self, observation: Observation) -> random.Random:
        """The random generator for this position: the same for the same seed and position."""
        return random.Random(
            f"{self.seed}/{observation.hand_number}/{observation.seen_count}/{observation.seat}"
        )


_GREEDY = GreedyBot()
