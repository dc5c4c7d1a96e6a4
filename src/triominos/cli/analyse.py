"""``triominos analyse``: what each decision of a recorded match lost against the best."""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import Any, NamedTuple, Protocol

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
from triominos.cli.workers import ray_option
from triominos.cluster import ClusterError, ordered_map
from triominos.game import TakeJoker
from triominos.notation import move_to_text
from triominos.record import RecordError, VerificationError


@main.command("analyse")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@record_option
@click.option(
    "--all",
    "every_record",
    is_flag=True,
    help="Analyse every record of the file, in order (--record is then ignored).",
)
@click.option(
    "--sims",
    type=click.IntRange(min=1),
    default=DEFAULT_SIMULATIONS,
    show_default=True,
    help="Simulations per decision, shared by its choices.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the sampled worlds.")
@click.option(
    "--json", "as_json", is_flag=True, help="Print the analysis as JSON (a line a record)."
)
@ray_option
@click.pass_context
def analyse_command(
    context: click.Context,
    file: Path,
    record_number: int,
    every_record: bool,
    sims: int,
    seed: int,
    as_json: bool,
    ray: str | None,
) -> None:
    """Analyse a recorded match: every decision against the best choice the bots see.

    For every placement, draw and pass of every player, the choices the player had are
    valued from that player's information only (never the hidden racks), in the same
    sampled worlds; the loss is the best choice's value less the move made's, in
    points. The marked decisions (inaccuracy, mistake, blunder) are listed with a
    summary per player; --json prints every decision. The same --sims and --seed give
    the same analysis. With --all, every record of the file is analysed (with --ray,
    a record a task on the cluster) and printed in the file's order.

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
    numbers = range(1, len(entries) + 1) if every_record else [record_number]
    chosen = [Entry(number, *entries[number - 1]) for number in numbers]
    analyses: list[Analysis] = []
    try:
        with progress_bar() as bar:
            task = bar.add_task("analysing", total=None)
            decisions = None
            if ray is None:  # here, each record's decisions shown as they are valued
                decisions = partial(bar.update, task)
            else:
                bar.update(task, total=len(chosen))
            analysed = ordered_map(
                partial(analyse_entry, sims, seed, decisions),
                chosen,
                ray=ray,
                on_done=None if ray is None else lambda _: bar.advance(task),
            )
            for analysis in analysed:  # one at a time: on an error, the count names the record
                analyses.append(analysis)
    except RecordError as error:
        stop(context, f"{file}: record {chosen[len(analyses)].number}: {error}")
    except VerificationError as error:
        click.echo(f"{file}: {error}", err=True)
        context.exit(1)
    except ClusterError as error:
        stop(context, str(error))
    console = Console(highlight=False)
    for entry, analysis in zip(chosen, analyses, strict=True):
        if as_json:
            click.echo(json.dumps(analysis.to_json(), ensure_ascii=False))
            continue
        if every_record:
            console.print(f"Record {entry.number}, line {entry.line}")
        console.print(marks_table(analysis))
        console.print(summary_table(analysis))
    if not as_json:
        limits = ", ".join(f"{mark} {THRESHOLDS[mark]:g}" for mark in MARKS)
        console.print(f"{sims} simulations a decision, seed {seed}; marks from a loss of {limits}.")


class DecisionProgress(Protocol):
    """A progress bar's task update: the decisions valued of a record, of how many."""

    def __call__(self, *, completed: int, total: int) -> None: ...


class Entry(NamedTuple):
    """A record of the file: its number (1 is the first), its first line, its document."""

    number: int
    line: int
    document: dict[str, Any]


def analyse_entry(
    sims: int, seed: int, decisions: DecisionProgress | None, entry: Entry
) -> Analysis:
    """One record analysed, wherever it runs; ``decisions`` hears of each decision valued."""
    return analyse(
        entry.document,
        simulations=sims,
        seed=seed,
        index=entry.number,
        line=entry.line,
        progress=None
        if decisions is None
        else lambda done, total: decisions(completed=done, total=total),
    )


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
