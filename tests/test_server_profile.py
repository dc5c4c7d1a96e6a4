"""The profile and friends over HTTP, on SQLite and PostgreSQL (issue 33, part 2): the
finished games and statistics of an account's seats, the public player page with its
ratings (and the old ratings address moved to it), friendship asked and accepted, who is
online, invitations to a table, blocks; and the hostile requests: another account's
cookie, a blocked player, floods of requests and invitations, bad names, and what
deleting an account leaves."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("webauthn")

from sqlalchemy import inspect

from server_games import Served, serve_app
from test_server_accounts import CHEAP, Device, devices, error, rows
from triominos.ratings import Seat
from triominos.server.account_store import AccountRow
from triominos.server.friends_store import (
    INVITATIONS_PER_HOUR,
    ONLINE_SECONDS,
    PENDING_REQUESTS,
    FriendshipRow,
    InvitationRow,
    PresenceRow,
    blocked,
)
from triominos.server.profile_store import summary
from triominos.server.rating_store import RatingStore, TableResult
from triominos.server.store import Store


@pytest.fixture
def served_here(database_url: str) -> Iterator[Served]:
    with serve_app(database_url, trusted_proxies=["127.0.0.1"], password_hasher=CHEAP) as served:
        yield served


def finished_game(served: Served, device: Device) -> str:
    """A classic match of the device's account against a bot, which the account's seat
    resigns at once: the code of the finished table, its seat 0 moved in."""
    created = served.create(take=[0])
    code: str = created["code"]
    token = created["seats"][0]["token"]
    moved = device.send(
        "POST", "/api/account/seats", {"seats": [{"code": code, "seat": 0, "token": token}]}
    )
    assert moved.json()["moved"] == [{"code": code, "seat": 0}], moved.text
    with served.viewer(code, token) as viewer:
        viewer.send({"type": "resign", "id": "r"})
        assert viewer.answer("r")["event"]["end"]["reason"] == "resigned"
    assert served.http.get(f"/api/tables/{code}").json()["status"] == "finished"
    return code


def friends_of(device: Device) -> dict[str, Any]:
    answer = device.http.get("/api/account/friends")
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def befriend(asker: Device, asked: Device, asker_name: str, asked_name: str) -> None:
    assert asker.send("POST", "/api/account/friends", {"name": asked_name}).json() == {
        "name": asked_name,
        "friends": False,
    }
    assert asked.send("POST", "/api/account/friends", {"name": asker_name}).json() == {
        "name": asker_name,
        "friends": True,
    }


def account_ids(served: Served) -> dict[str, str]:
    """Each account's id as the ratings keep it, by name."""
    return {row.name: str(row.id) for row in rows(served, AccountRow)}


def rated(served: Served, code: str, winner: str, loser: str) -> None:
    """A rated 2-player classic match between two accounts (by name), finished now."""
    ids = account_ids(served)
    seats = [Seat(ids[winner], 400), Seat(ids[loser], 90)]
    result = TableResult(code, "classic", seats, 9)
    assert RatingStore(served.service.store).rate_finished(result, time.time()) is not None


def leaderboard(served: Served) -> list[dict[str, Any]]:
    answer = served.http.get("/api/ratings/leaderboard?edition=classic&players=2")
    assert answer.status_code == 200, answer.text
    found: list[dict[str, Any]] = answer.json()["players"]
    return found


def moved_to(device: Device, address: str) -> None:
    """The device now sends from another address (a flood from many)."""
    device.http.headers["X-Forwarded-For"] = address


# --- the profile -------------------------------------------------------------------------


def test_the_profile_shows_finished_games_and_statistics_and_the_public_one_no_secret(
    served_here: Served,
) -> None:
    with devices(served_here, 2) as (ann, visitor):
        assert ann.sign_up("Ann").status_code == 201
        code = finished_game(served_here, ann)
        playing = served_here.create(take=[0])  # in the account, still played: never public
        ann.send(
            "POST",
            "/api/account/seats",
            {
                "seats": [
                    {"code": playing["code"], "seat": 0, "token": playing["seats"][0]["token"]}
                ]
            },
        )
        record = served_here.http.get(f"/api/tables/{code}/record").json()
        games = ann.http.get("/api/account/games").json()
        assert games["total"] == 1 and games["offset"] == 0
        (game,) = games["games"]
        assert game["code"] == code and game["seat"] == 0 and game["edition"] == "classic"
        assert game["replay"] == f"/t/{code}?replay=1"
        assert game["won"] == (0 in record["winners"]) and game["scores"] == record["scores"]
        assert game["players"] == [player["name"] for player in record["players"]]
        stats = ann.http.get("/api/account/stats").json()
        assert stats["pending"] == 0
        classic = stats["stats"]["classic"]
        assert classic["matches"] == 1 and classic["wins"] == int(game["won"])
        assert classic["hands"] == sum(1 for hand in record["hands"] if hand.get("scores"))

        public = visitor.http.get("/api/players/ann")  # names are compared as keys
        assert public.status_code == 200, public.text
        body = public.json()
        assert body["name"] == "Ann" and body["stats"] == stats["stats"]
        assert [g["code"] for g in body["games"]] == [code]
        assert playing["code"] not in public.text
        assert playing["seats"][0]["token"] not in public.text
        assert "token" not in public.text and "private" not in public.headers.get(
            "cache-control", ""
        )


