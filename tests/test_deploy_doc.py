"""docs/deploy.md names every option of ``triominos serve`` and every environment
variable the service reads, so that an operator finds each one there."""

from __future__ import annotations

import re
from pathlib import Path

import click

from triominos.cli.serve import serve

ROOT = Path(__file__).resolve().parent.parent
SERVICE_SOURCES = [
    *sorted((ROOT / "src" / "triominos" / "server").rglob("*.py")),
    ROOT / "src" / "triominos" / "cli" / "serve.py",
    ROOT / "src" / "triominos" / "native.py",
]
"""The modules a node runs that may read the environment."""


def test_every_option_and_variable_of_the_service_is_in_deploy_md() -> None:
    guide = (ROOT / "docs" / "deploy.md").read_text()
    options = [
        (option, parameter.envvar)
        for parameter in serve.params
        if isinstance(parameter, click.Option)
        for option in parameter.opts
    ]
    assert ("--trusted-proxy", "TRIOMINOS_TRUSTED_PROXY") in options
    variables = {
        name
        for path in SERVICE_SOURCES
        for name in re.findall(r'"(TRIOMINOS_[A-Z_]+)"', path.read_text())
    }
    assert {"TRIOMINOS_PUSH_CONTACT", "TRIOMINOS_BOT_WORKERS"} <= variables
    missing = [f"`{option}`" for option, _ in options if f"`{option}`" not in guide]
    missing += [f"`{name}`" for name in sorted(variables) if f"`{name}`" not in guide]
    missing += [f"`{name}`" for _, name in options if name and f"`{name}`" not in guide]
    assert missing == []
