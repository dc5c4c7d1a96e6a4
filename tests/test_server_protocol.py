"""Client messages: decoded into their types, or refused naming the field."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")

from triominos.server.protocol import (
    ActionMessage,
    BadMessageError,
    CreateTable,
    Hello,
    HintRequest,
    Ping,
    decode,
    decode_client_message,
)


def test_each_message_type_decodes() -> None:
    assert decode_client_message('{"type": "hello", "token": "abc", "version": 4}') == Hello(
        "abc", 4
    )
    assert decode_client_message('{"type": "hello"}') == Hello(None, None)
    assert decode_client_message(
        b'{"type": "action", "id": "7", "version": 3, "action": {"action": "draw"}}'
    ) == ActionMessage("7", 3, {"action": "draw"})
    assert decode_client_message('{"type": "hint", "id": "h"}') == HintRequest("h")
    assert decode_client_message('{"type": "ping", "extra": 1}') == Ping()


@pytest.mark.parametrize(
    ("text", "field", "message"),
    [
        ("{", None, "not JSON: send one JSON object"),
        ("3", None, "send one JSON object (expected `object`, got `int`)"),
        ('{"type": 5}', "type", "type: expected `str`"),
        ('{"type": "hello", "version": -1}', "version", "version: expected `int` >= 0"),
        ('{"type": "hello", "token": 5}', "token", "token: expected `str | null`, got `int`"),
        (
            '{"type": "action", "id": "", "version": 0, "action": {}}',
            "id",
            "id: expected `str` of length >= 1",
        ),
        ('{"type": "action", "id": "a", "version": 0}', "action", "action: missing"),
        ('{"type": "hint", "id": null}', "id", "id: expected `str`, got `null`"),
    ],
)
def test_a_bad_message_names_its_field(text: str, field: str | None, message: str) -> None:
    with pytest.raises(BadMessageError) as error:
        decode_client_message(text)
    assert error.value.field == field
    assert str(error.value) == message


def test_nested_fields_are_named_by_their_path() -> None:
    body = (
        '{"preset": "classic", "players": 2,'
        ' "seats": [{"kind": "person"}, {"kind": "bot", "think": -1}]}'
    )
    with pytest.raises(BadMessageError) as error:
        decode(body, CreateTable)
    assert error.value.field == "seats[1].think"
    with pytest.raises(BadMessageError) as error:
        decode('{"preset": "classic", "players": 2, "seats": [{}]}', CreateTable)
    assert error.value.field == "seats[0].kind" and str(error.value) == "seats[0].kind: missing"
