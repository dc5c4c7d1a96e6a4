"""Rated matches: which pool a match is rated in, the pairwise outcomes a 2-6 player
result splits into, the bots' fixed ratings, and when a match may not be rated at all
(docs/ratings.md says why each choice is what it is).

Pure functions on values; the service keeps the ratings (:mod:`triominos.server.rating_store`).

>>> results = pairwise([Seat("ann", total=400), Seat("bob", total=310), Seat("greedy", bot=True)])
>>> results["ann"], results["bob"]
([('bob', 1.0), ('bot:greedy', 1.0)], [('ann', 0.0), ('bot:greedy', 1.0)])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from triominos.bots.levels import DEFAULT_LEVEL, OFFERED, Level
from triominos.glicko import NEW_DEVIATION, Rating
from triominos.rules import PRESETS

EDITIONS = tuple(sorted({preset.rules.tile_set for preset in PRESETS.values()}))
"""The editions a match is rated in: the box of its preset (``classic``, ``extended``,
``junior``). The house rules and scoring variants of one box share its pool: a rating
compares finishing places, which a scoring rule changes little."""

PLAYER_COUNTS = tuple(range(2, 7))
"""The player counts of the pools: every count a preset allows."""

AGAINST = ("people", "bots")
"""A pool of matches between people only, or of matches with at least one bot seat."""

BOT_ANCHOR = 1500.0
"""Where the default bot level stands on the Glicko scale: the rating a new player starts
at, so that a newcomer's first match against the default bot is an even guess."""

BOT_DEVIATION = 50.0
"""The bots' fixed deviation: the ladder's 95% intervals are about ±100 Elo, 1.96 RD."""

PROVISIONAL_DEVIATION = 110.0
"""A rating whose deviation is above this is provisional (lichess's bound)."""

PERIOD_SECONDS = 7 * 24 * 3600.0
"""Glicko-2's rating period for time away: each whole week without a rated match in a
pool widens the deviation by one empty period (a match itself is one period)."""

ACTIVE_SECONDS = 30 * 24 * 3600.0
"""A player is active in a pool, and on its leaderboard, with a rated match in it in
this time."""

RESIGN_FIRST_ROUNDS = 3
"""A match ended by a resignation before every seat had this many turns is not rated:
an early resign is a way to hand a rating over, and says nothing about strength."""

SHARED_SECONDS = 24 * 3600.0
"""A match between two accounts seen with one browser id or one address in this time
before its end is not rated: the same person, or a pair trading a rating."""


class RatedMatchError(ValueError):
    """A match result the ratings cannot take: the message says what was wrong."""


@dataclass(frozen=True, slots=True)
class Pool:
    """The ratings of one edition and player count, between people or against bots."""

    edition: str
    players: int
    against: str = "people"

    def __post_init__(self) -> None:
        if self.edition not in EDITIONS:
            raise RatedMatchError(
                f"edition must be one of {', '.join(EDITIONS)}, not {self.edition!r}"
            )
        if self.players not in PLAYER_COUNTS:
            raise RatedMatchError(
                f"players must be {PLAYER_COUNTS[0]} to {PLAYER_COUNTS[-1]}, not {self.players!r}"
            )
        if self.against not in AGAINST:
            raise RatedMatchError(
                f"against must be one of {', '.join(AGAINST)}, not {self.against!r}"
            )

    @property
    def key(self) -> str:
        """How the database and the API name the pool: ``classic-2``, ``classic-3-bots``."""
        suffix = "-bots" if self.against == "bots" else ""
        return f"{self.edition}-{self.players}{suffix}"

    @classmethod
    def from_key(cls, key: str) -> Pool:
        edition, players, *bots = key.split("-")
        return cls(edition, int(players), "bots" if bots else "people")


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat of a finished match: ``player`` is its account's id, or for a ``bot`` its
    level's id; its match total, whether it resigned, and the hashes of the browser ids
    and addresses its account was seen with in the :data:`SHARED_SECONDS` before the
    end (``traces``)."""

    player: str
    total: int = 0
    resigned: bool = False
    bot: bool = False
    traces: frozenset[str] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        if self.bot and self.player not in BOT_RATINGS:
            raise RatedMatchError(
                f"a bot seat is one of the levels {', '.join(BOT_RATINGS)}, not {self.player!r}"
            )

    @property
    def name(self) -> str:
        """The seat in :func:`pairwise`'s results: the account id, ``bot:`` and the level."""
        return f"bot:{self.player}" if self.bot else self.player

    @property
    def standing(self) -> tuple[bool, int]:
        """What the seats are compared by: a seat that resigned finishes behind every
        seat that did not, whatever the totals; then the higher total finishes ahead."""
        return (not self.resigned, self.total)


