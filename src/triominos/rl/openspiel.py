"""OpenSpiel: importing this module registers the Python game ``triominos``.

>>> import pyspiel, triominos.rl.openspiel
>>> game = pyspiel.load_game("triominos", {"preset": "junior", "players": 3})

Parameters ``preset`` (a name of :data:`~triominos.rules.PRESETS`, default ``classic``),
``players`` (default 2), ``returns`` (:data:`~triominos.rl.RETURNS`, default ``margin``)
and every rule option by its name, as the text ``--rule NAME=VALUE`` takes (``""``, the
default, keeps the preset's value):

>>> game = pyspiel.load_game("triominos", {"preset": "classic", "max_draws": "none"})

One OpenSpiel game is one hand, the unit that search and learning play out and the one
the arena's figures count; with ``match=True`` it is a whole match, hands following one
another as :class:`~triominos.game.Match` plays them until a total reaches the target (or
the hand limit is reached):

>>> game = pyspiel.load_game("triominos", {"preset": "classic", "match": True})

- **Player actions** are the ids of :class:`~triominos.encoding.ActionSpace`.
- **Chance nodes** are every random event, each outcome a tile index of the set: the
  deal, tile by tile (seat 0's rack first, then seat 1's, …, then the first card laid from
  the pool in Junior), the tile a :class:`~triominos.game.Draw` brings (the player's draw
  action is followed by a chance node over the tiles in the pool) and the tile a
  :class:`~triominos.game.StarterDraw` shows (over the pool less the tiles shown in that
  round). Every outcome is equally likely.
- **Returns** at the end: each seat's points in the hand less the mean of the other
  seats' points, so that they sum to zero and, with two players, are the margin. Their
  bounds are :func:`~triominos.encoding.points_bound`: a seat's points are at most its
  gains, every other seat's at least minus their losses, and the bound is the two added.
  With ``returns="pairwise"``, from -1 to 1: how the seat did against each other seat.
  In the match form both are counted on the final totals (``pairwise`` is then who won
  the match), every deal after a hand is chance nodes as the first one is, each hand
  numbered and starting from the totals as the engine's match does it, and the bounds of
  the returns and the game's length are a hand's times
  :func:`~triominos.encoding.hands_bound`.
- **Information state** of a seat, with perfect recall: its rack, the seat to move and
  the hand's history as the seat saw it (its own draws with their tiles, the others'
  hidden), so what the seat may do next (another draw after a drawn tile that does not
  fit, seed 003) follows from it; its tensor is
  :class:`~triominos.encoding.InformationStateEncoder`'s. In the match form the string
  begins with every hand played out, as the seat saw it; the tensor stays fixed-size,
  so it holds the hand in play, the earlier hands entering through the totals. The
  **observation** is the seat's rack and the table now, and its tensor
  :class:`~triominos.encoding.ObservationEncoder`'s. A public-only observer
  (``private_info`` ``NONE``) leaves the rack out of both.
- ``resample_from_infostate`` deals the other racks with
  :class:`~triominos.bots.sampler.WorldSampler`, so OpenSpiel's ISMCTS searches worlds
  that agree with everything the seat saw (in the match form, the hand in play's: the
  hands played out stay as they were).

The state keeps its play in one attribute that OpenSpiel's clone copies with
:meth:`Hand.clone <triominos.game.Hand.clone>` and its serialization pickles as the list of
actions, replayed on loading.
"""

from __future__ import annotations

import functools
import random
from array import array
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]

from triominos.board import Placement
from triominos.bots import Budget, make_bot
from triominos.bots.sampler import WorldSampler
from triominos.encoding import (
    DRAW,
    STARTER_DRAW,
    InformationStateEncoder,
    ObservationEncoder,
    hands_bound,
    points_bound,
)
from triominos.game import Deal, Event, Hand, Observation, match_ends
from triominos.rl import Returns, Space, adapter_rules, check_returns, seat_returns, space_of
from triominos.rules import OPTIONS, Rules
from triominos.tiles import indices