def test_the_player_page_has_the_language_and_the_ratings_with_their_history(
    served_here: Served,
) -> None:
    with devices(served_here, 2) as (ann, bob):
        assert ann.sign_up("Ann").status_code == 201
        assert ann.send("PATCH", "/api/account", {"language": "fr"}).status_code == 200
        assert bob.sign_up("Bob").status_code == 201
        unrated = served_here.http.get("/api/players/Bob").json()
        assert (unrated["ratings"], unrated["history"]) == ([], [])
        rated(served_here, "RATE01", "Ann", "Bob")
        rated(served_here, "RATE02", "Ann", "Bob")
        body = served_here.http.get("/api/players/Ann").json()
        assert body["name"] == "Ann" and body["language"] == "fr"
        (rating,) = body["ratings"]
        assert rating["pool"]["key"] == "classic-2" and rating["games"] == 2
        assert rating["rating"] > 1500 and rating["provisional"] is True
        assert [point["table"] for point in body["history"]] == ["RATE01", "RATE02"]
        assert body["history"][-1]["rating"] == rating["rating"]
        assert body["history"][0]["rating"] < body["history"][1]["rating"]
        by_id = served_here.http.get(f"/api/ratings/{account_ids(served_here)['Ann']}").json()
        assert by_id["ratings"] == body["ratings"] and by_id["history"] == body["history"]


def test_the_old_ratings_address_moves_to_the_player_page(served_here: Served) -> None:
    with devices(served_here, 1) as (zoe,):
        assert zoe.sign_up("Zoë B").status_code == 201
        number = account_ids(served_here)["Zoë B"]
        moved = served_here.http.get(f"/ratings/{number}")
        assert moved.status_code == 308
        assert moved.headers["location"] == "/players/Zo%C3%AB%20B"
        assert served_here.http.get(moved.headers["location"]).status_code == 200
        assert served_here.http.get("/api/players/Zo%C3%AB%20B").json()["name"] == "Zoë B"
        for nobody in ("9999", "0", "ann", "1" * 12):
            missing = served_here.http.get(f"/ratings/{nobody}")
            assert missing.status_code == 404, nobody
            assert "text/html" in missing.headers["content-type"]  # the site says so
        assert zoe.send("DELETE", "/api/account").status_code == 200
        assert served_here.http.get(f"/ratings/{number}").status_code == 404


def test_the_leaderboard_links_each_name_to_its_page_but_a_deleted_ones(
    served_here: Served,
) -> None:
    with devices(served_here, 3) as (ann, bob, cid):
        for device, name in ((ann, "Ann"), (bob, "Bob"), (cid, "Cid")):
            assert device.sign_up(name).status_code == 201
        rated(served_here, "LEAD01", "Ann", "Bob")
        rated(served_here, "LEAD02", "Cid", "Bob")
        assert [(entry["name"], entry["page"]) for entry in leaderboard(served_here)] == [
            ("Ann", "/players/Ann"),
            ("Cid", "/players/Cid"),
            ("Bob", "/players/Bob"),
        ]
        assert cid.send("DELETE", "/api/account").status_code == 200
        assert [(entry["name"], entry["page"]) for entry in leaderboard(served_here)] == [
            ("Ann", "/players/Ann"),
            ("Player", None),
            ("Bob", "/players/Bob"),
        ]
        # SQLite gives the next account the deleted one's id: it starts unrated
        assert cid.sign_up("Dan").status_code == 201
        assert served_here.http.get("/api/players/Dan").json()["ratings"] == []
        assert "Dan" not in [entry["name"] for entry in leaderboard(served_here)]


