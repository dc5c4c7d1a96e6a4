"""Bot tournaments that measure strength honestly: duplicate deals, many processes, intervals.

An arena seats *entries* (bots by name, one per seat; the same bot may take several
seats, each its own entry) and plays **duplicate deals**: every match seed is played
once per seating, the entries rotated one seat further each time, so every entry plays
every seat's cards (each hand ``k`` of a match is dealt from the seed alone, so hand
``k`` deals the same racks to the same seats in every rotation). Luck of the deal
cancels; what is left is skill, and far fewer matches show it.

What is reported for each entry (:func:`summarize`):

- **win rate**: the share of matches it won (a win shared by ``k`` seats counts ``1/k``),
  with a **95% interval by percentile bootstrap over the duplicate groups** (a group is
  one seed played in every seating; groups are independent, the matches within one are
  not). :func:`wilson_interval` is here too, for plain independent trials.
- **mean margin**: its total less the mean of the other seats' totals, with the same
  bootstrap interval.
- **rating**: openskill's Plackett-Luce model over every match in schedule order (the
  whole finishing order counts, so it means something with more than two players).

Games run in ``jobs`` processes or on a Ray cluster (:mod:`triominos.cluster`) and come
back in schedule order, so the same seed gives the same results and the same records
file wherever they ran (with budgets in simulations; a time budget
depends on the machine).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from statistics import NormalDist
from typing import Any, NamedTuple

from openskill.models import PlackettLuce

from triominos.bots import clairvoyant
from triominos.bots.base import BOT_NAMES, Bot, Budget
from triominos.bots.clairvoyant import ClairvoyantBot
from triominos.bots.spec import BotSpec
from triominos.cluster import ordered_map
from triominos.game import Match
from triominos.record import PlayerInfo, match_record
from triominos.rules import Rules

CONFIDENCE = 0.95
BOOTSTRAP_RESAMPLES = 2000

ARENA_BOTS = (*BOT_NAMES, clairvoyant.NAME)
"""Every bot an arena can seat: the clairvoyant reference only here, where the whole
hand is at hand (:mod:`triominos.bots.clairvoyant`)."""


def make_entry(name: str, seed: int, budget: Budget) -> Bot | ClairvoyantBot:
    """The bot of an entry: a bot spec's (``sim(fishing=4)``), or the clairvoyant reference."""
    if name == clairvoyant.NAME:
        return ClairvoyantBot(seed, budget)
    return BotSpec.from_text(name).make(seed, budget)


@dataclass(frozen=True, slots=True)
class ArenaConfig:
    """What to play: the rules, the entries by seat, the bots' budget, how many groups.

    ``bots`` names the entry of each seat in rotation 0, each a bot spec
    (:class:`~triominos.bots.spec.BotSpec`: ``sim`` or ``sim(fishing=4)``). ``hands``:
    each game is one hand instead of a match to the target. ``seed`` is the first
    group's match seed; group ``g`` plays seed ``seed + g``.
    """

    rules: Rules
    bots: tuple[str, ...]
    budget: Budget
    groups: int
    seed: int
    hands: bool = False

    def __post_init__(self) -> None:
        self.rules.check_players(len(self.bots))
        for name in self.bots:
            BotSpec.from_text(name, ARENA_BOTS)  # a BotSpecError names what is wrong
        if self.groups < 1:
            raise ValueError(f"an arena plays at least one group of deals, not {self.groups}")

    @property
    def players(self) -> int:
        return len(self.bots)

    @property
    def game_rules(self) -> Rules:
        """The rules each game is played under: the match's, or one hand's."""
        if self.hands:
            return self.rules.replace(target_score=None, hand_limit=1)
        return self.rules

    @property
    def labels(self) -> list[str]:
        """A name for each entry: the bot's, numbered when a bot has several seats."""
        labels = []
        for entry, name in enumerate(self.bots):
            same = self.bots[:entry].count(name)
            labels.append(name if not same else f"{name} ({same + 1})")
        return labels

    def schedule(self) -> list[Game]:
        """Every game, group by group, each group in every rotation."""
        return [
            Game(group, rotation, self.seed + group)
            for group in range(self.groups)
            for rotation in range(self.players)
        ]


