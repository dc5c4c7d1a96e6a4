"""``triominos replay``: a recorded game move by move, or one position of it."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import click

from triominos.cli.main import main, read_record_file, record_option, stop
from triominos.explain import describe_end, describe_event, describe_first_card
from triominos.record import (
    RecordError,
    ReplayStep,
    VerificationError,
    replay_steps,
)
from triominos.svg import board_svg
from triominos.textboard import board_text


@main.command("replay")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@record_option
@click.option(
    "--hand",
    "hand_number",
    type=click.IntRange(min=1),
    default=None,
    help="Only this hand; with --action, the hand of the position.",
)
@click.option(
    "--action",
    "action_index",
    type=click.IntRange(min=0),
    default=None,
    help="Draw the position after this action of the hand (0 is its first action).",
)
@click.option(
    "--svg",
    "svg_path",
    type=click.Path(dir_okay=False, allow_dash=True, path_type=Path),
    default=None,
    help="Write the position as SVG to this file ('-' for standard output).",
)
@click.option(
    "--coordinates/--no-coordinates",
    default=True,
    show_default=True,
    help="Label each tile with its cell.",
)
@click.pass_context
def replay_command(
    context: click.Context,
    file: Path,
    record_number: int,
    hand_number: int | None,
    action_index: int | None,
    svg_path: Path | None,
    coordinates: bool,
) -> None:
    """Replay a game record: every move in words, or the position after one action.

    Without --action the record's hands are told move by move, with the table at the
    end of each hand. With --hand and --action the position after that action is drawn,
    as text or, with --svg, as a picture. Every action is checked as `verify` checks it:
    exit status 1 names the first wrong action, 2 a file that cannot be read.
    """
    if action_index is not None and hand_number is None:
        raise click.UsageError("--action needs --hand: the action of which hand?")
    if svg_path is not None and action_index is None:
        raise click.UsageError("--svg draws one position: give --hand and --action too")
    entries = read_record_file(context, file)
    if record_number > len(entries):
        stop(context, f"{file} holds {len(entries)} record(s), not {record_number}")
    line, document = entries[record_number - 1]
    names = player_names(document)
    try:
        steps = replay_steps(document, index=record_number, line=line)
        if hand_number is not None and action_index is not None:
            step = find_step(steps, hand_number, action_index)
            if step is None:
                stop(
                    context,
                    f"record {record_number} has no action {action_index} in hand {hand_number}",
                )
            show_position(step, names, svg_path, coordinates)
        else:
            tell(steps, names, hand_number, coordinates)
    except RecordError as error:
        stop(context, f"{file}: record {record_number}: {error}")
    except VerificationError as error:
        click.echo(f"{file}: {error}", err=True)
        context.exit(1)


def player_names(document: dict[str, Any]) -> list[str]:
    """The players' names as the record gives them (checked later by the replay)."""
    players = document.get("players")
    if not isinstance(players, list):
        return []
    return [
        str(player["name"]) if isinstance(player, dict) and "name" in player else f"player {seat}"
        for seat, player in enumerate(players)
    ]


def find_step(
    steps: Iterable[ReplayStep], hand_number: int, action_index: int
) -> ReplayStep | None:
    for step in steps:
        if step.hand_number == hand_number and step.action_index == action_index:
            return step
    return None


def show_position(
    step: ReplayStep, names: Sequence[str], svg_path: Path | None, coordinates: bool
) -> None:
    board = step.hand.board
    if svg_path is None:
        click.echo(f"Hand {step.hand_number}, after action {step.action_index}:")
        click.echo(describe_event(step.event, names, step.hand.rules))
        click.echo(board_text(board, coordinates=coordinates))
        return
    picture = str(board_svg(board, coordinates=coordinates))
    if str(svg_path) == "-":
        click.echo(picture)
    else:
        svg_path.write_text(picture, encoding="utf-8")
        click.echo(f"wrote {svg_path}")


def tell(
    steps: Iterator[ReplayStep], names: Sequence[str], only_hand: int | None, coordinates: bool
) -> None:
    """Every action in words, and at each hand's end the table and the settlement."""
    current = 0
    for step in steps:
        if only_hand is not None and step.hand_number != only_hand:
            continue
        if step.hand_number != current:
            current = step.hand_number
            click.echo(f"\nHand {current}")
            first = step.hand.deal.first
            if first is not None:
                click.echo(f"       {describe_first_card(first)}")
        rules = step.hand.rules
        click.echo(f"  {step.action_index:3d}. {describe_event(step.event, names, rules)}")
        end = step.hand.end
        if end is not None:
            click.echo(board_text(step.hand.board, coordinates=coordinates))
            click.echo("  " + describe_end(end, names, rules))
