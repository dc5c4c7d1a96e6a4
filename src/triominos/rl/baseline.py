"""A baseline that learns: a linear policy over the factored actions' features, trained by
REINFORCE against the project's bots, from the documented interfaces alone.

It is the smallest honest learner: each legal action's row of features
(:meth:`~triominos.factored.FactoredSpace.features`) is scored by one weight vector, a
softmax over the scores is the policy, and each hand against the opponents moves the
weights by the return less a running baseline (REINFORCE). Its point is to show the whole
loop a researcher runs — the Gymnasium environment with ``actions="factored"``, training,
saving, and seating the result in the arena as ``triominos.rl.baseline:make`` — not to
beat ``sim``. ``python -m triominos.rl.baseline --help`` trains one and draws its curve.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import numpy as np
import numpy.typing as npt

from triominos.factored import FactoredSpace
from triominos.game import Action, Observation
from triominos.rl.gymnasium import TriominosEnv
from triominos.rules import preset

WEIGHTS = "TRIOMINOS_BASELINE"
"""The environment variable naming a weights file for :func:`make` (else the shipped ones)."""


@dataclass
class LinearPolicy:
    """Scores each legal action's features with ``weights``; plays the best (or samples)."""

    weights: npt.NDArray[np.float64]
    temperature: float = 1.0
    rng: random.Random = field(default_factory=random.Random)

    @classmethod
    def zero(cls, space: FactoredSpace, seed: int | None = None) -> LinearPolicy:
        return cls(np.zeros(space.feature_size), rng=random.Random(seed))

    def probabilities(self, rows: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
        scores = rows @ self.weights / self.temperature
        scores -= scores.max()
        exp = np.exp(scores)
        return exp / exp.sum()  # type: ignore[no-any-return]

    def choose(self, rows: npt.NDArray[np.float32], sample: bool) -> int:
        """The index of the row chosen: drawn from the softmax, or the best score."""
        if not sample:
            return int(np.argmax(rows @ self.weights))
        return self.rng.choices(range(len(rows)), weights=list(self.probabilities(rows)))[0]

    def to_json(self) -> dict[str, object]:
        return {"weights": [float(w) for w in self.weights], "temperature": self.temperature}


def train(
    episodes: int,
    *,
    preset_name: str = "classic",
    opponent: str = "greedy",
    learning_rate: float = 0.05,
    seed: int = 0,
) -> tuple[LinearPolicy, list[float]]:
    """REINFORCE over ``episodes`` hands (one seat against ``opponent``); the policy and
    each hand's pairwise return (-1, 0 or 1), the learning curve."""
    environment = TriominosEnv(preset_name, [opponent], returns="pairwise", actions="factored")
    space = environment.space
    assert isinstance(space, FactoredSpace)
    policy = LinearPolicy.zero(space, seed)
    rng = np.random.default_rng(seed)
    curve: list[float] = []
    baseline = 0.0
    for episode in range(episodes):
        _, info = environment.reset(seed=int(rng.integers(2**31)))
        gradient = np.zeros_like(policy.weights)
        done, total = False, 0.0
        while not done:
            rows = info["action_features"]
            chosen = policy.choose(rows, sample=True)
            # The gradient of log softmax: the chosen row less the policy's mean row.
            gradient += rows[chosen] - policy.probabilities(rows) @ rows
            _, reward, done, _, info = environment.step(int(info["action_ids"][chosen]))
            total += reward
        policy.weights += learning_rate * (total - baseline) * gradient
        baseline += (total - baseline) / min(episode + 1, 100)  # the recent mean return
        curve.append(total)
    return policy, curve


class BaselineAgent:
    """The trained policy as an outside agent (``act(observation)``), playing its best."""

    def __init__(self, policy: LinearPolicy, space: FactoredSpace) -> None:
        self.name = "baseline"
        self.policy = policy
        self.space = space

    def act(self, observation: Observation) -> Action:
        ids, rows = self.space.features(observation)
        table = np.frombuffer(rows, dtype=np.float32).reshape(len(ids), self.space.feature_size)
        return self.space.decode(ids[self.policy.choose(table, sample=False)], observation.board)


def load(path: str | os.PathLike[str] | None = None) -> LinearPolicy:
    """The weights of ``path``, of ``$TRIOMINOS_BASELINE``, or the shipped ones."""
    chosen = path or os.environ.get(WEIGHTS)
    if chosen:
        text = Path(chosen).read_text(encoding="utf-8")
    else:
        text = resources.files("triominos").joinpath("data", "baseline.json").read_text("utf-8")
    document = json.loads(text)
    return LinearPolicy(np.array(document["weights"], dtype=np.float64), document["temperature"])


def make(seed: int | None = None) -> BaselineAgent:
    """The arena's factory: ``--bots triominos.rl.baseline:make,greedy``."""
    return BaselineAgent(load(), FactoredSpace(preset("classic").rules))


def curve_svg(curve: Sequence[float], window: int = 50) -> str:
    """The learning curve (the pairwise return's moving mean) as a small SVG picture."""
    means = [
        sum(curve[max(0, i - window + 1) : i + 1]) / (i + 1 - max(0, i - window + 1))
        for i in range(len(curve))
    ]
    width, height, pad = 480, 240, 40

    def x(i: int) -> float:
        return pad + (width - 2 * pad) * i / max(1, len(means) - 1)

    def y(value: float) -> float:
        return height - pad - (height - 2 * pad) * (value + 1) / 2

    points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(means))
    lines = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'font-family="sans-serif" font-size="11">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<line x1="{pad}" y1="{y(-1)}" x2="{pad}" y2="{y(1)}" stroke="black"/>',
        f'<line x1="{pad}" y1="{y(-1)}" x2="{width - pad}" y2="{y(-1)}" stroke="black"/>',
        f'<line x1="{pad}" y1="{y(0)}" x2="{width - pad}" y2="{y(0)}" stroke="#bbb" '
        'stroke-dasharray="4 3"/>',
        *(
            f'<text x="{pad - 6}" y="{y(v) + 4}" text-anchor="end">{v:+g}</text>'
            for v in (-1, 0, 1)
        ),
        f'<text x="{width / 2}" y="{height - 8}" text-anchor="middle">hands played '
        f"(0 to {len(curve)})</text>",
        f'<text x="12" y="{height / 2}" transform="rotate(-90 12 {height / 2})" '
        f'text-anchor="middle">result against the opponent, mean of {window}</text>',
        f'<polyline points="{points}" fill="none" stroke="#1565c0" stroke-width="2"/>',
        "</svg>",
    ]
    return "\n".join(lines) + "\n"


