"""The learning baseline (triominos.rl.baseline): it trains, saves, and plays in the arena."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")

from triominos.arena import ArenaConfig, play_games  # noqa: E402
from triominos.bots import Budget  # noqa: E402
from triominos.rl import baseline  # noqa: E402
from triominos.rules import preset  # noqa: E402


def test_a_few_hands_of_training_move_the_weights_and_save_them(tmp_path: Path) -> None:
    policy, curve = baseline.train(3, seed=2)
    assert len(curve) == 3 and all(value in (-1.0, 0.0, 1.0) for value in curve)
    assert np.any(policy.weights != 0)  # a hand that was not even moved them
    again, _ = baseline.train(3, seed=2)
    assert np.array_equal(policy.weights, again.weights)  # seeded: the same run
    out, curve_file = tmp_path / "weights.json", tmp_path / "curve.svg"
    baseline.main(["--episodes", "2", "--out", str(out), "--curve", str(curve_file)])
    assert len(json.loads(out.read_text())["weights"]) == policy.weights.size
    assert curve_file.read_text().startswith("<svg") and "polyline" in curve_file.read_text()


def test_the_trained_agent_is_seated_in_the_arena_by_module_and_factory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    policy, _ = baseline.train(2, seed=5)
    weights = tmp_path / "weights.json"
    weights.write_text(json.dumps(policy.to_json()))
    monkeypatch.setenv(baseline.WEIGHTS, str(weights))
    assert np.array_equal(baseline.load().weights, policy.weights)
    rules = preset("classic").rules.replace(target_score=50)
    config = ArenaConfig(
        rules, ("triominos.rl.baseline:make", "greedy"), Budget(simulations=1), 1, 3
    )
    results = list(play_games(config, jobs=1))
    assert len(results) == 2


def test_the_shipped_weights_load() -> None:
    assert baseline.load(None).weights.size == baseline.make().space.feature_size
