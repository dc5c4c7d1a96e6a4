"""The table state without a server: each command decided, stored (here: answered as a
store would), settled, and what every audience is told; time passed in, the rate limits
on a clock the test moves."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

pytest.importorskip("starlette")

from triominos.board import Placement
from triominos.rules import preset
from triominos.server.protocol import CHAT_PER_SEAT, CHAT_SPECTATORS, TAKEBACK_PAUSE
from triominos.server.store import SeatInfo, TableInfo
from triominos.server.tablestate import (
    Act,
    AnswerTakeback,
    AppendAction,
    AskTakeback,
    Audience,
    ChatLine,
    Decision,
    EndRequest,
    PlayDefault,
    Refused,
    Resign,
    Say,
    TableState,
    Told,
    token_hash,
)

NOW = 1_000_000.0


class Clock:
    """The rate limits' clock, moved by the test."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def table(people: int = 2, *, seed: int = 7, **options: Any) -> TableInfo:
    """A table of ``people`` seated persons, playing since NOW."""
    seats = tuple(
        SeatInfo(n, "person", f"P{n}", token_hash=token_hash(f"token{n}")) for n in range(people)
    )
    return TableInfo(
        id=1,
        code="ABCDEF",
        preset="classic",
        rules=preset("classic").rules,
        players=people,
        seed=seed,
        turn_seconds=options.pop("turn_seconds", None),
        status="playing",
        created_at=NOW,
        finished_at=None,
        rematch_of=None,
        seats=seats,
        started_at=NOW,
        **options,
    )


def stored(state: TableState, decision: Decision) -> Told:
    """Settle ``decision`` with what the store would answer to its write."""
    answer: Any = None
    match decision.write:
        case EndRequest(seats):
            answer = dataclasses.replace(state.info, ending=seats)
        case ChatLine(_, seat, name, text):
            answer = {"seat": seat, "name": name, "text": text, "at": NOW}
    return decision.settle(answer)


def told_to(state: TableState, told: Told, audience: Audience) -> dict[str, Any]:
    assert told.build is not None
    message = told.build(audience)
    assert message is not None
    return message


def audiences(state: TableState) -> list[Audience]:
    return [*range(state.info.players), None]


def placement_of(state: TableState) -> Placement:
    """A placement the player to move may make (the opening tile, at version 0)."""
    return next(o.action for o in state.legal_actions() if isinstance(o.action, Placement))


def test_an_action_changes_nothing_until_it_is_stored() -> None:
    state = TableState(table(), [], NOW)
    mover = state.match.to_move
    decision = state.decide(Act(mover, 0, placement_of(state), "a1"), NOW + 3)
    assert isinstance(decision.write, AppendAction)
    assert decision.write.stored.version == 1 and decision.write.stored.created_at == NOW + 3
    assert state.version == 0 and state.match.to_move == mover  # not before it is durable
    told = stored(state, decision)
    assert state.version == 1 and state.turn_started == NOW + 3
    assert told.to_sender == {"id": "a1"}
    for audience in audiences(state):
        message = told_to(state, told, audience)
        assert message["type"] == "event" and message["version"] == 1
        assert message["view"]["seat"] == audience
    with pytest.raises(Refused) as refused:
        state.decide(Act(mover, 1, placement_of(state), "a1"), NOW + 4)
    assert refused.value.code == "duplicate"


@pytest.mark.parametrize(
    ("command", "code"),
    [
        (Act(None, 0, {"action": "draw"}), "spectator"),
        (Act(0, 5, {"action": "draw"}), "stale_version"),
    ],
)
def test_refusals_carry_the_protocols_code(command: Act, code: str) -> None:
    state = TableState(table(), [], NOW)
    with pytest.raises(Refused) as refused:
        state.decide(command, NOW)
    assert refused.value.code == code
    assert state.version == 0


def test_the_seat_to_move_is_checked_then_the_field_then_the_rule() -> None:
    state = TableState(table(), [], NOW)
    mover = state.match.to_move
    with pytest.raises(Refused) as refused:
        state.decide(Act(1 - mover, 0, {"action": "draw"}), NOW)
    assert refused.value.code == "not_your_turn"
    with pytest.raises(Refused) as refused:
        state.decide(Act(mover, 0, {"action": "place", "tile": "nonsense"}), NOW)
    assert refused.value.code == "bad_message" and refused.value.field == "action.tile"
    with pytest.raises(Refused) as refused:
        state.decide(Act(mover, 0, {"action": "pass"}), NOW)  # the opening is laid
    assert refused.value.code == "illegal" and refused.value.rule is not None