class Game(NamedTuple):
    """One match (or hand) of the schedule: a group's seed in one rotation."""

    group: int
    rotation: int
    seed: int

    def seating(self, players: int) -> tuple[int, ...]:
        """The entry at each seat: rotation ``r`` moves every entry ``r`` seats on."""
        return tuple((seat - self.rotation) % players for seat in range(players))


@dataclass(frozen=True, slots=True)
class GameResult:
    """How one game went, by seat, and the entry that sat at each seat."""

    game: Game
    seating: tuple[int, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    hands: int
    moves: tuple[int, ...]
    """Actions each seat chose."""
    thinking: tuple[float, ...]
    """Seconds each seat spent choosing them."""
    record: dict[str, Any] | None = field(default=None, compare=False)

    def without_record(self) -> GameResult:
        """The same result, its record dropped (records are large; figures are not)."""
        return replace(self, record=None)

    def seat_of(self, entry: int) -> int:
        return self.seating.index(entry)

    def win_share(self, entry: int) -> float:
        """1 for a win, ``1/k`` for a win shared by ``k`` seats, 0 otherwise."""
        seat = self.seat_of(entry)
        return 1 / len(self.winners) if seat in self.winners else 0.0

    def margin(self, entry: int) -> float:
        """The entry's total less the mean of the other seats' totals."""
        seat = self.seat_of(entry)
        others = (sum(self.totals) - self.totals[seat]) / (len(self.totals) - 1)
        return self.totals[seat] - others


def play_game(config: ArenaConfig, game: Game, keep_record: bool = False) -> GameResult:
    """Play one game of the schedule to its end (in whatever process runs it)."""
    players = config.players
    seating = game.seating(players)
    names = [config.bots[entry] for entry in seating]
    bots = [
        make_entry(name, game.seed * 8 + seat, config.budget) for seat, name in enumerate(names)
    ]
    match = Match(config.game_rules, players, game.seed)
    moves = [0] * players
    thinking = [0.0] * players
    while not match.is_over:
        seat = match.to_move
        start = time.perf_counter()
        bot = bots[seat]
        if isinstance(bot, ClairvoyantBot):
            action = bot.act_seeing(match.observe(seat), match.hand.racks)
        else:
            action = bot.act(match.observe(seat))
        thinking[seat] += time.perf_counter() - start
        moves[seat] += 1
        match.apply(action, seat)
    record = None
    if keep_record:
        record = match_record(match, [PlayerInfo(name, "bot") for name in names])
    return GameResult(
        game,
        seating,
        tuple(match.totals),
        tuple(match.winners),
        len(match.hands),
        tuple(moves),
        tuple(thinking),
        record,
    )


def play_games(
    config: ArenaConfig,
    *,
    jobs: int = 1,
    ray: str | None = None,
    keep_records: bool = False,
    on_done: Callable[[GameResult], None] | None = None,
) -> Generator[GameResult]:
    """Play the whole schedule in ``jobs`` processes, or as tasks of the Ray cluster at
    ``ray``; results in schedule order (:func:`~triominos.cluster.ordered_map`).

    ``on_done`` hears of each game as soon as it finishes (for a progress bar), while
    the results wait for the games before them.
    """
    play = partial(play_game, config, keep_record=keep_records)
    yield from ordered_map(play, config.schedule(), jobs=jobs, ray=ray, on_done=on_done)


# --- statistics -----------------------------------------------------------------------


def wilson_interval(
    successes: float, trials: int, confidence: float = CONFIDENCE
) -> tuple[float, float]:
    """The Wilson score interval for a rate of ``successes`` in ``trials`` independent trials."""
    if trials <= 0:
        raise ValueError("an interval needs at least one trial")
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    rate = successes / trials
    centre = (rate + z * z / (2 * trials)) / (1 + z * z / trials)
    half = (
        z / (1 + z * z / trials) * math.sqrt(rate * (1 - rate) / trials + z * z / (4 * trials**2))
    )
    return max(0.0, centre - half), min(1.0, centre + half)


def bootstrap_interval(
    values: Sequence[float],
    *,
    confidence: float = CONFIDENCE,
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = 0,
) -> tuple[float, float]:
    """The percentile bootstrap interval of the mean of ``values`` (deterministic per seed).

    Each value is one independent unit, here a duplicate group's mean.
    """
    if not values:
        raise ValueError("an interval needs at least one value")
    rng = random.Random(seed)
    count = len(values)
    means = sorted(sum(rng.choices(values, k=count)) / count for _ in range(resamples))
    tail = (1 - confidence) / 2
    low = means[math.floor(tail * (resamples - 1))]
    high = means[math.ceil((1 - tail) * (resamples - 1))]
    return low, high


@dataclass(frozen=True, slots=True)
class EntryStats:
    """One entry's figures over an arena (see the module docstring)."""

    label: str
    bot: str
    matches: int
    wins: float
    win_rate: float
    win_interval: tuple[float, float]
    fair_share: float
    margin: float
    margin_interval: tuple[float, float]
    rating: float
    rating_sigma: float
    seconds_per_move: float


def group_means(
    results: Sequence[GameResult], measure: Callable[[GameResult], float]
) -> list[float]:
    """The mean of ``measure`` over each duplicate group's games, group by group."""
    by_group: dict[int, list[float]] = {}
    for result in results:
        by_group.setdefault(result.game.group, []).append(measure(result))
    return [sum(values) / len(values) for _, values in sorted(by_group.items())]


def ratings(results: Sequence[GameResult], entries: int) -> list[tuple[float, float]]:
    """Each entry's openskill (mu, sigma), rating the games in the order given.

    A game's finishing order is by total: the highest first, equal totals sharing a rank.
    """
    model = PlackettLuce()
    rated = [model.rating(name=str(entry)) for entry in range(entries)]
    for result in results:
        teams = [[rated[entry]] for entry in result.seating]
        ranks = [1.0 + sum(other > total for other in result.totals) for total in result.totals]
        for entry, team in zip(result.seating, model.rate(teams, ranks=ranks), strict=True):
            rated[entry] = team[0]
    return [(rating.mu, rating.sigma) for rating in rated]


def summarize(config: ArenaConfig, results: Sequence[GameResult]) -> list[EntryStats]:
    """The figures of every entry, in entry order."""
    if not results:
        raise ValueError("no games to summarize")
    rated = ratings(results, config.players)
    stats = []
    for entry, label in enumerate(config.labels):

        def win_share(result: GameResult, entry: int = entry) -> float:
            return result.win_share(entry)

        def margin(result: GameResult, entry: int = entry) -> float:
            return result.margin(entry)

        seats = [result.seat_of(entry) for result in results]
        moves = sum(result.moves[seat] for result, seat in zip(results, seats, strict=True))
        thinking = sum(result.thinking[seat] for result, seat in zip(results, seats, strict=True))
        wins = sum(map(win_share, results))
        stats.append(
            EntryStats(
                label,
                config.bots[entry],
                len(results),
                wins,
                wins / len(results),
                bootstrap_interval(group_means(results, win_share)),
                1 / config.players,
                sum(map(margin, results)) / len(results),
                bootstrap_interval(group_means(results, margin)),
                rated[entry][0],
                rated[entry][1],
                thinking / moves if moves else 0.0,
            )
        )
    return stats


# --- the sequential test ----------------------------------------------------------------


def elo_from_score(score: float) -> float:
    """The logistic Elo difference that gives the expected ``score`` (0 to 1); infinite at
    0 and 1."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


def score_from_elo(elo: float) -> float:
    """The expected score (0 to 1) of a logistic Elo difference."""
    return 1 / (1 + 10 ** (-elo / 400))


PAIR_PRIOR = 0.5
"""Pseudo-pairs added to each of the five pair outcomes for the variance only, so that a
few pairs all alike (a variance of 0) do not make the test decide at once."""


@dataclass(frozen=True, slots=True)
class EloEstimate:
    """The first entry's Elo over the second from duplicate pairs, with its interval."""

    pairs: int
    score: float
    """The first entry's mean win share per game."""
    elo: float
    interval: tuple[float, float]


def elo_estimate(pair_scores: Sequence[float], confidence: float = CONFIDENCE) -> EloEstimate:
    """The Elo difference of the mean pair score, its interval by the normal
    approximation of the pairs' mean, mapped to Elo (the pairs are independent; the
    games of a pair are not)."""
    if not pair_scores:
        raise ValueError("an Elo estimate needs at least one pair")
    count = len(pair_scores)
    mean = sum(pair_scores) / count
    half = NormalDist().inv_cdf(0.5 + confidence / 2) * math.sqrt(
        _pair_variance(pair_scores) / count
    )
    return EloEstimate(
        count,
        mean,
        elo_from_score(mean),
        (elo_from_score(mean - half), elo_from_score(mean + half)),
    )


def _pair_variance(pair_scores: Sequence[float]) -> float:
    """The variance of a pair's score, the five outcomes (0, 1/4, ... 1) each given
    :data:`PAIR_PRIOR` pseudo-pairs."""
    prior = [index / 4 for index in range(5)]
    weight = len(pair_scores) + PAIR_PRIOR * len(prior)
    mean = (sum(pair_scores) + PAIR_PRIOR * sum(prior)) / weight
    squares = sum((score - mean) ** 2 for score in pair_scores)
    squares += PAIR_PRIOR * sum((score - mean) ** 2 for score in prior)
    return squares / weight


@dataclass(frozen=True, slots=True)
class SprtResult:
    """Where a sequential test stands (see :class:`Sprt`)."""

    llr: float
    lower: float
    upper: float
    estimate: EloEstimate
    decision: str | None
    """``"H0"`` (the first entry is no more than ELO0 stronger), ``"H1"`` (at least
    ELO1), or None: play on."""


@dataclass(frozen=True, slots=True)
class Sprt:
    """A sequential probability ratio test of H0: Elo = ``elo0`` against H1: Elo =
    ``elo1`` (the first entry over the second), over duplicate pairs.

    The unit is the *pair*: one deal played twice, the seats swapped, scored by the first
    entry's mean win share, 0, 1/4, 1/2, 3/4 or 1 (the pentanomial model, as chess
    engines are tested). The two games of a pair share their deals, so they are not
    independent trials; the pairs are, and a pair's score varies less than two lone
    games' would, since the luck of the deal cancels: the test stops sooner than on
    games. The log-likelihood ratio is the GSPRT's normal approximation,
    ``n (s1 - s0) (2 mean - s0 - s1) / (2 var)``, with ``s0``, ``s1`` the scores
    expected at ``elo0``, ``elo1`` and ``var`` a pair score's variance (Van den Bergh's
    generalized SPRT, used by Fishtest and OpenBench). Wald's bounds
    ``log(beta / (1 - alpha))`` and ``log((1 - beta) / alpha)`` keep the chances of
    accepting H1 when H0 holds under ``alpha`` and the reverse under ``beta``.
    """

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not self.elo0 < self.elo1:
            raise ValueError(f"--sprt needs ELO0 below ELO1, not {self.elo0:g},{self.elo1:g}")
        for name, value in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0 < value < 0.5:
                raise ValueError(f"--{name} is a probability between 0 and 0.5, not {value:g}")

    @property
    def bounds(self) -> tuple[float, float]:
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    def test(self, pair_scores: Sequence[float]) -> SprtResult:
        """The test after ``pair_scores`` (each a pair's score, 0 to 1, in order)."""
        lower, upper = self.bounds
        estimate = elo_estimate(pair_scores)
        s0, s1 = score_from_elo(self.elo0), score_from_elo(self.elo1)
        variance = _pair_variance(pair_scores)
        llr = len(pair_scores) * (s1 - s0) * (2 * estimate.score - s0 - s1) / (2 * variance)
        decision = "H1" if llr >= upper else "H0" if llr <= lower else None
        return SprtResult(llr, lower, upper, estimate, decision)


def pair_scores(results: Sequence[GameResult], entry: int = 0) -> list[float]:
    """Each duplicate group's mean win share of ``entry``: its pair scores, group by group."""
    return group_means(results, lambda result: result.win_share(entry))


def play_sprt(
    config: ArenaConfig,
    sprt: Sprt,
    *,
    jobs: int = 1,
    ray: str | None = None,
    on_done: Callable[[GameResult], None] | None = None,
) -> tuple[SprtResult, list[GameResult]]:
    """Play duplicate pairs of ``config`` (at most its ``groups``) until ``sprt`` decides;
    the test where it stopped and the games played."""
    if config.players != 2:
        raise ValueError(f"--sprt compares two bots head to head: 2 players, not {config.players}")
    results: list[GameResult] = []
    result: SprtResult | None = None
    games = play_games(config, jobs=jobs, ray=ray, on_done=on_done)
    try:
        for game in games:
            results.append(game)
            if game.game.rotation == config.players - 1:  # a pair complete
                result = sprt.test(pair_scores(results))
                if result.decision is not None:
                    break
    finally:
        games.close()  # the games not started are dropped
    assert result is not None  # at least one group is played
    return result, results


# --- the ladder -------------------------------------------------------------------------

VIRTUAL_DRAW = 1.0
"""Pairs scored 1/2 added to every pairing of a ladder: without them a bot that won
every pair would be rated infinitely far above (as BayesElo and Ordo do, a small prior)."""

LADDER_RESAMPLES = 500


@dataclass(frozen=True, slots=True)
class Rung:
    """One bot's place on a ladder."""

    bot: str
    elo: float
    """Above the ladder's first bot, rated 0."""
    interval: tuple[float, float]
    score: float
    """Its mean pair score over all its pairings."""


def ladder(
    names: Sequence[str], scores: Mapping[tuple[int, int], Sequence[float]], *, seed: int = 0
) -> list[Rung]:
    """Elo ratings from a round robin: ``scores[i, j]`` are the pair scores of bot ``i``
    against bot ``j`` (``i < j``). Bradley-Terry by maximum likelihood, the first bot at
    0; each 95% interval by a percentile bootstrap of the pairs within each pairing."""
    if len(names) < 2:
        raise ValueError("a ladder needs at least two bots")
    elos = _bradley_terry(
        len(names), {key: _mean(values) for key, values in scores.items()}, scores
    )
    rng = random.Random(seed)
    samples: list[list[float]] = [[] for _ in names]
    for _ in range(LADDER_RESAMPLES):
        resampled = {key: rng.choices(values, k=len(values)) for key, values in scores.items()}
        means = {key: _mean(values) for key, values in resampled.items()}
        for bot, elo in enumerate(_bradley_terry(len(names), means, scores)):
            samples[bot].append(elo)
    tail = (1 - CONFIDENCE) / 2
    rungs = []
    for bot, name in enumerate(names):
        ordered = sorted(samples[bot])
        low = ordered[math.floor(tail * (LADDER_RESAMPLES - 1))]
        high = ordered[math.ceil((1 - tail) * (LADDER_RESAMPLES - 1))]
        own = [
            score if i == bot else 1 - score
            for (i, j), values in scores.items()
            if bot in (i, j)
            for score in values
        ]
        rungs.append(Rung(name, elos[bot], (low, high), _mean(own)))
    return rungs


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values)


