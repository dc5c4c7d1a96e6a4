"""``triominos play`` end to end: a human seat driven through standard input."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner, Result

import junior_games
from triominos.board import Placement
from triominos.cli import main
from triominos.cli import play as play_command
from triominos.cli.play import Menu
from triominos.explain import Terms
from triominos.game import DRAWS, Match, TakeJoker
from triominos.notation import placement_to_text, take_joker_to_text
from triominos.rules import JUNIOR_RULES, PRESETS
from triominos.tiles import JOKER, Tile

ANSWER_CYCLE = "1\nd\np\n"
"""Answers that always get somewhere: in every state one of a placement (1), a draw or a
pass is legal, and the others are answered "not a choice" and asked again."""

JUNIOR_CYCLE = "1\nb\np\n"
"""The same for Junior, where a card is bought (b) rather than drawn."""

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


# The house reading offers a draw beside the placements (seed 002, the default, does not).
HOUSE = ["--preset", "classic-house"]


def test_each_turn_shows_the_board_rack_scores_and_the_scored_choices() -> None:
    result = play(["--seed", "3", *HOUSE], "q\ny\n")
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
    result = play(["--seed", "3", *HOUSE], "hello\n0\n99\nP\n35@0,0v\n135@7,7v\nq\ny\n")
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
    ("arguments", "answers"),
    [
        (["--seed", "5", "--target", "300", "--players", "3", "--bots", "random"], ANSWER_CYCLE),
        (["--seed", "8", "--target", "100", "--preset", "extended", "--bots", "random"],
         ANSWER_CYCLE),
        (["--seed", "6", "--preset", "junior", "--players", "3", "--bots", "random"],
         JUNIOR_CYCLE),
    ],
    ids=["classic", "extended", "junior"],
)  # fmt: skip
def test_no_tile_the_human_cannot_know_is_ever_printed(
    arguments: list[str], answers: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Per hand, every tile printed is the human's, on the table, laid face up first or
    shown to decide the starter: never an opponent's rack, nor a tile an opponent drew
    (or bought) and kept."""
    matches: list[Match] = []

    class RememberedMatch(Match):
        def __post_init__(self) -> None:
            super().__post_init__()
            matches.append(self)

    monkeypatch.setattr(play_command, "Match", RememberedMatch)
    result = play(arguments, answers * 1000)
    assert result.exit_code == 0, result.output
    (match,) = matches
    human = 0
    hand_texts = re.split(r"^=== Hand \d+ ===$", result.output, flags=re.MULTILINE)[1:]
    assert len(hand_texts) == len(match.hands)
    for hand, text in zip(match.hands, hand_texts, strict=True):
        known = set(hand.deal.racks[human])
        known |= {hand.deal.first} if hand.deal.first else set()
        known |= {e.tile for e in hand.events if e.tile and e.action not in DRAWS}
        known |= {e.tile for e in hand.events if e.tile and e.player == human}
        printed = {Tile(*map(int, found)) for found in TILE_NAME.findall(text)}
        printed |= {Tile(*map(int, found)) for found in PLACEMENT_NOTATION.findall(text)}
        assert printed, text
        assert not printed - known, f"hand {hand.number} shows {printed - known}"
    opponent_draws = [
        event
        for hand in match.hands
        for event in hand.events
        if event.action in DRAWS and event.player != human
    ]
    assert opponent_draws, "the opponents never drew: the test proves nothing"
    told = re.findall(
        r"^  random \(\d\) (?:draws a tile|buys a card)(.*)$", result.output, re.MULTILINE
    )
    terms = Terms.of(match.rules)
    assert told == [f": {terms.amount(event.points)}" for event in opponent_draws]


# --- Triominos Junior and the children's scoring ---------------------------------------


def counters_after(output: str) -> tuple[list[int], int]:
    """The counters and the bank of the "Counters after hand 1:" line."""
    found = re.search(r"^Counters after hand 1: (.*); bank (\d+)$", output, re.MULTILINE)
    assert found is not None, output
    counters = [int(total) for total in re.findall(r" (\d+)(?:,|$)", found.group(1))]
    return counters, int(found.group(2))


@pytest.mark.parametrize(
    "arguments",
    [
        ["--seed", "5", "--name", "Ann"],
        ["--seed", "10", "--players", "3", "--seat", "2", "--bots", "random,greedy"],
        ["--seed", "2", "--players", "4"],
    ],
)
def test_a_junior_game_is_played_to_the_end(arguments: list[str]) -> None:
    result = play(["--preset", "junior", *arguments], JUNIOR_CYCLE * 400)
    assert result.exit_code == 0, result.output
    output = result.output
    assert re.search(r"^junior match, seed \d+, one hand, the most counters win: ", output, re.M)
    assert re.search(r"^The first card, \d-\d-\d, lies face up as \d{3}@0,0\^$", output, re.M)
    assert "Counters: " in output and "; bank " in output
    assert re.search(r"^Pot: \d+ cards\. Racks: ", output, re.MULTILINE)
    assert "   b: buy a card (-1 counter)" in output
    assert "d: draw" not in output and "Pool: " not in output
    assert re.search(r"places \S+ as \S+: \+\d counters?", output)
    assert re.search(r"the pot is empty and the last round is over|the hand is blocked", output)
    counters, bank = counters_after(output)
    assert sum(counters) + bank == 60
    assert "Final counters" in output
    assert re.search(r"^Winners?: ", output, re.MULTILINE)
    assert "Traceback" not in output


