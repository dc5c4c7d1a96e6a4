"""The public API: what ``triominos.__all__`` and the module docs name, and ``__version__``."""

from __future__ import annotations

import doctest
import importlib.metadata
import re
import subprocess
import sys

import pytest

import triominos
import triominos.position
from triominos.board import Board, FrozenBoard


def test_every_public_name_is_there() -> None:
    for name in triominos.__all__:
        assert hasattr(triominos, name), name
    assert len(set(triominos.__all__)) == len(triominos.__all__)


def test_the_names_the_module_docs_give_are_public() -> None:
    doc = triominos.__doc__ or ""
    named = set(re.findall(r":(?:class|func|data):`(\w+)`", doc))
    assert named and named <= set(triominos.__all__), named - set(triominos.__all__)


def test_the_fast_layer_the_docs_name_exists_on_both_boards() -> None:
    doc = triominos.__doc__ or ""
    methods = set(re.findall(r":meth:`Board\.(\w+)`", doc))
    assert {"placement_ids", "best_placement", "push_unchecked"} <= methods
    readers = methods - {"push_unchecked", "pop", "swap_joker"}
    for name in methods:
        assert callable(getattr(Board, name)), name
    for name in readers:
        assert callable(getattr(FrozenBoard, name)), name


def test_the_version_comes_from_the_package_metadata() -> None:
    assert triominos.__version__ == importlib.metadata.version("triominos")


def test_the_version_without_metadata_is_said_to_be_unknown() -> None:
    script = (
        "import importlib.metadata as m\n"
        "def missing(name): raise m.PackageNotFoundError(name)\n"
        "m.version = missing\n"
        "import triominos\n"
        "print(triominos.__version__)\n"
    )
    shown = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert shown.stdout.strip() == "0+unknown"


@pytest.mark.parametrize("module", [triominos, triominos.position])
def test_the_examples_in_the_docs_run(module: object) -> None:
    result = doctest.testmod(module)  # type: ignore[arg-type]
    assert result.attempted and not result.failed