DEFAULTS: dict[str, Any] = {
    "preset": "classic",
    "players": 2,
    "returns": "margin",
    "actions": "flat",
    "match": False,
    **dict.fromkeys(OPTIONS, ""),
}

GAME_TYPE = pyspiel.GameType(
    short_name="triominos",
    long_name="Triominos",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=6,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULTS,
)


def game_length_bound(rules: Rules, players: int, match: bool = False) -> int:
    """Moves of a hand, chance nodes included: the deal, a placement and a take-back per
    tile, a draw and its chance node per tile, a pass per seat and tile, and the starter
    draws (a draw and a chance node per seat a round). A tie repeats the starter round,
    so that bound is a practical one: no more rounds than tiles. A match plays at most
    :func:`~triominos.encoding.hands_bound` hands."""
    box = len(rules.box)
    hand = box + 2 * box + 2 * box + players * (box + 1) + 2 * players * box
    return hand * (hands_bound(rules) if match else 1)


@functools.cache
def action_space(rules: Rules, numbering: str = "flat") -> Space:
    """The action space of a set of rules, made once: every new state (and OpenSpiel
    makes one for each clone) shares it."""
    return space_of(rules, numbering)


class TriominosGame(pyspiel.Game):  # type: ignore[misc]
    """The game ``triominos`` for one preset and number of players."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**DEFAULTS, **(params or {})}
        unknown = set(params) - set(DEFAULTS)
        if unknown:
            raise ValueError(
                f"unknown parameter(s) {sorted(unknown)}; the game takes {sorted(DEFAULTS)}"
            )
        options = {name: params[name] for name in OPTIONS if params[name] != ""}
        rules = adapter_rules(params["preset"], options)
        players = params["players"]
        rules.check_players(players)
        self.returns = check_returns(params["returns"])
        self.match = bool(params["match"])
        space = action_space(rules, params["actions"])
        hands = hands_bound(rules) if self.match else 1
        bound = 1 if self.returns == "pairwise" else hands * points_bound(rules, players)
        info = pyspiel.GameInfo(
            num_distinct_actions=space.size,
            max_chance_outcomes=len(rules.tiles),
            num_players=players,
            min_utility=float(-bound),
            max_utility=float(bound),
            utility_sum=0.0,
            max_game_length=game_length_bound(rules, players, self.match),
        )
        super().__init__(GAME_TYPE, info, params)
        self.rules = rules
        self.players = players
        self.space = space
        self.numbering = params["actions"]
        self.encoder = ObservationEncoder(rules, players)
        self.information_encoder = InformationStateEncoder(rules, players)

    def new_initial_state(self) -> TriominosState:
        return TriominosState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> TriominosObserver:
        if params:
            raise ValueError(f"the observer takes no parameters, not {params}")
        if iig_obs_type is None:
            return TriominosObserver(self, perfect_recall=False, private=True)
        if not iig_obs_type.public_info:
            raise ValueError("an observer without the public information is not offered")
        kinds = pyspiel.PrivateInfoType
        if iig_obs_type.private_info == kinds.ALL_PLAYERS:
            raise ValueError("no observer shows every seat's private tiles (it is no seat's)")
        private = iig_obs_type.private_info == kinds.SINGLE_PLAYER
        return TriominosObserver(self, iig_obs_type.perfect_recall, private)


class Play:
    """A hand as OpenSpiel steps through it: the deal so far, the hand once dealt, and
    the draw waiting for its chance node; in the match form also the hands played out
    and the totals, banked as :class:`~triominos.game.Match` banks them. Plain Python, so
    that OpenSpiel's clone copies it cheaply and its serialization stores the actions
    alone."""

    def __init__(
        self,
        rules: Rules,
        players: int,
        returns: Returns = "margin",
        numbering: str = "flat",
        match: bool = False,
    ) -> None:
        self.rules = rules
        self.players = players
        self.returns = returns
        self.numbering = numbering
        self.match = match
        self.space = action_space(rules, numbering)
        self.actions: list[int] = []
        self.dealt: list[int] = []
        self.hand: Hand | None = None
        self.pending: int | None = None  # DRAW or STARTER_DRAW, waiting for its tile
        self.finished: list[Hand] = []  # the match's hands played out, never changed again
        self.totals = [rules.starting_score] * players  # before the hand in play

    @classmethod
    def replay(
        cls,
        rules: Rules,
        players: int,
        returns: Returns,
        numbering: str,
        match: bool,
        actions: Sequence[int],
    ) -> Play:
        play = cls(rules, players, returns, numbering, match)
        for action in actions:
            play.apply(action)
        return play

    def __reduce__(
        self,
    ) -> tuple[Callable[..., Play], tuple[Rules, int, Returns, str, bool, tuple[int, ...]]]:
        options = (self.rules, self.players, self.returns, self.numbering, self.match)
        return Play.replay, (*options, tuple(self.actions))

    def __deepcopy__(self, memo: dict[int, object]) -> Play:
        copy = Play.__new__(Play)
        copy.__dict__ = self.__dict__.copy()
        copy.actions = self.actions.copy()
        copy.dealt = self.dealt.copy()
        copy.hand = None if self.hand is None else self.hand.clone()
        copy.finished = self.finished.copy()
        copy.totals = self.totals.copy()
        return copy

    # --- chance -----------------------------------------------------------------------

    @property
    def is_chance(self) -> bool:
        return self.hand is None or self.pending is not None

    def chance_tiles(self) -> list[int]:
        """The tile indices the next chance node may bring, all equally likely."""
        tile_set = self.rules.tiles
        if self.hand is None:
            left = self.rules.box_mask
            for tile in self.dealt:
                left &= ~(1 << tile)
            if len(self.dealt) == self._rack_tiles() and tile_set.joker is not None:
                left &= ~(1 << tile_set.joker)  # the first card laid is never the joker
            return list(indices(left))
        if self.pending == STARTER_DRAW:
            return sorted(self.hand.starter_drawable())
        return sorted(self.hand.undrawn())

    def _rack_tiles(self) -> int:
        return self.rules.rack_size(self.players) * self.players

    def _deal(self, tile: int) -> None:
        self.dealt.append(tile)
        racks = self._rack_tiles()
        first = self.rules.opening == "pool_card"
        if len(self.dealt) < racks + first:
            return
        tiles = self.rules.tiles.tiles
        size = self.rules.rack_size(self.players)
        dealt = set(self.dealt)
        deal = Deal(
            tuple(
                tuple(tiles[i] for i in self.dealt[seat * size : (seat + 1) * size])
                for seat in range(self.players)
            ),
            tuple(tiles[i] for i in indices(self.rules.box_mask) if i not in dealt),
            tiles[self.dealt[racks]] if first else None,
        )
        self.hand = Hand(self.rules, deal, number=len(self.finished) + 1, totals=self.totals)

    # --- play -------------------------------------------------------------------------

    def apply(self, action: int) -> None:
        self.actions.append(action)
        hand = self.hand
        if hand is None:
            self._deal(action)
            return
        if self.pending is not None:
            if self.pending == DRAW:
                hand.draw_next(action)
            else:
                hand.starter_draw_next(action)
            hand.apply(self.space.decode(self.pending, hand.board))
            self.pending = None
        elif action in (DRAW, STARTER_DRAW):
            self.pending = action  # the chance node brings the tile
            return
        else:
            hand.apply(self.space.decode(action, hand.board))
        if self.match and hand.is_over:
            self._bank(hand)

    def _bank(self, hand: Hand) -> None:
        """What :meth:`Match.apply <triominos.game.Match.apply>` does after a hand: add
        its points to the totals and, unless the match is over, deal the next hand (here
        from chance nodes; the hand that ended the match stays in play)."""
        for seat, points in enumerate(hand.points):
            self.totals[seat] += points
        hands = len(self.finished) + 1
        if not match_ends(self.rules, self.totals, hands, hand.gong is not None):
            self.finished.append(hand)
            self.hand = None
            self.dealt = []

    @property
    def is_over(self) -> bool:
        """The hand is, or in the match form the match is (its last hand stays in play)."""
        return self.hand is not None and self.hand.is_over

    def legal_ids(self) -> list[int]:
        assert self.hand is not None and not self.pending
        return sorted(self.space.legal_ids(self.hand.observe(self.hand.to_move)))

    def final_returns(self) -> list[float]:
        if not self.is_over:
            return [0.0] * self.players
        assert self.hand is not None
        return seat_returns(self.totals if self.match else self.hand.points, self.returns)

    # --- what a seat knows --------------------------------------------------------------

    def information(self, seat: int, private: bool = True) -> str:
        """The seat's information state (module docstring), as text; without
        ``private``, what every seat knows of it. In the match form it begins with the
        history of each hand played out, as the seat saw it."""
        who = seat if private else None
        past = "".join(
            f"hand {number} {_history_text(hand.observe(who).history)}; "
            for number, hand in enumerate(self.finished, 1)
        )
        if self.hand is None:
            size = self.rules.rack_size(self.players)
            mine = self.dealt[seat * size : (seat + 1) * size] if private else []
            names = " ".join(self.rules.tiles.tiles[i].name for i in mine)
            return f"{past}seat {seat}; dealing, {len(self.dealt)} dealt; rack {names}"
        seen = self.hand.observe(who).history
        return (
            f"{past}{self._seat_text(seat, private)}; to move {self.hand.to_move}; "
            f"history {_history_text(seen)}{self._pending_text()}"
        )

    def observation(self, seat: int, private: bool = True) -> str:
        """What the seat sees now, as text: its rack, the table and the counts; without
        ``private``, no rack."""
        if self.hand is None:
            return self.information(seat, private)
        seen = self.hand.observe(seat)
        table = " ".join(_placement_text(p) for p in seen.board)
        return (
            f"{self._seat_text(seat, private)}; phase {seen.phase}; to move {seen.to_move}; "
            f"table {table}; points {list(seen.hand_points)}; totals {list(seen.totals)}; "
            f"racks {list(seen.rack_sizes)}; pool {seen.pool_size}; draws {seen.draws}"
            f"{self._pending_text()}"
        )

    def _seat_text(self, seat: int, private: bool) -> str:
        assert self.hand is not None
        if not private:
            return f"seat {seat}"
        return f"seat {seat}; rack {' '.join(tile.name for tile in self.hand.rack(seat))}"

    def _pending_text(self) -> str:
        return {None: "", DRAW: "; drawing", STARTER_DRAW: "; starter drawing"}[self.pending]

    def redeal(self, seat: int, rng: random.Random) -> None:
        """Deal the other seats' racks (and so the pool) anew, as :class:`WorldSampler`
        guesses them from what ``seat`` saw."""
        assert self.hand is not None and self.pending is None
        world = WorldSampler(self.hand.observe(seat)).sample(rng)
        others = {other: rack for other, rack in enumerate(world.racks) if other != seat}
        self.hand.rearrange(world.pool, others)


class TriominosState(pyspiel.State):  # type: ignore[misc]
    """One hand of ``triominos``: OpenSpiel's calls, answered by a :class:`Play`."""

    def __init__(self, game: TriominosGame) -> None:
        super().__init__(game)
        self.play = Play(game.rules, game.players, game.returns, game.numbering, game.match)

    def current_player(self) -> int:
        play = self.play
        if play.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        if play.is_chance:
            return int(pyspiel.PlayerId.CHANCE)
        return play.hand.to_move  # type: ignore[union-attr]

    def _legal_actions(self, player: int) -> list[int]:
        return self.play.legal_ids()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        tiles = self.play.chance_tiles()
        return [(tile, 1.0 / len(tiles)) for tile in tiles]

    def _apply_action(self, action: int) -> None:
        self.play.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"tile {self.play.rules.tiles.tiles[action].name}"
        board = None if self.play.hand is None else self.play.hand.board
        return repr(self.play.space.decode(int(action), board))

    def is_terminal(self) -> bool:
        return self.play.is_over

    def returns(self) -> list[float]:
        return self.play.final_returns()

    def resample_from_infostate(self, player: int, probability_sampler: Any) -> TriominosState:
        state: TriominosState = self.clone()
        state.play.redeal(player, random.Random(int(probability_sampler() * 2**53)))
        return state

    def observation(self, player: int) -> Observation:
        """The engine's observation for a seat (a hand must be dealt)."""
        assert self.play.hand is not None
        return self.play.hand.observe(player)

    def __str__(self) -> str:
        """The hand's ``repr``, which pastes back to it (a line for each hand before it
        in the match form)."""
        play = self.play
        now = f"dealing: {len(play.dealt)} tiles dealt" if play.hand is None else repr(play.hand)
        return "\n".join([*map(repr, play.finished), now])


