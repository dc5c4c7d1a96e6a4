"""``triominos puzzles``: find puzzles in bot games, and check a file of them."""

from __future__ import annotations

import random
import statistics
from pathlib import Path

import click

from triominos.cli.main import main, stop
from triominos.cli.workers import cluster_errors, ray_option
from triominos.puzzles import (
    CONFIRM,
    SIMULATIONS,
    Puzzle,
    PuzzleError,
    generate,
    load,
    solves,
)


@main.group("puzzles")
def puzzles_command() -> None:
    """Puzzles: positions where one move clearly beats the obvious one (docs/puzzles.md)."""


@puzzles_command.command("generate")
@click.option("--count", type=click.IntRange(min=1), required=True, help="Puzzles to find.")
@click.option(
    "--out",
    type=click.Path(dir_okay=False, writable=True, path_type=Path),
    required=True,
    metavar="FILE.jsonl",
    help="Where to write them, one JSON line each (written as they are found).",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the games.")
@click.option(
    "--sims",
    type=click.IntRange(min=1),
    default=SIMULATIONS,
    show_default=True,
    help="Simulations of the screen: every choice of a position in the same worlds.",
)
@click.option(
    "--confirm-sims",
    type=click.IntRange(min=1),
    default=None,
    help=f"Simulations of the confirmation, from another seed [default: {CONFIRM} x --sims].",
)
@click.option(
    "--think",
    type=click.IntRange(min=1),
    default=200,
    show_default=True,
    help="Simulations a move of the sim players of the games.",
)
@ray_option
def generate_command(
    count: int,
    out: Path,
    seed: int,
    sims: int,
    confirm_sims: int | None,
    think: int,
    ray: str | None,
) -> None:
    """Play bot games (classic, 2 to 4 players, sim against sim or expert) and keep
    the positions where one move beats the obvious, highest-scoring one by the margin of
    docs/puzzles.md, at the screening budget and again at the confirming one.

    Each puzzle found is a line on standard error; at the end, how many positions were
    valued, screened in and confirmed, and how far the two budgets' margins differ.
    """
    confirm = CONFIRM * sims if confirm_sims is None else confirm_sims
    valued = screened = kept = 0
    differences: list[float] = []
    try:
        file = out.open("w", encoding="utf-8")
    except OSError as error:
        stop(click.get_current_context(), f"cannot write {out}: {error.strerror or error}")
    with file, cluster_errors():
        for game, found in generate(seed, sims, confirm, think=think, ray=ray):
            valued += 1
            if found.confirm_margin is None:
                continue
            screened += 1
            differences.append(abs(found.confirm_margin - found.screen_margin))
            if found.puzzle is None:
                continue
            kept += 1
            file.write(found.puzzle.to_json() + "\n")
            file.flush()
            click.echo(
                f"puzzle {kept}/{count}: {found.puzzle.id}, margin {found.puzzle.margin:.1f} "
                f"(screen {found.screen_margin:.1f}), {len(game.bots)} players "
                f"{','.join(game.bots)}, seed {game.seed}",
                err=True,
            )
            if kept == count:
                break
    noise = statistics.median(differences) if differences else 0.0
    click.echo(
        f"{kept} puzzles in {out}: {valued} positions valued, {screened} screened in, "
        f"{kept} confirmed; the budgets' margins differ by {noise:.1f} (median)"
    )


@puzzles_command.command("check")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--sample",
    type=click.IntRange(min=1),
    default=None,
    help="Check this many puzzles, drawn by --seed (default: every one).",
)
@click.option(
    "--sims",
    type=click.IntRange(min=1),
    default=SIMULATIONS,
    show_default=True,
    help="Simulations of each re-solve.",
)
@click.option(
    "--seed", type=int, default=0, show_default=True, help="Seed of the sample and the worlds."
)
@click.pass_context
def check_command(
    context: click.Context, file: Path, sample: int | None, sims: int, seed: int
) -> None:
    """Read every puzzle of FILE (each must parse, with a legal solution and one seat's
    information only) and solve them again: the solution must still come out best, and
    better than the obvious move.

    \b
    Exit status:
      0  every puzzle checked is solved again
      1  some are not (each is named)
      2  the file cannot be read or holds something that is not a puzzle
    """
    try:
        puzzles = load(file.read_text(encoding="utf-8").splitlines())
    except OSError as error:
        stop(context, f"cannot read {file}: {error.strerror or error}")
    except PuzzleError as error:
        stop(context, f"{file}: {error}")
    chosen: list[Puzzle] = puzzles
    if sample is not None and sample < len(puzzles):
        chosen = random.Random(seed).sample(puzzles, sample)
    wrong = 0
    for puzzle in chosen:
        if solves(puzzle, sims, seed=seed):
            click.echo(f"{puzzle.id}: solved")
        else:
            click.echo(f"{puzzle.id}: not solved again at {sims} simulations", err=True)
            wrong += 1
    click.echo(f"{len(chosen) - wrong} of {len(chosen)} solved again ({len(puzzles)} read)")
    if wrong:
        context.exit(1)
