"""The command group and the options every sub-command shares."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

import click
from click.decorators import FC
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from triominos import native
from triominos.bots import BOTS, Bot, make_bot
from triominos.bots.sim import DEFAULT_BUDGET
from triominos.bots.spec import SETTINGS_EXAMPLE, BotSpec, BotSpecError, split_bots
from triominos.record import RecordError, iter_records
from triominos.rules import OPTIONS, PRESETS, RuleOptionError, Rules


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


def parse_bots(
    value: str, players: int | None, known: Sequence[str] = BOTS, *, settings: bool = False
) -> list[str]:
    """A comma-separated bot list, repeated to fill the seats (``players``; None: the
    bots as named); ``known``: the bots allowed.

    ``settings``: a bot may change its settings (``sim(fishing=4)``,
    :class:`~triominos.bots.spec.BotSpec`), as the measuring commands allow; each is
    returned as its spec writes it.
    """
    names = [name for name in split_bots(value) if name]
    if not names:
        raise click.BadParameter("name at least one bot", param_hint="--bots")
    try:
        specs = [BotSpec.from_text(name, tuple(known)) for name in names]
    except BotSpecError as error:
        raise click.BadParameter(str(error), param_hint="--bots") from None
    if not settings and any(spec.settings or spec.outside for spec in specs):
        raise click.BadParameter(
            "this command seats bots by name: settings such as sim(fishing=4) and "
            "outside agents (module:factory) are for triominos arena and ladder",
            param_hint="--bots",
        )
    names = [spec.to_text() for spec in specs]
    if players is None:
        return names
    return [names[seat % len(names)] for seat in range(players)]


def bots_option(
    default: str, known: Sequence[str] = BOTS, *, settings: bool = False
) -> Callable[[FC], FC]:
    """The ``--bots`` option of the commands where bots take seats (with ``settings``,
    as :func:`parse_bots` reads them)."""
    tuned = f" A bot may change its settings: {SETTINGS_EXAMPLE}." if settings else ""
    return click.option(
        "--bots",
        default=default,
        show_default=True,
        help=f"Bots, comma-separated, repeated to fill the seats ({', '.join(known)}).{tuned}",
    )


def seed_option(help_text: str = "Seed of the deals (random if omitted).") -> Callable[[FC], FC]:
    return click.option("--seed", type=int, default=None, help=help_text)


def think_option(help_text: str) -> Callable[[FC], FC]:
    """``--think BUDGET`` for the bots that search: sim's own budget unless told."""
    return click.option(
        "--think", default=str(DEFAULT_BUDGET), show_default=True, metavar="BUDGET", help=help_text
    )


hands_option = click.option("--hands", is_flag=True, help="Play single hands instead of matches.")

record_option = click.option(
    "--record",
    "record_number",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Which record of a JSON Lines file (1 is the first).",
)
"""``--record N`` for the commands that read one record of a file."""


def out_option(help_text: str) -> Callable[[FC], FC]:
    """``--out FILE.jsonl``: where to save the records of the games played."""
    return click.option(
        "--out",
        type=click.Path(dir_okay=False, writable=True, path_type=Path),
        default=None,
        metavar="FILE.jsonl",
        help=help_text,
    )


def rule_options(function: FC) -> FC:
    """``--target`` and ``--rule NAME=VALUE`` (repeatable): house rules on the preset's."""
    function = click.option(
        "--rule",
        "rule",
        multiple=True,
        metavar="NAME=VALUE",
        help="Set a rule option (repeatable), e.g. --rule max_draws=none; "
        "`triominos rules PRESET` lists them.",
    )(function)
    return click.option(
        "--target",
        type=click.IntRange(min=1),
        default=None,
        metavar="POINTS",
        help="End the match when a total reaches POINTS (default: the preset's target).",
    )(function)


def parse_rule(text: str) -> tuple[str, object]:
    """One ``--rule NAME=VALUE`` as the option's name and checked value."""
    name, equals, value = text.partition("=")
    name = name.strip()
    if not equals or not name:
        raise RuleOptionError(text, "give NAME=VALUE, like max_draws=none")
    if name not in OPTIONS:
        raise RuleOptionError(name, f"is not a rule option; options are {', '.join(OPTIONS)}")
    return name, OPTIONS[name].parse(value)


def match_rules(preset_name: str, target: int | None, rule: Sequence[str], players: int) -> Rules:
    """The preset's rules with ``--target`` and each ``--rule``, known to suit ``players``.

    A wrong ``--rule`` stops the command with one line naming the option and what it
    allows (status 2); the wrong player count raises click.BadParameter naming
    ``--players``: Junior is for 2 to 4.
    """
    rules = PRESETS[preset_name].rules
    try:
        changes = dict(map(parse_rule, rule))
        if target is not None:
            changes["target_score"] = target
        rules = rules.replace(**changes)
    except RuleOptionError as error:
        stop(click.get_current_context(), f"--rule {error}")
    try:
        rules.check_players(players)
    except RuleOptionError:
        raise click.BadParameter(
            f"{preset_name} is for {rules.min_players} to {rules.max_players} players, "
            f"not {players}",
            param_hint="--players",
        ) from None
    return rules


def seat_bot(name: str, match_seed: int | None, seat: int) -> Bot:
    """The bot for a seat, with its own random stream derived from the match seed.

    Seeds ``match_seed * 8 + seat`` never repeat across seats (at most six) nor across
    matches seeded one apart, so a selfplay series and a replayed match agree.
    """
    return make_bot(name, None if match_seed is None else match_seed * 8 + seat)


def scores_table(
    labels: Sequence[str], totals: Sequence[int], winners: Sequence[int], title: str
) -> Table:
    """The players and their totals, winners marked."""
    table = Table(title=title)
    table.add_column("player")
    table.add_column("total", justify="right")
    for seat, label in enumerate(labels):
        mark = " (winner)" if seat in winners else ""
        table.add_row(label + mark, str(totals[seat]))
    return table


def seed_or_random(seed: int | None) -> int:
    """The seed given, or a fresh random one (printed by the commands, so games replay)."""
    return random.SystemRandom().randrange(2**32) if seed is None else seed


def progress_bar() -> Progress:
    """A progress bar on standard error, shown only when that is a terminal."""
    console = Console(stderr=True)
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        disable=not console.is_terminal,
        transient=True,
    )


def stop(context: click.Context, message: str) -> NoReturn:
    """Say why the command cannot go on, on standard error, and exit with status 2."""
    click.echo(message, err=True)
    context.exit(2)


def read_record_file(context: click.Context, file: Path) -> list[tuple[int, dict[str, Any]]]:
    """The records of a file with the line each starts on; status 2 when unreadable."""
    try:
        return list(iter_records(file))
    except OSError as error:
        stop(context, f"cannot read {file}: {error.strerror or error}")
    except RecordError as error:
        stop(context, f"{file}: {error}")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
# The version and, on a line of its own, which core runs the board (triominos.native).
@click.version_option(
    package_name="triominos", message=f"%(prog)s, version %(version)s\n{native.core()}"
)
def main() -> None:
    """Triominos: play, watch bots play, and check game records."""


from triominos.cli import (  # noqa: E402, F401  (registers its command on main)
    analyse,
    arena,
    demo,
    ladder,
    play,
    puzzles,
    replay,
    rules,
    selfplay,
    serve,
    verify,
)

__all__ = [
    "bots_option",
    "demo",
    "main",
    "match_rules",
    "parse_bots",
    "players_option",
    "preset_option",
    "rule_options",
    "rules",
    "scores_table",
    "seat_bot",
    "seed_option",
]
