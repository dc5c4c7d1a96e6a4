"""benchmarks/native.py as a person runs it: a figure measured on both cores, side by
side, printed with its ratio (its speed is what the script is for, never asserted)."""

from __future__ import annotations

import re

from benchmark_runs import run_benchmark
from native_cores import needs_native

RATIO = re.compile(
    r"^(?P<name>.+): python (?P<python>[\d.e+]+)/s, "
    r"native (?P<native>[\d.e+]+)/s, (?P<ratio>[\d.]+)x$"
)


@needs_native
def test_the_greedy_playouts_figure_is_measured_on_both_cores() -> None:
    result = run_benchmark(
        "native.py", "--runs", "1", "--only", "classic 2p greedy hands in sim", "--playouts", "20"
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("on CPython ")
    figures = [RATIO.match(line) for line in lines[1:]]
    assert [figure["name"] for figure in figures if figure] == [
        "classic 2p greedy hands in sim's playouts"
    ]
    assert all(figures) and all(float(figure["native"]) > 0 for figure in figures if figure)
