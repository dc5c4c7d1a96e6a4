"""``triominos play`` end to end: a human seat driven through standard input."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner, Result

from triominos.cli import main
from triominos.cli import play as play_command
from triominos.game import Match
from triominos.tiles import Tile

ANSWER_CYCLE = "1\nd\np\n"
"""Answers that always get somewhere: in every state one of a placement (1), a draw or a
pass is legal, and the others are answered "not a choice" and asked again."""

TILE_NAME = re.compile(r"(?<![\d-])(\d)-(\d)-(\d)(?![\d-])")
PLACEMENT_NOTATION = re.compile(r"(?<![\d-])(\d)(\d)(\d)@")


def play(arguments: list[str], answers: str) -> Result:
    return CliRunner().invoke(main, ["play", *arguments], input=answers)


def first_listed_move(output: str) -> str:
    found = re.search(r"^\s+1\. (\S+@\S+)", output, re.MULTILINE)
    assert found is not None, output
    return found.group(1)


@pytest.mark.parametrize(
    ("arguments", "hands"),
    [
        (["--seed", "3", "--target", "60"], 1),
        (["--seed", "11", "--target", "300", "--seat", "1", "--name", "Ann"], 2),
        (["--seed", "4", "--target", "60", "--preset", "extended", "--players", "3",
          "--bots", "random,greedy", "--seat", "1"], 1),
    ],
)  # fmt: skip
def test_a_whole_match_is_played_to_the_end(arguments: list[str], hands: int) -> None:
    result = play(arguments, ANSWER_CYCLE * 1000)
    assert result.exit_code == 0, result.output
    output = result.output
    assert "=== Hand 1 ===" in output
    assert "your turn" in output
    assert "Your rack: " in output
    assert "Pool: " in output
    assert re.search(r"goes out|the hand is blocked", output)
    assert len(re.findall(r"^=== Hand \d+ ===$", output, re.MULTILINE)) == hands
    assert len(re.findall(r"^Totals after hand \d+: ", output, re.MULTILINE)) == hands
    assert "Final scores" in output
    assert re.search(r"^Winners?: ", output, re.MULTILINE)
    assert "Traceback" not in output


def test_each_turn_shows_the_board_rack_scores_and_the_scored_choices() -> None:
    result = play(["--seed", "3"], "q\ny\n")
    assert result.exit_code == 0, result.output
    turn = result.output[result.output.index("--- Hand 1: your turn ---") :]
    assert "0,0^" in turn  # the board, with its cell labels
    assert "Your rack: " in turn
    assert "Scores: Player 0, greedy (1) 19" in turn
    assert "Racks: greedy (1) 8 tiles" in turn
    assert re.search(r"^\s+1\. \d{3}@\S+\s+\d-\d-\d\s+\+\d+", turn, re.MULTILINE)
    assert "d: draw a tile (-5)" in turn
    assert "q: quit the game" in turn
    assert "p: pass" not in turn  # a pass is not legal while the player may draw


def test_bonuses_are_named_in_the_choices() -> None:
    result = play(["--seed", "3", "--target", "200"], ANSWER_CYCLE * 1000)
    assert result.exit_code == 0, result.output
    choices = [line for line in result.output.splitlines() if re.match(r"^\s+\d+\. ", line)]
    assert any(re.search(r"(hexagon|bridge|opening triple) \+\d+$", c) for c in choices)


def test_a_wrong_answer_is_answered_and_asked_again() -> None:
    result = play(["--seed", "3"], "hello\n0\n99\nP\n35@0,0v\n135@7,7v\nq\ny\n")
    assert result.exit_code == 0, result.output
    output = result.output
    assert output.count("not a choice: type a number from 1 to 6, d or q") == 4
    assert "not a placement: column 1 of '35@0,0v': expected three numbers" in output
    assert "not a legal placement now: 135@7,7v" in output
    assert output.count("Your move: ") == 7


def test_a_move_may_be_typed_in_the_notation() -> None:
    listed = first_listed_move(play(["--seed", "3"], "q\ny\n").output)
    result = play(["--seed", "3"], f"{listed}\nq\ny\n")
    assert result.exit_code == 0, result.output
    assert f"Player places {Tile(*map(int, listed[:3]))} as {listed}:" in result.output


def test_quitting_asks_for_confirmation_then_shows_the_totals() -> None:
    result = play(["--seed", "3"], "q\nn\n1\nq\ny\n")
    assert result.exit_code == 0, result.output
    assert "Quit the game? [y/N]" in result.output
    assert "Player places" in result.output  # "n" went back to the game
    assert re.search(r"You quit\. Totals so far: Player \d+, greedy \(1\) \d+", result.output)
    assert "Final scores" not in result.output


@pytest.mark.parametrize("answers", ["", "1\n", "q\n"])
def test_end_of_input_leaves_cleanly_with_status_1(answers: str) -> None:
    result = play(["--seed", "3"], answers)
    assert result.exit_code == 1
    assert "End of input: the game is left unfinished." in result.stderr
    assert "Totals so far:" in result.stdout
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("arguments", "option"),
    [
        (["--seat", "2"], "--seat"),
        (["--players", "7"], "--players"),
        (["--bots", "wizard"], "--bots"),
        (["--target", "0"], "--target"),
    ],
)
def test_bad_options_are_usage_errors_naming_the_option(arguments: list[str], option: str) -> None:
    result = play(arguments, "")
    assert result.exit_code == 2
    assert option in result.stderr
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    "arguments",
    [
        ["--seed", "5", "--target", "300", "--players", "3", "--bots", "random"],  # three hands
        ["--seed", "8", "--target", "100", "--preset", "extended", "--bots", "random"],
    ],
)
def test_no_tile_the_human_cannot_know_is_ever_printed(
    arguments: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Per hand, every tile printed is the human's, on the table or shown to decide the
    starter: never an opponent's rack, nor a tile an opponent drew and kept."""
    matches: list[Match] = []

    class RememberedMatch(Match):
        def __post_init__(self) -> None:
            super().__post_init__()
            matches.append(self)

    monkeypatch.setattr(play_command, "Match", RememberedMatch)
    result = play(arguments, ANSWER_CYCLE * 1000)
    assert result.exit_code == 0, result.output
    (match,) = matches
    human = 0
    hand_texts = re.split(r"^=== Hand \d+ ===$", result.output, flags=re.MULTILINE)[1:]
    assert len(hand_texts) == len(match.hands)
    for hand, text in zip(match.hands, hand_texts, strict=True):
        known = set(hand.deal.racks[human])
        known |= {e.tile for e in hand.events if e.tile and e.action != "draw"}
        known |= {e.tile for e in hand.events if e.tile and e.player == human}
        printed = {Tile(*map(int, found)) for found in TILE_NAME.findall(text)}
        printed |= {Tile(*map(int, found)) for found in PLACEMENT_NOTATION.findall(text)}
        assert printed, text
        assert not printed - known, f"hand {hand.number} shows {printed - known}"
    opponent_draws = [
        event
        for hand in match.hands
        for event in hand.events
        if event.action == "draw" and event.player != human
    ]
    assert opponent_draws, "the opponents never drew: the test proves nothing"
    told = re.findall(r"^  random \(\d\) draws a tile(.*)$", result.output, re.MULTILINE)
    assert told == [": -5"] * len(opponent_draws)