def test_a_bots_move_is_refused_once_its_person_has_the_seat_again() -> None:
    """A bot that chose while its person took the seat back (written while it thought)
    does not play for the person; a person's action for a bot's seat is refused too."""
    people = table()
    mover = TableState(people, [], NOW).match.to_move
    seats = tuple(
        dataclasses.replace(seat, kind="bot", bot="greedy") if seat.seat == mover else seat
        for seat in people.seats
    )
    botted = TableState(dataclasses.replace(people, seats=seats), [], NOW)
    with pytest.raises(Refused) as refused:
        botted.decide(Act(mover, 0, placement_of(botted)), NOW)
    assert refused.value.code == "not_your_turn"
    assert isinstance(
        botted.decide(Act(mover, 0, placement_of(botted), by_server=True), NOW).write, AppendAction
    )
    state = TableState(people, [], NOW)  # the person has the seat again
    with pytest.raises(Refused) as refused:
        state.decide(Act(mover, 0, placement_of(state), by_server=True), NOW)
    assert refused.value.code == "not_your_turn" and state.version == 0


def test_a_takeback_asked_declined_paused_then_accepted() -> None:
    clock = Clock()
    state = TableState(table(), [], NOW, clock)
    mover = state.match.to_move
    other = 1 - mover
    stored(state, state.decide(Act(mover, 0, placement_of(state)), NOW + 1))

    asked = state.decide(AskTakeback(mover, "t1"), NOW + 2)
    assert asked.write is None  # asking stores nothing
    message = told_to(state, stored(state, asked), other)
    assert message["type"] == "takeback" and message["state"] == "asked"
    assert message["view"]["takeback"] == {"seat": mover, "waiting": [other]}
    with pytest.raises(Refused) as refused:
        state.decide(AnswerTakeback(mover, True), NOW + 2)  # not the asker's to answer
    assert refused.value.code == "no_takeback"

    declined = stored(state, state.decide(AnswerTakeback(other, False), NOW + 3))
    assert told_to(state, declined, mover)["state"] == "declined"
    assert state.takeback is None
    with pytest.raises(Refused) as refused:
        state.decide(AskTakeback(mover, "t2"), NOW + 4)
    assert refused.value.code == "no_takeback" and "ask again in 29 s" in str(refused.value)

    stored(state, state.decide(AskTakeback(mover, "t3"), NOW + 3 + TAKEBACK_PAUSE))
    accepted = state.decide(AnswerTakeback(other, True), NOW + 40)
    assert isinstance(accepted.write, AppendAction)
    assert accepted.write.stored.action == {"action": "takeback"}
    assert state.version == 1  # until stored
    event = told_to(state, stored(state, accepted), None)
    assert event["event"]["action"] == "takeback" and state.version == 2
    assert state.match.to_move == mover and state.turn_started == NOW + 40


def test_a_takeback_lapses_when_the_game_moves_on_and_asks_are_rate_limited() -> None:
    clock = Clock()
    state = TableState(table(), [], NOW, clock)
    mover = state.match.to_move
    stored(state, state.decide(Act(mover, 0, placement_of(state)), NOW))
    for number in range(3):
        stored(state, state.decide(AskTakeback(mover, f"t{number}"), NOW))
        stored(state, state.decide(AnswerTakeback(1 - mover, False), NOW - TAKEBACK_PAUSE))
    with pytest.raises(Refused) as refused:
        state.decide(AskTakeback(mover, "once-more"), NOW)
    assert refused.value.code == "rate_limited"
    clock.now += 301  # past TAKEBACKS_PER_SEAT's 300 s
    stored(state, state.decide(AskTakeback(mover, "later"), NOW))
    assert state.takeback is not None
    other = state.match.to_move
    stored(state, state.decide(PlayDefault(state.version), NOW + 1))
    assert state.takeback is None and state.match.to_move != other