def test_private_profile_parts_need_the_account_and_pages_are_bounded(
    served_here: Served,
) -> None:
    with devices(served_here, 2) as (ann, stranger):
        assert ann.sign_up("Ann").status_code == 201
        for path in ("/api/account/games", "/api/account/stats", "/api/account/friends"):
            assert error(stranger.http.get(path), 401)["code"] == "signed_out"
        for query in ("limit=0", "limit=51", "offset=-1", "limit=x"):
            assert error(ann.http.get(f"/api/account/games?{query}"), 400)["code"] == "bad_request"
        assert ann.http.get("/api/account/games?limit=50&offset=3").json()["games"] == []


def test_bad_names_give_clear_errors(served_here: Served) -> None:
    with devices(served_here, 1) as (ann,):
        assert ann.sign_up("Ann").status_code == 201
        nobody = error(ann.send("POST", "/api/account/friends", {"name": "Nobody"}), 404)
        assert nobody["code"] == "not_found" and "Nobody" in nobody["message"]
        assert error(ann.send("POST", "/api/account/friends", {"name": "  "}), 400)["code"] == (
            "bad_name"
        )
        long = error(ann.send("POST", "/api/account/friends", {"name": "x" * 81}), 400)
        assert long["code"] == "bad_request"
        assert error(ann.send("POST", "/api/account/friends", {"nom": "Bob"}), 400)["code"] == (
            "bad_request"
        )
        itself = error(ann.send("POST", "/api/account/friends", {"name": "Ann"}), 400)
        assert itself["code"] == "yourself"
        assert error(ann.http.get("/api/players/Nobody"), 404)["code"] == "not_found"


# --- friends -----------------------------------------------------------------------------


def test_friends_ask_accept_see_each_other_online_and_invite(served_here: Served) -> None:
    with devices(served_here, 2) as (ann, bob):
        assert ann.sign_up("Ann").status_code == 201
        assert bob.sign_up("Bob").status_code == 201
        assert ann.send("POST", "/api/account/friends", {"name": "bob"}).json()["friends"] is False
        assert friends_of(ann)["asked"] == ["Bob"] and friends_of(bob)["asking"] == ["Ann"]
        assert friends_of(ann)["friends"] == []
        assert bob.send("POST", "/api/account/friends", {"name": "Ann"}).json()["friends"] is True
        assert friends_of(ann)["friends"] == [{"name": "Bob", "online": True}]
        assert friends_of(bob)["asking"] == []

        served_here.later(ONLINE_SECONDS + 1)  # Bob made no request since
        assert friends_of(ann)["friends"] == [{"name": "Bob", "online": False}]
        friends_of(bob)
        assert friends_of(ann)["friends"] == [{"name": "Bob", "online": True}]

        code = served_here.create()["code"]
        invited = ann.send(
            "POST", "/api/account/invitations", {"name": "Bob", "code": code.lower()}
        )
        assert invited.status_code == 201, invited.text
        (invitation,) = friends_of(bob)["invitations"]
        assert invitation["from"] == "Ann" and invitation["code"] == code
        assert invitation["link"] == f"/t/{code}"
        assert friends_of(ann)["invitations"] == []
        missing = ann.send("POST", "/api/account/invitations", {"name": "Bob", "code": "NOPE"})
        assert error(missing, 404)["field"] == "code"

        exported = bob.http.get("/api/account/export").json()["friends"]
        assert exported["friends"] == [{"name": "Ann", "online": True}]
        assert exported["invitations"][0]["from_name"] == "Ann"
        assert error(ann.send("DELETE", f"/api/account/invitations/{invitation['id']}"), 404)
        assert bob.send("DELETE", f"/api/account/invitations/{invitation['id']}").status_code == 200
        assert friends_of(bob)["invitations"] == []

        assert ann.send("DELETE", "/api/account/friends/Bob").json()["friends"] is False
        assert friends_of(bob)["friends"] == []
        stranger = ann.send("POST", "/api/account/invitations", {"name": "Bob", "code": code})
        assert error(stranger, 403)["code"] == "not_friends"


def test_another_accounts_cookie_cannot_change_friends(served_here: Served) -> None:
    with devices(served_here, 3) as (ann, bob, eve):
        for device, name in ((ann, "Ann"), (bob, "Bob"), (eve, "Eve")):
            assert device.sign_up(name).status_code == 201
        befriend(ann, bob, "Ann", "Bob")
        eve.csrf = ann.csrf  # Ann's page's token with Eve's own cookie
        assert error(eve.send("DELETE", "/api/account/friends/Bob"), 403)["code"] == "bad_csrf"
        forged = eve.http.post(
            "/api/account/friends", json={"name": "Bob"}, headers={"Origin": "https://evil.test"}
        )
        assert forged.status_code == 403
        eve.http.cookies.clear()  # and Ann's token without any cookie
        assert error(eve.send("DELETE", "/api/account/friends/Bob"), 401)["code"] == "signed_out"
        assert friends_of(ann)["friends"] == [{"name": "Bob", "online": True}]


