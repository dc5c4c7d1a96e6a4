"""The QR code of a seat's personal link: SVG, for the seat's own holder, never cached."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")

from server_games import Served


def test_the_qr_code_is_svg_for_the_seats_own_token_only(served_sqlite: Served) -> None:
    created = served_sqlite.create(
        seats=[{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bob"}],
        take=[0, 1],
    )
    code = created["code"]
    ann, bob = (seat["token"] for seat in created["seats"])
    answer = served_sqlite.http.post(f"/api/tables/{code}/seats/0/qr", json={"token": ann})
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"] == "image/svg+xml"
    assert {"no-store", "private"} <= {
        part.strip() for part in answer.headers["cache-control"].split(",")
    }
    assert answer.text.startswith("<svg") and "<path" in answer.text
    other = served_sqlite.http.post(f"/api/tables/{code}/seats/1/qr", json={"token": ann})
    assert other.status_code == 403 and other.json()["error"]["code"] == "bad_token"
    assert bob not in other.text
    for body in ({"token": "not-a-seat"}, {}):
        refused = served_sqlite.http.post(f"/api/tables/{code}/seats/0/qr", json=body)
        assert refused.status_code in (400, 403), refused.text
        assert (
            "cache-control" not in refused.headers
            or "public" not in refused.headers["cache-control"]
        )
    assert served_sqlite.http.get(f"/api/tables/{code}/seats/0/qr").status_code == 405
    bad_seat = served_sqlite.http.post(f"/api/tables/{code}/seats/7/qr", json={"token": ann})
    assert bad_seat.status_code == 400 and bad_seat.json()["error"]["field"] == "seat"


def test_each_seats_qr_code_encodes_its_own_link(served_sqlite: Served) -> None:
    """Two seats, two codes: the picture depends on the token it carries."""
    created = served_sqlite.create(
        seats=[{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bob"}],
        take=[0, 1],
    )
    code = created["code"]
    pictures = [
        served_sqlite.http.post(
            f"/api/tables/{code}/seats/{seat['seat']}/qr", json={"token": seat["token"]}
        ).text
        for seat in created["seats"]
    ]
    assert pictures[0] != pictures[1]