def _bradley_terry(
    bots: int,
    means: Mapping[tuple[int, int], float],
    scores: Mapping[tuple[int, int], Sequence[float]],
) -> list[float]:
    """Each bot's Elo above the first, from each pairing's mean pair score (weighted by its
    pairs, plus :data:`VIRTUAL_DRAW`): Hunter's MM iteration to the likelihood's maximum."""
    weights = {key: len(values) + VIRTUAL_DRAW for key, values in scores.items()}
    won = [0.0] * bots
    for (i, j), mean in means.items():
        pairs = len(scores[i, j])
        won[i] += mean * pairs + VIRTUAL_DRAW / 2
        won[j] += (1 - mean) * pairs + VIRTUAL_DRAW / 2
    strength = [1.0] * bots
    for _ in range(1000):
        denominators = [0.0] * bots
        for (i, j), weight in weights.items():
            share = weight / (strength[i] + strength[j])
            denominators[i] += share
            denominators[j] += share
        updated = [
            won[bot] / denominators[bot] if denominators[bot] else strength[bot]
            for bot in range(bots)
        ]
        change = max(abs(math.log(new / old)) for new, old in zip(updated, strength, strict=True))
        strength = updated
        if change < 1e-9:
            break
    return [400 * math.log10(value / strength[0]) for value in strength]