def test_a_blocked_player_can_neither_ask_nor_invite(served_here: Served) -> None:
    with devices(served_here, 2) as (ann, bob):
        assert ann.sign_up("Ann").status_code == 201
        assert bob.sign_up("Bob").status_code == 201
        befriend(ann, bob, "Ann", "Bob")
        code = served_here.create()["code"]
        assert (
            bob.send("POST", "/api/account/invitations", {"name": "Ann", "code": code}).status_code
            == 201
        )
        assert ann.send("POST", "/api/account/blocks", {"name": "Bob"}).json()["blocked"] is True
        ann_friends = friends_of(ann)
        assert ann_friends["friends"] == [] and ann_friends["blocked"] == ["Bob"]
        assert ann_friends["invitations"] == []  # the block took Bob's invitation away
        asked = bob.send("POST", "/api/account/friends", {"name": "Ann"})
        assert error(asked, 403)["code"] == "blocked"
        invited = bob.send("POST", "/api/account/invitations", {"name": "Ann", "code": code})
        assert error(invited, 403)["code"] == "not_friends"
        assert error(ann.send("POST", "/api/account/friends", {"name": "Bob"}), 403)["code"] == (
            "blocked"
        )
        ids = {row.name: row.id for row in rows(served_here, AccountRow)}
        assert blocked(served_here.service.store, ids["Ann"], ids["Bob"])
        assert blocked(served_here.service.store, ids["Bob"], ids["Ann"])
        assert ann.send("DELETE", "/api/account/blocks/Bob").json()["blocked"] is False
        assert not blocked(served_here.service.store, ids["Ann"], ids["Bob"])
        assert error(ann.send("DELETE", "/api/account/blocks/Bob"), 404)["code"] == "not_found"
        assert bob.send("POST", "/api/account/friends", {"name": "Ann"}).status_code == 200


# --- floods ------------------------------------------------------------------------------


def test_floods_of_requests_and_invitations_are_limited_per_account(served_here: Served) -> None:
    others = PENDING_REQUESTS + 1
    with devices(served_here, others + 1) as (ann, *people):
        assert ann.sign_up("Ann").status_code == 201
        for number, person in enumerate(people):
            assert person.sign_up(f"Person {number}").status_code == 201
        for number in range(PENDING_REQUESTS):
            moved_to(ann, f"203.0.113.{number + 1}")  # beyond the per-address limit
            assert (
                ann.send("POST", "/api/account/friends", {"name": f"Person {number}"}).status_code
                == 200
            )
        flood = ann.send("POST", "/api/account/friends", {"name": f"Person {PENDING_REQUESTS}"})
        assert error(flood, 429)["code"] == "too_many"
        assert len(friends_of(ann)["asked"]) == PENDING_REQUESTS

        accepted = people[0].send("POST", "/api/account/friends", {"name": "Ann"})
        assert accepted.json()["friends"] is True  # an answer is no new request
        code = served_here.create()["code"]
        for number in range(INVITATIONS_PER_HOUR):
            moved_to(ann, f"203.0.114.{number + 1}")
            sent = ann.send("POST", "/api/account/invitations", {"name": "Person 0", "code": code})
            assert sent.status_code == 201, sent.text
        moved_to(ann, "203.0.115.1")
        flood = ann.send("POST", "/api/account/invitations", {"name": "Person 0", "code": code})
        assert error(flood, 429)["code"] == "too_many"
        served_here.later(3601)
        assert (
            ann.send(
                "POST", "/api/account/invitations", {"name": "Person 0", "code": code}
            ).status_code
            == 201
        )


# --- deleting ----------------------------------------------------------------------------


def test_deleting_an_account_removes_its_friends_and_invitations_and_keeps_its_games(
    served_here: Served,
) -> None:
    with devices(served_here, 2) as (ann, bob):
        assert ann.sign_up("Ann").status_code == 201
        assert bob.sign_up("Bob").status_code == 201
        code = finished_game(served_here, ann)
        befriend(ann, bob, "Ann", "Bob")
        bob_id = next(row.id for row in rows(served_here, AccountRow) if row.name == "Bob")
        table = served_here.create()["code"]
        assert (
            ann.send("POST", "/api/account/invitations", {"name": "Bob", "code": table}).status_code
            == 201
        )
        assert ann.send("DELETE", "/api/account").status_code == 200
        assert rows(served_here, FriendshipRow) == [] and rows(served_here, InvitationRow) == []
        assert [row.account_id for row in rows(served_here, PresenceRow)] == [bob_id]
        assert friends_of(bob) == {
            "friends": [],
            "asking": [],
            "asked": [],
            "blocked": [],
            "invitations": [],
        }
        record = served_here.http.get(f"/api/tables/{code}/record").json()
        assert record["players"][0]["name"] == "Player 1"
        assert error(bob.http.get("/api/players/Ann"), 404)["code"] == "not_found"