class TriominosObserver:
    """OpenSpiel's observer: the tensor of :class:`ObservationEncoder` and the observation
    string of :class:`Play`, or with perfect recall those of
    :class:`InformationStateEncoder` and the information state string (zeros while the
    deal is under way). A public-only one (not ``private``) zeroes the seat's rack in the
    tensor (and its own draws' tiles in the history) and leaves it out of the strings."""

    def __init__(self, game: TriominosGame, perfect_recall: bool, private: bool) -> None:
        self.perfect_recall = perfect_recall
        self.private = private
        self.encoder: ObservationEncoder | InformationStateEncoder = (
            game.information_encoder if perfect_recall else game.encoder
        )
        # The encoder writes the tensor in place (encode_into): NumPy's is a view of it.
        self.buffer = array("f", bytes(4 * self.encoder.size))
        self.tensor = np.frombuffer(self.buffer, np.float32)
        self.dict = {"info_state" if perfect_recall else "observation": self.tensor}

    def set_from(self, state: TriominosState, player: int) -> None:
        hand = state.play.hand
        if hand is None:
            self.tensor.fill(0)
            return
        observation = state.observation(player)
        if not self.private:
            # The seat's tensor, less what only it knows: its rack and its draws' tiles.
            public = hand.observe(None)
            observation = observation._replace(rack=0, history=public.history)
        self.encoder.encode_into(self.buffer, observation)  # "unseen" then holds the rack

    def string_from(self, state: TriominosState, player: int) -> str:
        if self.perfect_recall:
            return state.play.information(player, self.private)
        return state.play.observation(player, self.private)


