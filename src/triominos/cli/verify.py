"""``triominos verify``: check game records against the rules, as a referee would."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from triominos.cli.main import main, read_record_file, stop
from triominos.game import Match
from triominos.record import RecordError, VerificationError, verify


@main.command("verify")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.pass_context
def verify_command(context: click.Context, file: Path) -> None:
    """Check every game record in FILE against the rules.

    FILE holds one record (a JSON document) or many (JSON Lines, one record a line), in
    the triominos-record/1 format of RECORD.md. Each record is replayed action by action
    through the rules engine: every placement must be legal, every drawn tile the next
    one in the pool, and every points value, bonus, settlement and total what the rules
    give. Where the rules pay in counters (Triominos Junior), the totals are counters:
    with the bank's they always make the game's counters. One line per right record is
    printed; for a wrong record, its first wrong action is named on standard error and
    the next record is checked.

    \b
    Exit status:
      0  every record is right
      1  a record's play is wrong (record, hand and action index are named)
      2  the file cannot be read, is not JSON, or holds something that is not a
         record (the line and the field are named)
    """
    entries = read_record_file(context, file)
    wrong = 0
    for index, (line, document) in enumerate(entries, 1):
        try:
            match = verify(document, index=index, line=line)
        except RecordError as error:
            stop(context, f"{file}: record {index}: {error}")
        except VerificationError as error:
            click.echo(f"{file}: {error}", err=True)
            wrong += 1
            continue
        click.echo(f"record {index}: ok, {summary(document, match)}")
    if wrong:
        context.exit(1)


def summary(document: dict[str, Any], match: Match) -> str:
    """``classic, 2 players, 5 hands, scores 412-371``, and whether the match is unfinished.

    Where the rules pay in counters: ``junior, 3 players, 1 hand, counters 9-13-8 (bank 30)``.
    """
    preset = document.get("preset")
    hands = len(match.hands)
    totals = "-".join(map(str, match.totals))
    bank = match.rules.bank
    scores = (
        f"scores {totals}"
        if bank is None
        else f"counters {totals} (bank {bank - sum(match.totals)})"
    )
    text = (
        f"{preset if isinstance(preset, str) else 'custom rules'}, {match.players} players, "
        f"{hands} hand{'s' if hands != 1 else ''}, {scores}"
    )
    return text if match.is_over else text + " (unfinished)"
