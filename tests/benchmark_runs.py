"""Running a benchmark script as a person would, and reading the figures it prints."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
FIGURE = re.compile(r"^(?P<label>.+?): (?P<value>[+-]?\d+(?:\.\d+)?)\b")
"""A line ``label: number``, perhaps with a remark after the number."""


def benchmark_figures(script: str, *arguments: str) -> dict[str, float]:
    """Run ``benchmarks/<script>`` with ``arguments``; its figures, label -> number, in the
    order it printed them. Every line it prints must be a figure."""
    result = run_benchmark(script, *arguments)
    result.check_returncode()
    figures: dict[str, float] = {}
    for line in result.stdout.splitlines():
        match = FIGURE.match(line)
        assert match, f"{script} printed a line that is not a figure: {line!r}"
        figures[match["label"]] = float(match["value"])
    return figures


def run_benchmark(script: str, *arguments: str) -> subprocess.CompletedProcess[str]:
    """Run ``benchmarks/<script>`` with ``arguments``, whatever its exit status."""
    return subprocess.run(
        [sys.executable, str(BENCHMARKS / script), *arguments],
        capture_output=True,
        text=True,
        check=False,
    )
