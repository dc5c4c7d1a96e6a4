"""The benchmark script runs and prints its figures (speed itself is not tested)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "engine.py"


def test_benchmark_prints_every_figure() -> None:
    result = subprocess.run(
        [sys.executable, str(SCRIPT), "--runs", "1", "--seconds", "0.05"],
        capture_output=True,
        text=True,
        check=True,
    )
    lines = result.stdout.splitlines()
    assert lines[0].startswith("classic 2p greedy hands/s: ")
    assert float(lines[0].split(": ")[1]) > 0
    assert any(line.startswith("legal placement generation calls/s") for line in lines)


def test_a_fixed_number_of_hands_for_instruction_counts() -> None:
    result = subprocess.run(
        [sys.executable, str(SCRIPT), "--runs", "1", "--seconds", "0.05", "--hands", "3"],
        capture_output=True,
        text=True,
        check=True,
    )
    first = result.stdout.splitlines()[0]
    assert first.startswith("classic 2p greedy hands/s: ")
    assert float(first.split(": ")[1]) > 0
