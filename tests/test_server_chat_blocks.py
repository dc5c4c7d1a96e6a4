"""A blocked player's chat, over real WebSocket clients, on SQLite and PostgreSQL (issue
33: "block a player: no invitations, no chat from them"). Seats belong to accounts by
being moved into them; the account that blocked another does not get that player's
lines at a table where both sit, live or in the chat kept for a greeting, while the
blocked player still reads the blocker's; unblocking lets the lines through again."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

pytest.importorskip("starlette")
pytest.importorskip("webauthn")

from server_games import Served, Viewer, serve_app
from test_server_accounts import CHEAP, Device, devices
from test_server_push_accounts import move_seat
from test_server_ws import TWO_PEOPLE, chats_of


@pytest.fixture
def served_here(database_url: str) -> Iterator[Served]:
    with serve_app(database_url, trusted_proxies=["127.0.0.1"], password_hasher=CHEAP) as served:
        yield served


def say(viewer: Viewer, text: str) -> None:
    """Send a chat line and wait for its echo (the sender always gets its own line)."""
    viewer.send({"type": "chat", "text": text})
    heard(viewer, text)


def heard(viewer: Viewer, text: str) -> None:
    """Wait until the chat line ``text`` reaches ``viewer``."""
    viewer.until(lambda m: m["type"] == "chat" and m["messages"][0]["text"] == text)


def seated_accounts(served: Served, ann: Device, bob: Device) -> tuple[str, list[str]]:
    """A table of two people, seat 0 in Ann's account and seat 1 in Bob's."""
    created = served.create(seats=TWO_PEOPLE, take=[0, 1])
    code, tokens = created["code"], [seat["token"] for seat in created["seats"]]
    ann.sign_up("Ann")
    bob.sign_up("Bob")
    move_seat(ann, code, 0, tokens[0])
    move_seat(bob, code, 1, tokens[1])
    return code, tokens


def test_the_blocker_does_not_get_the_blocked_players_chat(served_here: Served) -> None:
    with devices(served_here, 2) as (ann, bob):
        code, tokens = seated_accounts(served_here, ann, bob)
        assert ann.send("POST", "/api/account/blocks", {"name": "Bob"}).status_code == 200
        with (
            served_here.viewer(code, tokens[0]) as ann_table,
            served_here.viewer(code, tokens[1]) as bob_table,
        ):
            say(bob_table, "from Bob")
            say(ann_table, "from Ann")
            heard(bob_table, "from Ann")
            # Ann's own line came after Bob's: had his reached her, it would be here.
            assert chats_of(ann_table) == ["from Ann"]
            assert chats_of(bob_table) == ["from Bob", "from Ann"]
        with (
            served_here.viewer(code, tokens[0]) as ann_again,
            served_here.viewer(code, tokens[1]) as bob_again,
        ):
            assert chats_of(ann_again) == ["from Ann"]  # nor in the chat kept
            assert chats_of(bob_again) == ["from Bob", "from Ann"]


def test_a_block_holds_at_once_and_unblocking_lets_the_lines_through(
    served_here: Served,
) -> None:
    """The block is asked of the database at each line: one made while both are at the
    table holds from the next line, as does its end."""
    with devices(served_here, 2) as (ann, bob):
        code, tokens = seated_accounts(served_here, ann, bob)
        with (
            served_here.viewer(code, tokens[0]) as ann_table,
            served_here.viewer(code, tokens[1]) as bob_table,
        ):
            say(bob_table, "before")
            heard(ann_table, "before")
            assert ann.send("POST", "/api/account/blocks", {"name": "Bob"}).status_code == 200
            say(bob_table, "blocked")
            say(ann_table, "mark")
            assert ann.send("DELETE", "/api/account/blocks/Bob").status_code == 200
            say(bob_table, "after")
            heard(ann_table, "after")
            assert chats_of(ann_table) == ["before", "mark", "after"]


def test_a_seat_in_no_account_is_heard(served_here: Served) -> None:
    """A block is between accounts: Ann's block of Bob says nothing of a seat nobody
    moved into an account, even one Bob plays."""
    with devices(served_here, 2) as (ann, bob):
        created = served_here.create(seats=TWO_PEOPLE, take=[0, 1])
        code, tokens = created["code"], [seat["token"] for seat in created["seats"]]
        ann.sign_up("Ann")
        bob.sign_up("Bob")
        move_seat(ann, code, 0, tokens[0])
        ann.send("POST", "/api/account/blocks", {"name": "Bob"})
        with (
            served_here.viewer(code, tokens[0]) as ann_table,
            served_here.viewer(code, tokens[1]) as guest,
        ):
            say(guest, "hello")
            heard(ann_table, "hello")
