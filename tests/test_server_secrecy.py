"""Hidden information never leaks: every message of whole games, checked tile by tile.

People (driven by this test, with hints and a refused move now and then), bots on the
server and a spectator play whole matches of each edition. Every message each
connection received is then checked against what that seat could know at that
moment, from the finished match's record: its own rack and draws, the tiles placed or
shown for the starter, and the racks revealed when a hand ends. A spectator knows no
rack at all. Nothing ever names the pool or a deal.
"""

from __future__ import annotations

import random
import re
import time
from typing import Any

import pytest

pytest.importorskip("starlette")

from server_games import Served, Viewer
from triominos.record import verify

TILE = re.compile(r"\d+-\d+-\d+|J")


class Knowledge:
    """What each seat may know of each hand, version by version, from the record."""

    def __init__(self, record: dict[str, Any]) -> None:
        self.open_racks = bool(record["rules"].get("open_racks"))
        self.hands: dict[int, tuple[int, dict[str, Any]]] = {}
        version = 0
        for hand in record["hands"]:
            self.hands[hand["number"]] = (version, hand)
            version += len(hand["actions"])

    def known(self, seat: int | None, number: int, version: int) -> set[str]:
        start, hand = self.hands[number]
        deal = hand["deal"]
        tiles: set[str] = set()
        if deal.get("first"):
            tiles.add(deal["first"])
        if self.open_racks:
            tiles.update(tile for rack in deal["racks"] for tile in rack)
        elif seat is not None:
            tiles.update(deal["racks"][seat])
        for index, action in enumerate(hand["actions"]):
            if start + index + 1 > version:
                break
            public = action["action"] not in ("draw", "buy")
            if "tile" in action and (public or action["player"] == seat or self.open_racks):
                tiles.add(action["tile"])
        ended_at = start + len(hand["actions"])
        if hand.get("end") is not None and ended_at <= version:
            tiles.update(tile for rack in hand["end"]["remaining"] for tile in rack)
        return tiles


