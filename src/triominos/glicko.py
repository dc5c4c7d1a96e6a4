"""Glicko-2 ratings, as Mark Glickman's "Example of the Glicko-2 system" (2013) defines them.

A rating carries its uncertainty: ``deviation`` (RD) is how far the true strength may
be from ``rating``, and ``volatility`` how erratic the player's results are. A new player
starts at 1500 with RD 350; RD shrinks with every result and grows again with time
away. The puzzles rate both sides of every attempt this way, the solver against the
puzzle and the puzzle against the solver, as lichess does: a puzzle that many strong
players fail becomes a strong puzzle.

The numbered steps below are the paper's. ``tau`` constrains how fast volatility moves
(the paper suggests 0.3 to 1.2; its example uses 0.5).

>>> player = Rating(1500, 200)
>>> rated = player.rated([(Rating(1400, 30), 1), (Rating(1550, 100), 0), (Rating(1700, 300), 0)])
>>> round(rated.rating, 2), round(rated.deviation, 2), round(rated.volatility, 6)
(1464.05, 151.52, 0.059996)

(The paper rounds its intermediate steps and prints 1464.06, 151.52 and 0.05999.)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178
"""The factor between the Glicko scale (1500, 350) and Glicko-2's (0, 2.01): 400 / ln 10."""
TAU = 0.5
"""The system constant: how far a volatility may move in one rating period."""
CONVERGENCE = 0.000001
"""The tolerance of the volatility's iteration (step 5)."""
NEW_DEVIATION = 350.0
"""The deviation of a player with no results; a deviation never grows beyond it."""


class RatingError(ValueError):
    """A rating or a result that Glicko-2 has no meaning for."""


@dataclass(frozen=True, slots=True)
class Rating:
    """A Glicko-2 rating on the familiar scale (1500 for a new player)."""

    rating: float = 1500.0
    deviation: float = NEW_DEVIATION
    volatility: float = 0.06

    def __post_init__(self) -> None:
        if not math.isfinite(self.rating):
            raise RatingError(f"a rating is a finite number, not {self.rating!r}")
        if not 0 < self.deviation <= NEW_DEVIATION:
            raise RatingError(
                f"a rating deviation is above 0 and at most {NEW_DEVIATION:g}, "
                f"not {self.deviation!r}"
            )
        if not 0 < self.volatility < 1:
            raise RatingError(f"a volatility is between 0 and 1, not {self.volatility!r}")

    def expected(self, opponent: Rating) -> float:
        """The chance of beating ``opponent``, from both ratings and the opponent's RD."""
        mu, mu_j, phi_j = _mu(self), _mu(opponent), _phi(opponent)
        return _e(mu, mu_j, phi_j)

    def rated(self, results: Sequence[tuple[Rating, float]], tau: float = TAU) -> Rating:
        """The rating after one rating period with ``results``: (opponent, score) pairs,
        the score 1 for a win, 0 for a loss, 0.5 for a draw. No results: only the
        deviation grows (step 6 alone)."""
        mu, phi, sigma = _mu(self), _phi(self), self.volatility
        if not results:
            return self._with(mu, min(math.sqrt(phi * phi + sigma * sigma), _MAX_PHI), sigma)
        # Step 3 and 4: the estimated variance v and the improvement delta.
        v_inverse = 0.0
        improvement = 0.0
        for opponent, score in results:
            if not 0 <= score <= 1:
                raise RatingError(f"a result is a score from 0 to 1, not {score!r}")
            mu_j, phi_j = _mu(opponent), _phi(opponent)
            g, e = _g(phi_j), _e(mu, mu_j, phi_j)
            v_inverse += g * g * e * (1 - e)
            improvement += g * (score - e)
        v = 1 / v_inverse
        delta = v * improvement
        # Step 5: the new volatility, by the Illinois algorithm.
        sigma = _volatility(phi, sigma, v, delta, tau)
        # Step 6 and 7: the deviation before and after the period's results, the rating.
        phi_star = math.sqrt(phi * phi + sigma * sigma)
        new_phi = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
        new_mu = mu + new_phi * new_phi * improvement
        return self._with(new_mu, min(new_phi, _MAX_PHI), sigma)

    @staticmethod
    def _with(mu: float, phi: float, sigma: float) -> Rating:
        """Step 8: back to the Glicko scale."""
        return Rating(SCALE * mu + 1500, SCALE * phi, sigma)


_MAX_PHI = NEW_DEVIATION / SCALE


def _mu(rating: Rating) -> float:
    return (rating.rating - 1500) / SCALE


def _phi(rating: Rating) -> float:
    return rating.deviation / SCALE


def _g(phi: float) -> float:
    """How much an opponent's result counts: less, the less sure their rating is."""
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the root of the paper's f(x), x = ln(sigma'^2), by the Illinois algorithm."""
    a = math.log(sigma * sigma)
    delta2, phi2 = delta * delta, phi * phi

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta2 - phi2 - v - ex) / (2 * (phi2 + v + ex) ** 2) - (x - a) / (tau * tau)

    upper = a
    if delta2 > phi2 + v:
        lower = math.log(delta2 - phi2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        lower = a - k * tau
    f_upper, f_lower = f(upper), f(lower)
    while abs(lower - upper) > CONVERGENCE:
        middle = upper + (upper - lower) * f_upper / (f_lower - f_upper)
        f_middle = f(middle)
        if f_middle * f_lower <= 0:
            upper, f_upper = lower, f_lower
        else:
            f_upper /= 2
        lower, f_lower = middle, f_middle
    return math.exp(upper / 2)
