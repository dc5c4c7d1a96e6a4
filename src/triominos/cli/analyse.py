"""``triominos analyse``: what each decision of a recorded match lost against the best."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import click
from rich.console import Console
from rich.table import Table

from triominos.analysis import (
    DEFAULT_SIMULATIONS,
    MARKS,
    THRESHOLDS,
    Analysis,
    Choice,
    Mark,
    analyse,
)
from triominos.board import Placement
from triominos.cli.main import main, progress_bar, read_record_file, record_option, stop
from triominos.game import TakeJoker
from triominos.notation import move_to_text
from triominos.record import RecordError, VerificationError


@main.command("analyse")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@record_option
@click.option(
    "--sims",
    type=click.IntRange(min=1),
    default=DEFAULT_SIMULATIONS,
    show_default=True,
    help="Simulations per decision, shared by its choices.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the sampled worlds.")
@click.option("--json", "as_json", is_flag=True, help="Print the analysis as JSON, for programs.")
@click.pass_context
def analyse_command(
    context: click.Context, file: Path, record_number: int, sims: int, seed: int, as_json: bool
) -> None:
    """Analyse a recorded match: every decision against the best choice the bots see.

    For every placement, draw and pass of every player, the choices the player had are
    valued from that player's information only (never the hidden racks), in the same
    sampled worlds; the loss is the best choice's value less the move made's, in
    points. The marked decisions (inaccuracy, mistake, blunder) are listed with a
    summary per player; --json prints every decision. The same --sims and --seed give
    the same analysis.

    \b
    Exit status:
      0  the record was analysed
      1  the record's play is wrong (record, hand and action index are named)
      2  the file cannot be read, or holds something that is not a record (the line
         and the field are named), or --record is beyond its records
    """
    entries = read_record_file(context, file)
    if record_number > len(entries):
        stop(context, f"{file} holds {len(entries)} record(s), not {record_number}")
    line, document = entries[record_number - 1]
    try:
        with progress_bar() as bar:
            task = bar.add_task("analysing", total=None)
            analysis = analyse(
                document,
                simulations=sims,
                seed=seed,
                index=record_number,
                line=line,
                progress=lambda done, total: bar.update(task, completed=done, total=total),
            )
    except RecordError as error:
        stop(context, f"{file}: record {record_number}: {error}")
    except VerificationError as error:
        click.echo(f"{file}: {error}", err=True)
        context.exit(1)
    if as_json:
        click.echo(json.dumps(analysis.to_json(), ensure_ascii=False))
        return
    console = Console(highlight=False)
    console.print(marks_table(analysis))
    console.print(summary_table(analysis))
    limits = ", ".join(f"{mark} {THRESHOLDS[mark]:g}" for mark in MARKS)
    console.print(f"{sims} simulations a decision, seed {seed}; marks from a loss of {limits}.")


def move_text(choice: Choice) -> str:
    """A choice in the short notation (``545@0,0v``, ``draw``, ``pass``), with its points."""
    action = choice.action
    if isinstance(action, Placement | TakeJoker):
        return f"{move_to_text(action)} ({choice.points:+d})"
    return type(action).__name__.lower()


def marks_table(analysis: Analysis) -> Table:
    """The marked decisions in the order played."""
    table = Table(title="Marked decisions")
    for name, justify in _COLUMNS:
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    for decision in analysis.decisions:
        if decision.mark is None:
            continue
        table.add_row(
            str(decision.hand),
            str(decision.index),
            analysis.players[decision.seat],
            move_text(decision.played),
            move_text(decision.best),
            f"{decision.loss:.1f}",
            decision.mark,
        )
    return table


_COLUMNS: Sequence[tuple[str, str]] = (
    ("hand", "right"),
    ("action", "right"),
    ("player", "left"),
    ("played", "left"),
    ("best", "left"),
    ("loss", "right"),
    ("mark", "left"),
)


def summary_table(analysis: Analysis) -> Table:
    """Each player's decisions, average loss, marks (as chess writes them: ?! ? ??) and
    biggest bonus missed."""
    table = Table(title="Players", caption="?! inaccuracies, ? mistakes, ?? blunders")
    table.add_column("player")
    table.add_column("moves", justify="right")
    table.add_column("avg loss", justify="right")
    for mark in MARKS:
        table.add_column(MARK_SIGNS[mark], justify="right")
    table.add_column("biggest bonus missed")
    table.add_column("hand/action")
    for summary in analysis.summaries():
        missed, where = "-", ""
        if summary.missed is not None and summary.missed.missed is not None:
            bonus = summary.missed.missed
            missed = f"{bonus.name.replace('_', ' ')} +{bonus.points}"
            where = f"{summary.missed.hand}/{summary.missed.index}"
        table.add_row(
            summary.name,
            str(summary.decisions),
            f"{summary.average_loss:.1f}",
            *(str(summary.marks[mark]) for mark in MARKS),
            missed,
            where,
        )
    return table


MARK_SIGNS: dict[Mark, str] = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
