"""The sim benchmark runs and prints its figures (speed itself is not tested)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "sim.py"


def test_the_sim_benchmark_prints_simulations_per_second() -> None:
    result = subprocess.run(
        [sys.executable, str(SCRIPT), "--runs", "1", "--moves", "2", "--simulations", "20"],
        capture_output=True,
        text=True,
        check=True,
    )
    lines = result.stdout.splitlines()
    assert lines[0].startswith("sim simulations/s: ")
    assert float(lines[0].split(": ")[1]) > 0
    assert lines[1].startswith("sim simulations/s (hand horizon): ")
    assert lines[2].startswith("sim moves/s (20 simulations): ")
