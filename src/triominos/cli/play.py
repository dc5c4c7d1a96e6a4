"""``triominos play``: a match in the terminal, one human against bots.

Everything the human is shown comes from the human seat's observation: the engine
decides what is legal and what it scores, and what the other seats hold or draw is
never printed. Answers are read with :func:`click.prompt`, so a script (or a test) can
play through standard input.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

import click
from rich.console import Console

from triominos.board import Placement
from triominos.bots import Bot
from triominos.cli.main import (
    bots_option,
    main,
    match_rules,
    parse_bots,
    players_option,
    preset_option,
    scores_table,
    seat_bot,
    seed_option,
    target_option,
)
from triominos.explain import bonus_words, describe_end, describe_event
from triominos.game import Action, Draw, LegalAction, Match, Observation, Pass, StarterDraw, observe
from triominos.notation import NotationError, placement_from_text, placement_to_text
from triominos.rules import Rules
from triominos.textboard import board_text

DRAW_KEY, PASS_KEY, QUIT_KEY = "d", "p", "q"
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
    """When the match ends: "first to 400 points", "at most 10 hands", or both."""
    goals = []
    if rules.target_score is not None:
        goals.append(f"first to {rules.target_score} points")
    if rules.hand_limit is not None:
        goals.append(f"at most {rules.hand_limit} hands")
    return " or ".join(goals)


class WrongAnswer(ValueError):
    """An answer that names no legal action; the message says what to type instead."""


class PlacementChoice(NamedTuple):
    placement: Placement
    points: int
    bonuses: dict[str, int]


@dataclass(frozen=True)
class Menu:
    """The legal actions of one turn as the human picks them: numbered placements, d, p.

    Placements are listed best first (most points), so "1" is always the greedy move.
    """

    placements: list[PlacementChoice]
    draw: LegalAction | None
    pass_: LegalAction | None

    @classmethod
    def of(cls, legal_actions: Sequence[LegalAction]) -> Menu:
        placements = [
            PlacementChoice(legal.action, legal.points, legal.bonuses)
            for legal in legal_actions
            if isinstance(legal.action, Placement)
        ]
        placements.sort(key=lambda choice: -choice.points)
        draw = next((legal for legal in legal_actions if isinstance(legal.action, Draw)), None)
        pass_ = next((legal for legal in legal_actions if isinstance(legal.action, Pass)), None)
        return cls(placements, draw, pass_)

    def lines(self) -> list[str]:
        """The menu: each placement in notation with its tile, points and bonuses."""
        notations = [placement_to_text(choice.placement) for choice in self.placements]
        width = max(map(len, notations), default=0)
        lines = [MENU_HEADING] if self.placements else []
        for number, choice in enumerate(self.placements, start=1):
            notation = notations[number - 1]
            tile, points = choice.placement.tile, choice.points
            line = f"{number:>4}. {notation:<{width}}  {tile}  {points:+4d}"
            bonuses = bonus_words(tuple(choice.bonuses.items()))
            lines.append(f"{line}  {bonuses}" if bonuses else line)
        if self.draw is not None:
            lines.append(f"   {DRAW_KEY}: draw a tile ({self.draw.points:+d})")
        if self.pass_ is not None:
            lines.append(f"   {PASS_KEY}: pass ({self.pass_.points:+d})")
        lines.append(f"   {QUIT_KEY}: quit the game")
        return lines

    def keys_words(self) -> str:
        """What the human may type, for the "not a choice" answer."""
        keys = []
        if self.placements:
            count = len(self.placements)
            keys.append("1" if count == 1 else f"a number from 1 to {count}")
        if self.draw is not None:
            keys.append(DRAW_KEY)
        if self.pass_ is not None:
            keys.append(PASS_KEY)
        return ", ".join(keys) + f" or {QUIT_KEY}"

    def pick(self, answer: str) -> Action:
        """The legal action an answer names: a number, d, p or a placement in notation.

        Raises WrongAnswer, saying what may be typed, when it names none.
        """
        chosen: LegalAction | PlacementChoice | None = None
        if answer == DRAW_KEY:
            chosen = self.draw
        elif answer == PASS_KEY:
            chosen = self.pass_
        elif answer.isdigit() and 1 <= int(answer) <= len(self.placements):
            chosen = self.placements[int(answer) - 1]
        elif PLACEMENT_MARK in answer:
            return self.pick_placement(answer)
        if chosen is None:
            raise WrongAnswer(f"not a choice: type {self.keys_words()}")
        return chosen.action if isinstance(chosen, LegalAction) else chosen.placement

    def pick_placement(self, answer: str) -> Placement:
        try:
            placement = placement_from_text(answer)
        except NotationError as error:
            raise WrongAnswer(f"not a placement: {error}") from None
        if all(choice.placement != placement for choice in self.placements):
            raise WrongAnswer(f"not a legal placement now: {answer}; the list shows them all")
        return placement


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
        for event in observation.history[self.events_told :]:
            click.echo("  " + describe_event(event, self.labels))
        self.events_told = len(observation.history)
        if observation.end is not None and not self.end_told:
            self.end_told = True
            click.echo(describe_end(observation.end, self.labels))
            totals = self.match.observe(self.seat).totals
            click.echo(f"Totals after hand {self.hand_number}: {totals_words(self.labels, totals)}")

    def _start_hand(self) -> None:
        self.hand_number += 1
        self.events_told = 0
        self.end_told = False
        click.echo(f"\n=== Hand {self.hand_number} ===")


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
        menu = Menu.of(legal_actions)
        for line in menu.lines():
            click.echo(line)
        while True:
            answer = click.prompt("Your move", prompt_suffix=": ").strip().lower()
            if answer == QUIT_KEY:
                if click.confirm("Quit the game?", default=False):
                    raise QuitGame
                continue
            try:
                return menu.pick(answer)
            except WrongAnswer as wrong:
                click.echo(str(wrong))

    def show_turn(self, observation: Observation) -> None:
        labels = self.labels
        draws = observation.draws
        drawn = f", {draws} tile{'s' if draws > 1 else ''} drawn this turn" if draws else ""
        click.echo(f"\n--- Hand {observation.hand_number}: your turn{drawn} ---")
        click.echo(board_text(observation.board))
        click.echo("Your rack: " + " ".join(tile.name for tile in observation.rack_tiles))
        click.echo("Scores: " + totals_words(labels, observation.totals))
        others = ", ".join(
            f"{labels[seat]} {size}"
            for seat, size in enumerate(observation.rack_sizes)
            if seat != self.seat
        )
        click.echo(f"Pool: {observation.pool_size} tiles. Racks: {others} tiles.")


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
@target_option
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
) -> None:
    """Play a match in the terminal against bots.

    Each turn shows the board, your rack, the scores and your legal moves with what
    each scores; answer with a move's number, the move in notation (like 545@0,0v:
    the numbers on the cell's corners clockwise from the leftmost, @ the cell),
    d (draw), p (pass) or q (quit).
    """
    if not name.strip():
        raise click.BadParameter("give a name to show at the table", param_hint="--name")
    if seat >= players:
        raise click.BadParameter(
            f"{seat} is not a seat of {players} players (0 to {players - 1})", param_hint="--seat"
        )
    opponents = iter(parse_bots(bots, players - 1))
    bot_names = {other: next(opponents) for other in range(players) if other != seat}
    match = Match(match_rules(preset, target), players, seed)
    labels = [
        name if other == seat else f"{bot_names[other]} ({other})" for other in range(players)
    ]
    seat_bots = {other: seat_bot(bot, match.seed, other) for other, bot in bot_names.items()}
    game = TerminalGame(match, seat, labels, seat_bots)
    click.echo(f"{preset} match, seed {match.seed}, {goal_words(match.rules)}: {', '.join(labels)}")
    try:
        game.run()
    except QuitGame:
        totals = match.observe(seat).totals
        click.echo(f"You quit. Totals so far: {totals_words(labels, totals)}")
        return
    except click.Abort:
        totals = match.observe(seat).totals
        click.echo(f"Totals so far: {totals_words(labels, totals)}")
        click.echo("End of input: the game is left unfinished.", err=True)
        context.exit(1)
    final = match.observe(seat)
    Console(highlight=False).print(
        scores_table(labels, final.totals, match.winners, "Final scores")
    )
    winners = " and ".join(labels[winner] for winner in match.winners)
    click.echo(f"Winner: {winners}" if len(match.winners) == 1 else f"Winners: {winners}")