def test_a_deleted_accounts_name_leaves_the_games_of_the_others(served_here: Served) -> None:
    """Bob's profile was summarised while Ann played under her name; once she deleted
    her account, his games list her seat under the neutral name, as the record does."""
    with devices(served_here, 2) as (ann, bob):
        assert ann.sign_up("Ann").status_code == 201
        assert bob.sign_up("Bob").status_code == 201
        people = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bob"}]
        created = served_here.create(take=[0], seats=people)
        code = created["code"]
        bob_token = served_here.join(code, "Bob")
        ann.send(
            "POST",
            "/api/account/seats",
            {"seats": [{"code": code, "seat": 0, "token": created["seats"][0]["token"]}]},
        )
        bob.send(
            "POST", "/api/account/seats", {"seats": [{"code": code, "seat": 1, "token": bob_token}]}
        )
        with served_here.viewer(code, bob_token) as viewer:
            viewer.send({"type": "resign", "id": "r"})
            assert viewer.answer("r")["event"]["end"]["reason"] == "resigned"
        (before,) = bob.http.get("/api/players/Bob").json()["games"]
        assert before["players"][0] == "Ann"
        assert ann.send("DELETE", "/api/account").status_code == 200
        (after,) = bob.http.get("/api/players/Bob").json()["games"]
        assert after["players"] == ["Player 1", before["players"][1]]
        assert after["scores"] == before["scores"]


def test_the_export_has_the_accounts_ratings_and_their_history(served_here: Served) -> None:
    with devices(served_here, 2) as (ann, bob):
        assert ann.sign_up("Ann").status_code == 201
        assert bob.sign_up("Bob").status_code == 201
        rated(served_here, "EXPO01", "Ann", "Bob")
        exported = ann.http.get("/api/account/export").json()["ratings"]
        (rating,) = exported["ratings"]
        assert rating["pool"] == "classic-2" and rating["games"] == 1
        assert set(rating) == {"pool", "rating", "deviation", "volatility", "games", "played_at"}
        (point,) = exported["history"]
        assert point["table"] == "EXPO01" and point["rating"] == rating["rating"]


# --- a record's summary ------------------------------------------------------------------


def test_a_seats_summary_counts_its_hands_points_bonuses_and_best_hand() -> None:
    def place(player: int, points: int, bonuses: dict[str, int]) -> dict[str, Any]:
        return {"player": player, "action": "place", "points": points, "bonuses": bonuses}

    record = {
        "preset": None,
        "players": [{"name": "Ann"}, {"name": "Bot"}],
        "scores": [412, 371],
        "winners": [0],
        "hands": [
            {
                "actions": [place(0, 25, {"opening_triple": 10}), place(1, 14, {})],
                "scores": [61, 188],
            },
            {
                "actions": [
                    place(1, 90, {"hexagon": 50, "bridge": 40}),
                    place(0, 70, {"hexagon": 50}),
                ],
                "scores": [351, 183],
            },
            {"actions": [{"player": 0, "action": "draw", "points": -5}], "scores": None},
        ],
    }
    ann = summary(record, 0, "ABCD", 100.0)
    assert (ann.edition, ann.won, ann.hands, ann.points) == ("custom", True, 2, 412)
    assert (ann.bonuses, ann.best_hand, ann.players) == (2, 351, ["Ann", "Bot"])
    bot = summary(record, 1, "ABCD", 100.0)
    assert (bot.won, bot.points, bot.bonuses, bot.best_hand) == (False, 371, 2, 188)


# --- the migration ----------------------------------------------------------------------


def test_the_migration_makes_the_friends_tables_and_takes_them_back(database_url: str) -> None:
    store = Store(database_url)
    try:
        store.upgrade()
        made = {
            "friendships",
            "account_blocks",
            "invitations",
            "account_presence",
            "seat_summaries",
        }
        assert made <= set(inspect(store.engine).get_table_names())
        store.downgrade("0015_friends-1")
        names = set(inspect(store.engine).get_table_names())
        assert "accounts" in names and not made & names
    finally:
        store.dispose()