def test_each_junior_turn_shows_counters_bank_and_racks() -> None:
    result = play(["--preset", "junior", "--seed", "5", "--name", "Ann"], "q\ny\n")
    assert result.exit_code == 0, result.output
    turn = result.output[result.output.index("--- Hand 1: your turn ---") :]
    assert "Counters: Ann 4, greedy (1) 4; bank 52" in turn
    assert "Pot: 23 cards. Racks: greedy (1) 6 cards." in turn
    assert re.search(r"^\s+1\. \d{3}@\S+\s+\d-\d-\d\s+\+1 counter$", turn, re.MULTILINE)
    assert "You quit. Counters so far: Ann 4, greedy (1) 4; bank 52" in result.output


def test_the_human_takes_the_joker_back_in_notation() -> None:
    """Played once to find the turn that offers the joker back; played again, the same
    game (same seed, same answers), answering that turn with the move in notation."""
    arguments = ["--preset", "junior", "--seed", "10", "--players", "3"]
    first = play(arguments, JUNIOR_CYCLE * 400).output
    offer = re.search(r"^\s+(\d+)\. take the joker back with (\S+) \((\S+@J)\)$", first, re.M)
    assert offer is not None, "no turn offers the joker back: choose another seed"
    asked = first[: offer.start()].count("Your move: ")
    answers = (JUNIOR_CYCLE * 400).splitlines(keepends=True)
    again = play(arguments, "".join(answers[:asked]) + f"{offer.group(3)}\n" + JUNIOR_CYCLE * 400)
    assert again.exit_code == 0, again.output
    assert (
        f"Player takes the joker back, putting {offer.group(2)} in its place ({offer.group(3)})"
        in again.output
    )


def test_a_junior_menu_numbers_the_ways_to_take_the_joker_back() -> None:
    match = junior_games.first_position(junior_games.can_take_joker)
    legal = match.legal_actions()
    menu = Menu.of(legal, match.hand.board, Terms.of(match.rules))
    takes = [option.action for option in legal if isinstance(option.action, TakeJoker)]
    assert menu.joker_takes == takes
    lines = menu.lines()
    for number, take in enumerate(takes, start=len(menu.placements) + 1):
        line = f"{number:>4}. take the joker back with {take.tile} ({take_joker_to_text(take)})"
        assert line in lines
        assert menu.pick(str(number)) == take
        assert menu.pick(take_joker_to_text(take)) == take
    assert menu.pick("B") == menu.pick("b")
    with pytest.raises(play_command.WrongAnswer, match="b or q"):
        menu.pick("d")


def joker_placements(match: Match) -> list[Placement]:
    return [
        option.action
        for option in match.legal_actions()
        if isinstance(option.action, Placement) and option.action.tile == JOKER
    ]


def test_a_joker_placement_may_be_typed() -> None:
    match = junior_games.first_position(lambda m: not m.is_over and bool(joker_placements(m)))
    menu = Menu.of(match.legal_actions(), match.hand.board, Terms.of(match.rules))
    joker = joker_placements(match)[0]
    typed = placement_to_text(joker)
    assert typed.startswith("J@")
    assert menu.pick(typed) == joker == menu.pick(typed.lower())
    number = menu.moves.index(joker) + 1
    assert any(line.startswith(f"{number:>4}. {typed} ") for line in menu.lines())


def test_open_racks_show_every_rack() -> None:
    arguments = ["--preset", "junior", "--seed", "5", "--name", "Ann", "--rule", "open_racks=true"]
    result = play(arguments, JUNIOR_CYCLE * 400)
    assert result.exit_code == 0, result.output
    turn = result.output[result.output.index("--- Hand 1: your turn ---") :]
    assert "Pot: 23 cards. Open racks:" in turn
    assert re.search(r"^  Ann: (\d-\d-\d ){5}\d-\d-\d$", turn, re.MULTILINE)
    assert re.search(r"^  greedy \(1\): (\d-\d-\d ){5}\d-\d-\d$", turn, re.MULTILINE)
    # With every rack open, the cards the opponent buys are told too.
    assert re.search(r"greedy \(1\) buys a card \(\d-\d-\d\): -1 counter", result.output)


def test_a_childrens_game_is_played_to_the_end() -> None:
    result = play(
        ["--preset", "classic-children", "--seed", "4", "--players", "3"], ANSWER_CYCLE * 1000
    )
    assert result.exit_code == 0, result.output
    output = result.output
    assert "classic-children match, seed 4, one hand, the most points win" in output
    assert "d: draw a tile (+0)" in output
    assert re.search(r"places \d-\d-\d as \S+: \+1\b", output)
    assert re.search(r"^Totals after hand 1: ", output, re.MULTILINE)
    assert "Final scores" in output
    assert "Traceback" not in output


def test_the_goal_is_said_in_the_editions_words() -> None:
    assert play_command.goal_words(PRESETS["classic"].rules) == "first to 400 points"
    assert play_command.goal_words(JUNIOR_RULES) == "one hand, the most counters win"
    assert play_command.goal_words(JUNIOR_RULES.replace(target_score=20)) == (
        "first to 20 counters or at most 1 hand"
    )


def test_junior_is_for_two_to_four_players() -> None:
    result = play(["--preset", "junior", "--players", "5"], "")
    assert result.exit_code == 2
    assert "--players" in result.stderr
    assert "junior is for 2 to 4 players, not 5" in result.stderr
    assert "Traceback" not in result.output