def main(arguments: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m triominos.rl.baseline", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--episodes", type=int, default=2000, help="hands to train on")
    parser.add_argument("--opponent", default="greedy", help="the bot trained against")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--learning-rate", type=float, default=0.05)
    parser.add_argument("--out", type=Path, required=True, help="the weights file to write")
    parser.add_argument("--curve", type=Path, help="an SVG file for the learning curve")
    options = parser.parse_args(arguments)
    if options.episodes < 1:
        parser.error("--episodes must be at least 1")
    policy, curve = train(
        options.episodes,
        opponent=options.opponent,
        learning_rate=options.learning_rate,
        seed=options.seed,
    )
    options.out.write_text(json.dumps(policy.to_json()), encoding="utf-8")
    if options.curve is not None:
        options.curve.write_text(curve_svg(curve), encoding="utf-8")
    last = curve[-min(len(curve), 200) :]
    mean = sum(last) / len(last)
    error = 1.96 * math.sqrt(sum((v - mean) ** 2 for v in last) / max(1, len(last) - 1) / len(last))
    print(
        f"trained {options.episodes} hands against {options.opponent}: "
        f"last {len(last)} hands {mean:+.3f} ± {error:.3f} (pairwise: -1 lost, +1 won)"
    )


if __name__ == "__main__":
    main()
