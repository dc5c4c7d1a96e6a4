"""The command group and the options every sub-command shares."""

from __future__ import annotations

import click

from triominos.bots import BOTS
from triominos.rules import PRESETS


def preset_option(function: click.decorators.FC) -> click.decorators.FC:
    return click.option(
        "--preset",
        type=click.Choice(sorted(PRESETS)),
        default="classic",
        show_default=True,
        help="Which edition's rules.",
    )(function)


def players_option(function: click.decorators.FC) -> click.decorators.FC:
    return click.option(
        "--players",
        type=click.IntRange(2, 6),
        default=2,
        show_default=True,
        help="Number of players.",
    )(function)


def parse_bots(value: str, players: int) -> list[str]:
    """A comma-separated bot list, repeated to fill the seats."""
    names = [name.strip() for name in value.split(",") if name.strip()]
    unknown = [name for name in names if name not in BOTS]
    if unknown or not names:
        raise click.BadParameter(
            f"unknown bot {unknown[0]!r}; bots are {', '.join(BOTS)}"
            if unknown
            else "name at least one bot",
            param_hint="--bots",
        )
    return [names[seat % len(names)] for seat in range(players)]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="triominos")
def main() -> None:
    """Triominos: play, watch bots play, and check game records."""


from triominos.cli import demo  # noqa: E402  (registers its command on main)

__all__ = ["demo", "main", "parse_bots", "players_option", "preset_option"]