def tiles_in(value: Any) -> set[str]:
    """Every tile name anywhere in a JSON value."""
    if isinstance(value, str):
        return {value} if TILE.fullmatch(value) else set()
    if isinstance(value, dict):
        assert not {"pool", "deal", "racks"} & set(value), f"hidden fields in {value}"
        return set().union(*(tiles_in(item) for item in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(tiles_in(item) for item in value)) if value else set()
    return set()


def check_messages(viewer: Viewer, seat: int | None, knowledge: Knowledge) -> int:
    """Every message of one connection against what its seat knew then; the count."""
    hand, version = 1, 0
    for message in viewer.received:
        view = message.get("view")
        if view is not None:
            hand, version = view["hand"], view["version"]
            assert view["seat"] == seat
            if seat is None:
                assert view["rack"] is None
            for finished in view["hands"]:
                leaked = tiles_in(finished) - knowledge.known(seat, finished["number"], version)
                assert not leaked, f"seat {seat} saw {leaked} of hand {finished['number']}"
            rest = {key: value for key, value in view.items() if key != "hands"}
            leaked = tiles_in(rest) - knowledge.known(seat, hand, version)
            assert not leaked, f"seat {seat} saw {leaked} at version {version}"
        events = message.get("events", [])
        if "event" in message:
            events = [message["event"]]
        for event in events:
            leaked = tiles_in(event) - knowledge.known(seat, event["hand"], message["version"])
            assert not leaked, f"seat {seat} saw {leaked} in {event}"
        if message["type"] in ("hint", "error", "pong", "rematch", "chat"):
            leaked = tiles_in(message) - knowledge.known(seat, hand, version)
            assert not leaked, f"seat {seat} saw {leaked} in {message}"
    return len(viewer.received)


def drain(viewer: Viewer) -> None:
    while True:
        try:
            viewer.receive(timeout=0.002)
        except TimeoutError:
            return


def play_whole_match(people: list[Viewer], watchers: list[Viewer], rng: random.Random) -> None:
    """The people play random legal actions (asking for hints, sending a refused move
    now and then) until every connection has seen the end."""
    acted: set[tuple[int, int]] = set()
    deadline = time.monotonic() + 240
    while not all(viewer.view["match_over"] for viewer in people + watchers):
        assert time.monotonic() < deadline, "the match did not end"
        for viewer in people + watchers:
            drain(viewer)
        for person in people:
            view = person.view
            turn = (view["seat"], view["version"])
            if not view["legal"] or turn in acted:
                continue
            acted.add(turn)
            if rng.random() < 0.15:
                person.send({"type": "hint", "id": f"hint-{turn}"})
            if rng.random() < 0.05:  # a chat carries the words said, nothing of the game
                person.send({"type": "chat", "text": "well played"})
            # A refused move on each person's first turn, and now and then after it.
            if view["rack"] and (len(acted) <= len(people) or rng.random() < 0.1):
                tile = rng.choice(view["rack"])
                wrong = {
                    "action": "place",
                    "tile": tile,
                    "cell": [60, 60, "up"],
                    "corners": [0, 0, 0],
                }
                person.act(wrong, f"wrong-{turn}")
            person.act(rng.choice(view["legal"])["action"], f"{turn}")
        time.sleep(0.005)


@pytest.mark.parametrize(
    ("preset", "seats", "options"),
    [
        ("classic", ["person", "person", "greedy"], {"target_score": None, "hand_limit": 2}),
        (
            "extended",
            ["person", "expert", "person", "random"],
            {"target_score": None, "hand_limit": 1},
        ),
        ("junior", ["person", "greedy", "random"], {}),
        ("junior", ["person", "person"], {"open_racks": True, "joker": False}),
    ],
)
def test_no_message_names_a_tile_its_viewer_may_not_know(
    served_sqlite: Served, preset: str, seats: list[str], options: dict[str, Any]
) -> None:
    served = served_sqlite
    rng = random.Random(f"{preset}{len(seats)}")
    body = [
        {"kind": "person", "name": f"P{seat}"} if kind == "person" else {"kind": "bot", "bot": kind}
        for seat, kind in enumerate(seats)
    ]
    people_seats = [seat for seat, kind in enumerate(seats) if kind == "person"]
    created = served.create(
        preset=preset,
        players=len(seats),
        seats=body,
        options=options,
        take=people_seats,
        hints=True,  # hints between people too: they must not tell a secret either
    )
    code = created["code"]
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
    assert served.http.get(f"/api/tables/{code}/record").status_code == 409
    watcher = served.viewer(code)
    people = [served.viewer(code, tokens[seat]) for seat in people_seats]
    play_whole_match(people, [watcher], rng)

    record = served.http.get(f"/api/tables/{code}/record").json()
    verify(record)
    knowledge = Knowledge(record)
    checked = check_messages(watcher, None, knowledge)
    for seat, person in zip(people_seats, people, strict=True):
        checked += check_messages(person, seat, knowledge)
        person.close()
    watcher.close()
    assert checked > 50
    kinds = {message["type"] for person in people for message in person.received}
    assert {"welcome", "event", "error"} <= kinds


def test_the_checker_catches_a_leak() -> None:
    """The check above can fail: a rack of another seat in a view is caught."""
    record = {
        "rules": {},
        "hands": [
            {
                "number": 1,
                "deal": {"racks": [["0-0-0"], ["1-1-1"]], "pool": ["2-2-2"]},
                "actions": [{"player": 1, "action": "draw", "tile": "2-2-2", "points": -5}],
            }
        ],
    }
    knowledge = Knowledge(record)
    assert knowledge.known(0, 1, 1) == {"0-0-0"}
    assert knowledge.known(1, 1, 1) == {"1-1-1", "2-2-2"}
    assert knowledge.known(None, 1, 1) == set()
    spy = Viewer.__new__(Viewer)
    spy.received = [
        {
            "type": "welcome",
            "view": {"seat": 0, "hand": 1, "version": 1, "rack": ["1-1-1"], "hands": []},
        }
    ]
    with pytest.raises(AssertionError, match="1-1-1"):
        check_messages(spy, 0, knowledge)
    with pytest.raises(AssertionError, match="hidden fields"):
        tiles_in({"pool": []})
