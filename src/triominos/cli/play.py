"""``triominos play``: a match in the terminal, one human against bots.

Everything the human is shown comes from the human seat's observation: the engine
decides what is legal and what it scores, and what the other seats hold or draw is
never printed (unless the rules lay every rack open, as for young children). Answers
are read with :func:`click.prompt`, so a script (or a test) can play through standard
input.

Triominos Junior is played in its own words (:class:`~triominos.explain.Terms`): cards,
a pot, and counters from a bank, which the turn shows; buying a card is ``b``, and
taking the joker back is one of the numbered moves.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

import click
from rich.console import Console

from triominos.board import Board, FrozenBoard, Placement
from triominos.bots import Bot
from triominos.cli.main import (
    bots_option,
    main,
    match_rules,
    parse_bots,
    players_option,
    preset_option,
    rule_options,
    scores_table,
    seat_bot,
    seed_option,
)
from triominos.explain import (
    CLASSIC_TERMS,
    Terms,
    bonus_words,
    describe_end,
    describe_event,
    describe_first_card,
)
from triominos.game import (
    Action,
    Draw,
    LegalAction,
    Match,
    Observation,
    Pass,
    StarterDraw,
    TakeJoker,
    observe,
)
from triominos.notation import (
    Move,
    NotationError,
    move_from_text,
    placement_to_text,
    take_joker_to_text,
)
from triominos.rules import Rules
from triominos.textboard import board_rich_text

DRAW_KEY, BUY_KEY, PASS_KEY, QUIT_KEY = "d", "b", "p", "q"
PLACEMENT_MARK = "@"
MENU_HEADING = (
    "Your moves, best first (numbers on the corners clockwise from the leftmost @ the cell);"
    "\ntype a move's number or the move itself:"
)


class QuitGame(Exception):
    """The human chose to quit (and confirmed it)."""


def totals_words(labels: Sequence[str], totals: Sequence[int]) -> str:
    return ", ".join(f"{label} {total}" for label, total in zip(labels, totals, strict=True))


def goal_words(rules: Rules) -> str:
    """When the match ends: "first to 400 points", "at most 10 hands", or both; a
    match of one hand without a target is "one hand, the most counters win"."""
    unit = Terms.of(rules).unit
    if rules.target_score is None and rules.hand_limit == 1:
        return f"one hand, the most {unit} win"
    goals = []
    if rules.target_score is not None:
        goals.append(f"first to {rules.target_score} {unit}")
    if rules.hand_limit is not None:
        goals.append(f"at most {rules.hand_limit} hand{'s' if rules.hand_limit != 1 else ''}")
    return " or ".join(goals)


def standing_words(labels: Sequence[str], totals: Sequence[int], rules: Rules) -> str:
    """The totals, and with a bank what it still holds: "Ann 5, greedy (1) 3; bank 52"."""
    words = totals_words(labels, totals)
    if rules.bank is None:
        return words
    return f"{words}; bank {rules.bank - sum(totals)}"


class WrongAnswer(ValueError):
    """An answer that names no legal action; the message says what to type instead."""


class PlacementChoice(NamedTuple):
    placement: Placement
    points: int
    bonuses: dict[str, int]


@dataclass(frozen=True)
class Menu:
    """The legal actions of one turn as the human picks them: numbered moves, d (or b), p.

    Placements are listed best first (most points), so "1" is always the greedy move;
    the ways to take the joker back (Triominos Junior) are numbered after them. Drawing
    is ``b`` (buy) where a tile costs counters. ``board`` is the table the moves go on:
    a joker's placement typed in notation takes its corners from it.
    """

    placements: list[PlacementChoice]
    joker_takes: list[TakeJoker]
    draw: LegalAction | None
    pass_: LegalAction | None
    board: Board | FrozenBoard
    terms: Terms = CLASSIC_TERMS

    @classmethod
    def of(
        cls,
        legal_actions: Sequence[LegalAction],
        board: Board | FrozenBoard,
        terms: Terms = CLASSIC_TERMS,
    ) -> Menu:
        placements = [
            PlacementChoice(legal.action, legal.points, legal.bonuses)
            for legal in legal_actions
            if isinstance(legal.action, Placement)
        ]
        placements.sort(key=lambda choice: -choice.points)
        joker_takes = [
            legal.action for legal in legal_actions if isinstance(legal.action, TakeJoker)
        ]
        draw = next((legal for legal in legal_actions if isinstance(legal.action, Draw)), None)
        pass_ = next((legal for legal in legal_actions if isinstance(legal.action, Pass)), None)
        return cls(placements, joker_takes, draw, pass_, board, terms)

    @property
    def moves(self) -> list[Move]:
        """The numbered moves, in the order of their numbers (from 1)."""
        return [choice.placement for choice in self.placements] + list(self.joker_takes)

    @property
    def draw_key(self) -> str:
        return BUY_KEY if self.terms.counters else DRAW_KEY

    def lines(self) -> list[str]:
        """The menu: each move in notation with its tile, points and bonuses."""
        terms = self.terms
        notations = [placement_to_text(choice.placement) for choice in self.placements]
        width = max(map(len, notations), default=0)
        tile_width = max((len(choice.placement.tile.name) for choice in self.placements), default=0)
        lines = [MENU_HEADING] if self.moves else []
        for number, choice in enumerate(self.placements, start=1):
            notation = notations[number - 1]
            tile, amount = choice.placement.tile.name, terms.amount(choice.points)
            line = f"{number:>4}. {notation:<{width}}  {tile:<{tile_width}}  {amount:>4}"
            bonuses = bonus_words(tuple(choice.bonuses.items()))
            lines.append(f"{line}  {bonuses}" if bonuses else line)
        for number, take in enumerate(self.joker_takes, start=len(self.placements) + 1):
            lines.append(
                f"{number:>4}. take the joker back with {take.tile} ({take_joker_to_text(take)})"
            )
        if self.draw is not None:
            verb = "buy" if terms.counters else "draw"
            amount = terms.amount(self.draw.points)
            lines.append(f"   {self.draw_key}: {verb} a {terms.tile} ({amount})")
        if self.pass_ is not None:
            lines.append(f"   {PASS_KEY}: pass ({terms.amount(self.pass_.points)})")
        lines.append(f"   {QUIT_KEY}: quit the game")
        return lines

    def keys_words(self) -> str:
        """What the human may type, for the "not a choice" answer."""
        keys = []
        count = len(self.moves)
        if count:
            keys.append("1" if count == 1 else f"a number from 1 to {count}")
        if self.draw is not None:
            keys.append(self.draw_key)
        if self.pass_ is not None:
            keys.append(PASS_KEY)
        return ", ".join(keys) + f" or {QUIT_KEY}"

    def pick(self, answer: str) -> Action:
        """The legal action an answer names: a number, d (or b), p, or a move in notation.

        Keys are read in either case, notation as the notation reads it. Raises
        WrongAnswer, saying what may be typed, when the answer names no legal action.
        """
        key = answer.lower()
        chosen: Action | None = None
        if key == self.draw_key:
            chosen = None if self.draw is None else self.draw.action
        elif key == PASS_KEY:
            chosen = None if self.pass_ is None else self.pass_.action
        elif answer.isdigit() and 1 <= int(answer) <= len(self.moves):
            chosen = self.moves[int(answer) - 1]
        elif PLACEMENT_MARK in answer:
            return self.pick_move(answer)
        if chosen is None:
            raise WrongAnswer(f"not a choice: type {self.keys_words()}")
        return chosen

    def pick_move(self, answer: str) -> Move:
        try:
            move = move_from_text(answer, self.board)
        except NotationError as error:
            raise WrongAnswer(f"not a placement: {error}") from None
        if move not in self.moves:
            raise WrongAnswer(f"not a legal placement now: {answer}; the list shows them all")
        return move


class Narrator:
    """Tells the human every event of the match once, as the human's seat saw it.

    Called after every action. An action that ends a hand also deals the next one, so
    the hand that just ended is looked at through :func:`observe` for the human seat
    (the same function behind ``match.observe``) to tell its last events and settlement.
    """

    def __init__(self, match: Match, seat: int, labels: Sequence[str]) -> None:
        self.match = match
        self.seat = seat
        self.labels = labels
        self.rules = match.rules
        self.hand_number = 0
        self.events_told = 0
        self.end_told = False

    def tell(self) -> None:
        """Print what happened since the last call: new events, hand ends, new hands."""
        match = self.match
        if self.hand_number == 0:
            self._start_hand()
        while True:
            last = self.hand_number == len(match.hands)
            observation = (
                match.observe(self.seat)
                if last
                else observe(match.hands[self.hand_number - 1], self.seat)
            )
            self._tell_news(observation)
            if last:
                return
            self._start_hand()

    def _tell_news(self, observation: Observation) -> None:
        rules = self.rules
        for event in observation.history[self.events_told :]:
            click.echo("  " + describe_event(event, self.labels, rules))
        self.events_told = len(observation.history)
        if observation.end is not None and not self.end_told:
            self.end_told = True
            click.echo(describe_end(observation.end, self.labels, rules))
            totals = self.match.observe(self.seat).totals
            heading = "Counters" if Terms.of(rules).counters else "Totals"
            standing = standing_words(self.labels, totals, rules)
            click.echo(f"{heading} after hand {self.hand_number}: {standing}")

    def _start_hand(self) -> None:
        self.hand_number += 1
        self.events_told = 0
        self.end_told = False
        click.echo(f"\n=== Hand {self.hand_number} ===")
        first = self.match.hands[self.hand_number - 1].deal.first
        if first is not None:  # public: it lies face up before anyone plays
            click.echo(describe_first_card(first).capitalize())


class TerminalGame:
    """One match: the human's turns asked on the terminal, the bots' played at once."""

    def __init__(
        self, match: Match, seat: int, labels: Sequence[str], bots: dict[int, Bot]
    ) -> None:
        self.match = match
        self.seat = seat
        self.labels = labels
        self.bots = bots
        self.narrator = Narrator(match, seat, labels)

    def run(self) -> None:
        """Play to the end of the match, or until the human quits (QuitGame)."""
        match = self.match
        while not match.is_over:
            self.narrator.tell()
            seat = match.to_move
            if seat == self.seat:
                match.apply(self.human_action(match.observe(seat)))
            else:
                match.apply(self.bots[seat].act(match.observe(seat)))
        self.narrator.tell()

    def human_action(self, observation: Observation) -> Action:
        legal_actions = observation.legal_actions()
        if [legal.action for legal in legal_actions] == [StarterDraw()]:
            click.echo("You draw a tile to decide who starts.")
            return StarterDraw()
        self.show_turn(observation)
        menu = Menu.of(legal_actions, observation.board, Terms.of(observation.rules))
        for line in menu.lines():
            click.echo(line)
        while True:
            answer = click.prompt("Your move", prompt_suffix=": ").strip()
            if answer.lower() == QUIT_KEY:
                if click.confirm("Quit the game?", default=False):
                    raise QuitGame
                continue
            try:
                return menu.pick(answer)
            except WrongAnswer as wrong:
                click.echo(str(wrong))

    def show_turn(self, observation: Observation) -> None:
        """The table, the rack, the scores (or counters and bank) and the other racks."""
        labels, rules = self.labels, observation.rules
        terms = Terms.of(rules)
        draws = observation.draws
        drawn = f", {draws} {terms.tile}{'s' if draws > 1 else ''} drawn this turn" if draws else ""
        click.echo(f"\n--- Hand {observation.hand_number}: your turn{drawn} ---")
        # Soft wrap: a wide table is never broken across lines.
        Console(highlight=False).print(board_rich_text(observation.board), soft_wrap=True)
        rack = " ".join(tile.name for tile in observation.rack_tiles) or "(empty)"
        click.echo(f"Your rack: {rack}")
        heading = "Counters" if terms.counters else "Scores"
        click.echo(f"{heading}: {standing_words(labels, observation.totals, rules)}")
        pool = f"{terms.pool.capitalize()}: {observation.pool_size} {terms.tiles}."
        if observation.open_racks is None:
            others = ", ".join(
                f"{labels[seat]} {size}"
                for seat, size in enumerate(observation.rack_sizes)
                if seat != self.seat
            )
            click.echo(f"{pool} Racks: {others} {terms.tiles}.")
            return
        # Open racks (for young children): every rack lies face up.
        click.echo(f"{pool} Open racks:")
        tile_set = observation.board.tile_set
        for seat, mask in enumerate(observation.open_racks):
            tiles = " ".join(tile.name for tile in tile_set.tiles_in(mask)) or "(empty)"
            click.echo(f"  {labels[seat]}: {tiles}")


@main.command()
@preset_option
@players_option
@bots_option("greedy")
@click.option(
    "--seat",
    type=click.IntRange(min=0),
    default=0,
    show_default=True,
    help="Your seat, from 0; the bots take the others.",
)
@seed_option()
@click.option("--name", default="Player", show_default=True, help="Your name at the table.")
@rule_options
@click.pass_context
def play(
    context: click.Context,
    preset: str,
    players: int,
    bots: str,
    seat: int,
    seed: int | None,
    name: str,
    target: int | None,
    rule: tuple[str, ...],
) -> None:
    """Play a match in the terminal against bots.

    Each turn shows the board, your rack, the scores and your legal moves with what
    each scores; answer with a move's number, the move in notation (like 545@0,0v:
    the numbers on the cell's corners clockwise from the leftmost, @ the cell; J@0,1v
    lays the joker, 312@J takes it back), d (draw; b, buy, where cards cost
    counters), p (pass) or q (quit).
    """
    if not name.strip():
        raise click.BadParameter("give a name to show at the table", param_hint="--name")
    if seat >= players:
        raise click.BadParameter(
            f"{seat} is not a seat of {players} players (0 to {players - 1})", param_hint="--seat"
        )
    opponents = iter(parse_bots(bots, players - 1))
    bot_names = {other: next(opponents) for other in range(players) if other != seat}
    rules = match_rules(preset, target, rule, players)
    match = Match(rules, players, seed)
    labels = [
        name if other == seat else f"{bot_names[other]} ({other})" for other in range(players)
    ]
    seat_bots = {other: seat_bot(bot, match.seed, other) for other, bot in bot_names.items()}
    game = TerminalGame(match, seat, labels, seat_bots)
    click.echo(f"{preset} match, seed {match.seed}, {goal_words(rules)}: {', '.join(labels)}")
    so_far = "Counters so far" if rules.bank is not None else "Totals so far"
    try:
        game.run()
    except QuitGame:
        totals = match.observe(seat).totals
        click.echo(f"You quit. {so_far}: {standing_words(labels, totals, rules)}")
        return
    except click.Abort:
        totals = match.observe(seat).totals
        click.echo(f"{so_far}: {standing_words(labels, totals, rules)}")
        click.echo("End of input: the game is left unfinished.", err=True)
        context.exit(1)
    final = match.observe(seat)
    title = "Final counters" if rules.bank is not None else "Final scores"
    Console(highlight=False).print(scores_table(labels, final.totals, match.winners, title))
    winners = " and ".join(labels[winner] for winner in match.winners)
    click.echo(f"Winner: {winners}" if len(match.winners) == 1 else f"Winners: {winners}")
