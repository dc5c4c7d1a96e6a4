"""Every example of docs/research.md runs as it stands."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parent.parent / "docs" / "research.md"
EXAMPLES = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)
EXTRAS = ("numpy", "pyspiel", "open_spiel", "pettingzoo", "gymnasium", "triominos.rl")
"""Modules of the rl extra: an example that imports one is skipped without it."""


def test_the_document_has_its_examples() -> None:
    assert len(EXAMPLES) == 14


@pytest.mark.parametrize("number", range(len(EXAMPLES)))
def test_example_runs(number: int) -> None:
    code = EXAMPLES[number]
    for module in EXTRAS:
        if re.search(rf"^(import|from) {re.escape(module)}\b", code, re.MULTILINE):
            pytest.importorskip(module)
    output = io.StringIO()
    with contextlib.redirect_stdout(output):
        exec(compile(code, f"{DOC.name} example {number + 1}", "exec"), {"__name__": "example"})
    assert output.getvalue().strip(), "each example prints what it found"