@pytest.mark.parametrize("people", [3, 4, 5, 6])
def test_among_three_to_six_the_match_ends_once_every_person_asked(people: int) -> None:
    state = TableState(table(people), [], NOW)
    for seat in range(people - 1):
        decision = state.decide(Resign(seat, f"r{seat}"), NOW)
        assert decision.write == EndRequest(tuple(range(seat + 1)))  # stored, in order
        told = stored(state, decision)
        message = told_to(state, told, people - 1)
        assert message["type"] == "ending" and message["seats"] == list(range(seat + 1))
        assert message["view"]["may_resign"] == (seat == people - 2)
        assert not state.match.is_over
    assert state.decide(Resign(0, "again"), NOW).write == EndRequest(tuple(range(people - 1)))
    last = state.decide(Resign(people - 1, "last"), NOW + 5)
    assert isinstance(last.write, AppendAction)
    assert last.write.stored.seat == 0 and last.write.stored.action == {"action": "resign"}
    assert last.write.finished
    told = stored(state, last)
    assert state.match.is_over and state.info.status == "finished"
    assert 0 not in told_to(state, told, None)["view"]["winners"]


def test_an_end_request_is_read_back_from_the_stored_table() -> None:
    """What the store keeps is what a restarted server or another node starts from."""
    state = TableState(table(3, ending=(1,)), [], NOW)
    assert state.ending == (1,)
    assert not state.may_resign(1) and not state.may_resign(0)
    assert state.decide(Resign(2), NOW).write == EndRequest((1, 2))


def test_a_spectator_cannot_resign() -> None:
    state = TableState(table(), [], NOW)
    with pytest.raises(Refused) as refused:
        state.decide(Resign(None, "w"), NOW)
    assert refused.value.code == "spectator"


def test_the_turn_timer_plays_the_default_action_only_if_nothing_moved() -> None:
    state = TableState(table(turn_seconds=30.0), [], NOW)
    assert state.turn_deadline == NOW + 30.0
    mover = state.match.to_move
    decision = state.decide(PlayDefault(0), NOW + 30.0)
    assert isinstance(decision.write, AppendAction) and decision.write.stored.seat == mover
    stored(state, decision)
    assert state.version == 1 and state.turn_deadline == NOW + 60.0
    late = state.decide(PlayDefault(0), NOW + 31)  # the timer of a turn already played
    assert late.write is None and late.settle(None).build is None


def test_chat_budgets_on_an_injected_clock() -> None:
    clock = Clock()
    state = TableState(table(), [], NOW, clock)
    count, seconds = CHAT_PER_SEAT
    for number in range(count):
        decision = state.decide(Say(0, None, f" hello {number} "), NOW)
        assert decision.write == ChatLine("players", 0, "P0", f"hello {number}")
    with pytest.raises(Refused) as refused:
        state.decide(Say(0, None, "one more"), NOW)
    assert refused.value.code == "rate_limited"
    state.decide(Say(1, None, "the other seat has its own"), NOW)
    for number in range(CHAT_SPECTATORS[0]):  # the spectators never spend the players'
        state.decide(Say(None, number + 1, "hi"), NOW)
    with pytest.raises(Refused):
        state.decide(Say(None, 1, "too many"), NOW)
    state.decide(Say(1, None, "players still chat"), NOW)
    clock.now += seconds
    told = stored(state, state.decide(Say(0, None, "again"), NOW))
    assert told_to(state, told, 1)["messages"][0]["text"] == "again"
    assert told.build is not None and told.build(None) is None  # not the spectators' chat


def test_a_seats_messages_never_hold_another_seats_rack() -> None:
    """Every message of a hand, to every audience, built through the one view function:
    none names a tile in another seat's rack (a draw hides its tile from the others)."""
    state = TableState(table(3, timeout_action="draw"), [], NOW)
    checked = 0
    while state.match.hand.number == 1 and not state.match.is_over:
        told = stored(state, state.decide(PlayDefault(state.version), NOW))
        if state.match.hand.number != 1:
            break  # the hand's end shows every rack, as it should
        for audience in audiences(state):
            texts = [json.dumps(told_to(state, told, audience))]
            texts.append(json.dumps(state.greeting(audience, 0)))
            for seat in range(3):
                if seat == audience:
                    continue
                for tile in state.match.hand.rack(seat):
                    assert all(f'"{tile.name}"' not in text for text in texts), (audience, seat)
                    checked += 1
        own = told_to(state, told, 0)["view"]["rack"]
        assert own == [tile.name for tile in state.match.hand.rack(0)]
        assert told_to(state, told, None)["view"]["rack"] is None
    assert checked > 100