def bot_rating(level: Level) -> Rating:
    """A level's fixed rating: its ladder Elo, placed so :data:`DEFAULT_LEVEL` stands at
    :data:`BOT_ANCHOR`. Elo and Glicko share one scale (400 points: ten to one odds),
    so the ladder's gaps carry over unchanged."""
    default = next(level.elo for level in OFFERED if level.id == DEFAULT_LEVEL)
    return Rating(BOT_ANCHOR + level.elo - default, BOT_DEVIATION)


BOT_RATINGS: Mapping[str, Rating] = {level.id: bot_rating(level) for level in OFFERED}
"""The bots' fixed ratings by level id."""


def pool_of(preset: str, seats: Sequence[Seat]) -> Pool:
    """The pool a match of ``preset`` is rated in: its edition and player count, against
    bots when a bot holds a seat."""
    if preset not in PRESETS:
        raise RatedMatchError(f"preset must be one of {', '.join(PRESETS)}, not {preset!r}")
    bots = any(seat.bot for seat in seats)
    return Pool(PRESETS[preset].rules.tile_set, len(seats), "bots" if bots else "people")


def pairwise(seats: Sequence[Seat]) -> dict[str, list[tuple[str, float]]]:
    """Each person's results against every other seat of the match: 1 for finishing
    ahead of it, 0.5 for an equal standing, 0 for behind (:attr:`Seat.standing`). A bot
    gets no results (its rating is fixed); a person meets each bot as any other seat."""
    people = [seat.player for seat in seats if not seat.bot]
    if len(set(people)) != len(people):
        raise RatedMatchError(f"a person holds one seat of a rated match, not several: {people}")
    results: dict[str, list[tuple[str, float]]] = {
        seat.player: [] for seat in seats if not seat.bot
    }
    for one, other in combinations(seats, 2):
        score = 0.5 if one.standing == other.standing else float(one.standing > other.standing)
        if not one.bot:
            results[one.player].append((other.name, score))
        if not other.bot:
            results[other.player].append((one.name, 1 - score))
    return results


def rated(seats: Sequence[Seat], ratings: Mapping[str, Rating]) -> dict[str, Rating]:
    """Every person's rating after the match, one Glicko-2 period with its n-1 pairwise
    results, all against the ratings as they were before it; ``ratings``: each person's
    rating now by account id (the bots' are :data:`BOT_RATINGS`)."""
    ratings = {**ratings, **{f"bot:{level}": rating for level, rating in BOT_RATINGS.items()}}
    return {
        player: ratings[player].rated([(ratings[other], score) for other, score in results])
        for player, results in pairwise(seats).items()
    }


def aged(rating: Rating, idle_seconds: float) -> Rating:
    """The rating after ``idle_seconds`` without a rated match: one empty Glicko-2 period
    per whole :data:`PERIOD_SECONDS`, the deviation growing up to a newcomer's."""
    for _ in range(int(max(idle_seconds, 0.0) // PERIOD_SECONDS)):
        if rating.deviation >= NEW_DEVIATION:
            break
        rating = rating.rated([])
    return rating


def unrated_because(seats: Sequence[Seat], rounds: int) -> str | None:
    """Why the match moves no rating, or None when it is rated: ``shared`` when two
    seats' accounts share a trace, ``early_resign`` when a seat resigned before
    :data:`RESIGN_FIRST_ROUNDS` rounds (``rounds``: the turns every seat had)."""
    people = [seat for seat in seats if not seat.bot]
    if any(one.traces & other.traces for one, other in combinations(people, 2)):
        return "shared"
    if rounds < RESIGN_FIRST_ROUNDS and any(seat.resigned for seat in seats):
        return "early_resign"
    return None
