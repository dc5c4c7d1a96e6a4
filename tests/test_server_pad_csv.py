"""The score pad's CSV export on a real server (issue 37): a carriage return in a
correction's note started a row of its own, and a formula after spaces or a line break
reached the spreadsheet."""

from __future__ import annotations

import csv
import io

import pytest

pytest.importorskip("starlette")

from server_games import Served
from triominos.pad import FORMULA_STARTS


def test_no_cell_of_the_export_starts_a_row_or_a_formula(served_sqlite: Served) -> None:
    http = served_sqlite.http
    names = ["\n=HYPERLINK(1)", " @Bob", "Cleo"]
    game = http.post("/api/pad/games", json={"players": names})
    assert game.status_code == 201, game.text
    code = game.json()["id"]
    notes = ["\r=1+1", "ok\r\n-2+3", " \t+cmd"]
    for player, note in enumerate(notes):
        entry = {"kind": "correction", "player": player, "points": 5, "note": note}
        added = http.post(f"/api/pad/games/{code}/entries", json={"entry": entry})
        assert added.status_code == 201, added.text
    exported = http.get(f"/api/pad/games/{code}/export.csv")
    assert exported.status_code == 200
    rows = list(csv.reader(io.StringIO(exported.text, newline="")))
    # The header, one row an entry, the hand's total and the match's: nothing more.
    assert len(rows) == 1 + len(notes) + 2
    assert [row[1] for row in rows[1:4]] == ["1", "2", "3"]
    for note, row in zip(notes, rows[1:4], strict=True):
        assert note.strip() in row[3]  # the note, whole, in its one cell
    for row in rows:
        for cell in row:
            assert not cell.lstrip().startswith(FORMULA_STARTS), cell
            assert not cell.startswith(FORMULA_STARTS), cell