class ProjectBot(pyspiel.Bot):  # type: ignore[misc]
    """A project bot (a name :func:`~triominos.bots.make_bot` knows) as an OpenSpiel bot
    for one seat, so OpenSpiel's evaluation and search code can play against it."""

    def __init__(
        self,
        game: TriominosGame,
        player: int,
        name: str,
        *,
        seed: int | None = None,
        budget: Budget | None = None,
    ) -> None:
        pyspiel.Bot.__init__(self)
        self._bot = make_bot(name, seed, budget)
        self._player = player
        self._space = game.space

    def step(self, state: TriominosState) -> int:
        observation = state.observation(self._player)
        return self._space.encode(self._bot.act(observation), observation.board)

    def restart_at(self, state: TriominosState) -> None:
        """Nothing to restart: the bot decides from each observation afresh."""

    def provides_policy(self) -> bool:
        return False


def _history_text(history: Sequence[Event]) -> str:
    return " ".join(map(_event_text, history))


def _event_text(event: Event) -> str:
    tile = "" if event.tile is None else event.tile.name
    where = "" if event.cell is None else f"@{event.cell.x},{event.cell.y},{int(event.cell.up)}"
    corners = "" if event.corners is None else ",".join(map(str, event.corners))
    return f"{event.player}:{event.action}:{tile}{where}:{corners}:{event.points}"


def _placement_text(placement: Placement) -> str:
    cell = placement.cell
    return f"{placement.tile.name}@{cell.x},{cell.y},{int(cell.up)}:" + ",".join(
        map(str, placement.corners)
    )


pyspiel.register_game(GAME_TYPE, TriominosGame)
