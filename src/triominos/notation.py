"""A short text notation for tiles, cells, placements and positions.

It is to the record (RECORD.md) what SAN and FEN are to PGN in chess: a form short
enough to type in a terminal, write in a test or a bug report, and read back. Every
formatter has a parser, and parsing what a formatter wrote gives back the same value.

Grammar (no spaces inside a token; ``DIGIT`` is 0-9)::

    number    = 1*DIGIT
    integer   = ["-"] number
    numbers   = number "-" number "-" number   ; "0-1-2", "10-4-5"
              / DIGIT DIGIT DIGIT              ; "012": short form, one digit each
    joker     = "J" / "j"                      ; the joker of Triominos Junior
    tile      = numbers / joker                ; the tile's numbers clockwise, any
                                               ; rotation: "1-2-0" is the tile 0-1-2
    cell      = integer "," integer ("^" / "v")
                                               ; "0,0^" is [0, 0, "up"],
                                               ; "-1,2v" is [-1, 2, "down"]
    placement = numbers "@" cell               ; "545@0,0v": 5, 4, 5 on the corners
                                               ; of [0, 0, "down"], clockwise from
                                               ; the leftmost; the tile is 4-5-5
              / joker "@" cell                 ; "J@0,1v": the joker on [0, 1, "down"]
    take-joker = numbers "@" joker             ; "312@J": the card 1-2-3 put where the
                                               ; joker lies, 3, 1, 2 on that cell's
                                               ; corners clockwise from the leftmost;
                                               ; the joker goes back to the rack
    move      = placement / take-joker         ; what a player does on the table
    action    = move / name                    ; any action: "draw", "pass",
                                               ; "starter_draw", "buy" (a draw),
                                               ; "resign" (of a player given apart)
    position  = [placement *(1*" " placement)] ; the placements in the order they
                                               ; were made; "" is the empty table

The formatters write a tile with dashes (``0-1-2``, its canonical rotation, as in
records), a placement's numbers in the short form when each is one digit (``545``) and
with dashes otherwise, the joker ``J``, and one space between the placements of a
position. ``^`` and ``v`` point the way the triangle points.

A joker's corners are not written: they are always the numbers already at its cell's
vertices, each corner no card touches being free (:data:`~triominos.tiles.WILD`). So a
joker's placement is read against the board it goes on (the ``board`` argument of
:func:`placement_from_text` and :func:`move_from_text`; a position is its own board).
Taking the joker back needs no cell, since there is one joker: only the card and how
it lies.

A placement's numbers are the corners as laid, not the tile's name: they say both which
tile it is and how it is turned. A position is the board's history rather than its
picture, because the order of the placements decides the bonuses they scored;
:func:`position_from_text` replays it through :meth:`Board.push
<triominos.board.Board.push>`, so a parsed position is a legal one. A card that took
the joker back lies where the joker did, so the position of such a board writes the
card in the joker's place in the order: the same table, reached legally.

>>> placement_to_text(placement_from_text("545@0,0v"))
'545@0,0v'
>>> position_to_text(position_from_text("555@0,0^ 545@0,0v"))
'555@0,0^ 545@0,0v'
>>> from triominos.tiles import JUNIOR
>>> board = position_from_text("355@0,0^ J@0,0v", JUNIOR)
>>> board.last.corners
(5, -1, 5)
>>> move_to_text(move_from_text("553@J"))
'553@J'
>>> action_to_text(action_from_text("draw"))
'draw'

An action without fields (:data:`~triominos.game.ACTION_FIELDS`) is written by its name,
as its JSON names it; a resignation's player is not in the text, as it is not in the
JSON: :func:`action_from_text` is told it.
"""

from __future__ import annotations

from collections.abc import Iterable

from triominos.board import Board, FrozenBoard, IllegalPlacementError, Placement
from triominos.game import (
    ACTION_FIELDS,
    Action,
    ActionFieldError,
    TakeJoker,
    action_from_json,
    action_json,
)
from triominos.lattice import Cell, LatticeError
from triominos.tiles import CLASSIC, JOKER, WILD, Corners, Tile, TileSet

__all__ = [
    "NAMED_ACTIONS",
    "Move",
    "NotationError",
    "action_from_text",
    "action_to_text",
    "cell_from_text",
    "cell_to_text",
    "joker_corners",
    "move_from_text",
    "move_to_text",
    "placement_from_text",
    "placement_to_text",
    "position_from_text",
    "position_to_text",
    "take_joker_from_text",
    "take_joker_to_text",
    "tile_from_text",
    "tile_to_text",
]

Move = Placement | TakeJoker
"""What a player does on the table: lay a tile, or take the joker back with a card."""

NAMED_ACTIONS = tuple(name for name, fields in ACTION_FIELDS.items() if not fields)
"""The actions written by their name alone: those whose JSON has no field."""

UP, DOWN = "^", "v"
JOKER_MARK = "J"
_DIGITS = frozenset("0123456789")


class NotationError(ValueError):
    """Text that is not in the notation: says what was expected and at which column.

    ``column`` is 1-based in ``text``; ``rule`` names the rule an illegal placement of a
    position breaks (as :class:`~triominos.board.IllegalPlacementError` does), else None.
    """

    def __init__(self, message: str, text: str, column: int, rule: str | None = None) -> None:
        super().__init__(f"column {column} of {text!r}: {message}")
        self.message = message
        self.text = text
        self.column = column
        self.rule = rule


# --- formatting ---------------------------------------------------------------------


def tile_to_text(tile: Tile) -> str:
    """``0-1-2``: the tile's name, as records write it."""
    return tile.name


def cell_to_text(cell: Cell) -> str:
    """``0,0^`` for ``[0, 0, "up"]``, ``-1,2v`` for ``[-1, 2, "down"]``."""
    return f"{cell.x},{cell.y}{UP if cell.up else DOWN}"


def _numbers_to_text(numbers: Corners) -> str:
    if all(number < 10 for number in numbers):
        return "".join(map(str, numbers))
    return "-".join(map(str, numbers))


def placement_to_text(placement: Placement) -> str:
    """``545@0,0v``: the numbers on the cell's corners clockwise, then the cell.

    The joker is ``J@0,1v``: its corners are the board's (see the module docstring).
    """
    if placement.tile == JOKER:
        return f"{JOKER_MARK}@{cell_to_text(placement.cell)}"
    return f"{_numbers_to_text(placement.corners)}@{cell_to_text(placement.cell)}"


def take_joker_to_text(take: TakeJoker) -> str:
    """``312@J``: the card's numbers on the joker's cell clockwise, then ``@J``."""
    return f"{_numbers_to_text(take.corners)}@{JOKER_MARK}"


def move_to_text(move: Move) -> str:
    """A placement or the taking back of the joker, as a player would type it."""
    if isinstance(move, TakeJoker):
        return take_joker_to_text(move)
    return placement_to_text(move)


def action_to_text(action: Action) -> str:
    """Any action: a move as :func:`move_to_text` writes it, another by its name."""
    if isinstance(action, Placement | TakeJoker):
        return move_to_text(action)
    name: str = action_json(action)["action"]
    return name


def position_to_text(board: Iterable[Placement]) -> str:
    """The placements of a board (or any placements) in order, separated by spaces."""
    return " ".join(map(placement_to_text, board))


# --- parsing ------------------------------------------------------------------------


class _Scanner:
    """Reads a text left to right and says where it stopped making sense."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0

    def peek(self) -> str:
        return self.text[self.at] if self.at < len(self.text) else ""

    def error(self, expected: str, at: int | None = None) -> NotationError:
        at = self.at if at is None else at
        found = repr(self.text[at]) if at < len(self.text) else "the end"
        return NotationError(f"expected {expected}, found {found}", self.text, at + 1)

    def expect(self, char: str, expected: str) -> None:
        if self.peek() != char:
            raise self.error(expected)
        self.at += 1

    def digits(self, expected: str) -> str:
        start = self.at
        while self.peek() and self.peek() in _DIGITS:
            self.at += 1
        if self.at == start:
            raise self.error(expected)
        return self.text[start : self.at]

    def integer(self, expected: str) -> int:
        sign = -1 if self.peek() == "-" else 1
        if sign < 0:
            self.at += 1
        return sign * int(self.digits(expected))

    def numbers(self) -> Corners:
        """``a-b-c`` or ``abc``."""
        start = self.at
        first = self.digits("a number")
        if self.peek() == "-":
            self.at += 1
            second = self.digits("the second number")
            self.expect("-", "'-' before the third number")
            return int(first), int(second), int(self.digits("the third number"))
        if len(first) != 3:
            raise self.error("three numbers like 0-1-2 or 012", start)
        return int(first[0]), int(first[1]), int(first[2])

    def cell(self) -> Cell:
        start = self.at
        x = self.integer("the cell's x, a whole number")
        self.expect(",", "',' between the cell's x and y")
        y = self.integer("the cell's y, a whole number")
        mark = self.peek()
        if mark not in (UP, DOWN):
            raise self.error(f"{UP!r} (up) or {DOWN!r} (down) after the cell's y")
        self.at += 1
        cell = Cell(x, y, mark == UP)
        try:
            cell.id  # noqa: B018  (checks that the cell is on the board)
        except LatticeError as error:
            raise NotationError(str(error), self.text, start + 1) from None
        return cell

    def joker(self) -> bool:
        """Whether the joker's mark comes next; if so, it is read."""
        if self.peek().upper() != JOKER_MARK:
            return False
        self.at += 1
        return True

    def move(self, board: Board | FrozenBoard | None, *, take_joker: bool = True) -> Move:
        """A placement (the joker's read against ``board``) or, if allowed, a take-joker."""
        start = self.at
        if self.joker():
            self.expect("@", "'@' between the joker and its cell")
            cell = self.cell()
            if board is None:
                raise NotationError(
                    "a joker's corners are the numbers at its cell's vertices: reading "
                    f"{self.text[start : self.at]!r} needs the board it goes on",
                    self.text,
                    start + 1,
                )
            return Placement(JOKER, cell, joker_corners(board, cell))
        corners = self.numbers()
        self.expect("@", "'@' between the numbers and the cell")
        if take_joker and self.joker():
            return TakeJoker(Tile(*corners), corners)
        return Placement(Tile(*corners), self.cell(), corners)

    def placement(self, board: Board | FrozenBoard | None) -> Placement:
        move = self.move(board, take_joker=False)
        assert isinstance(move, Placement)  # take_joker=False reads placements only
        return move

    def end(self, what: str) -> None:
        if self.at < len(self.text):
            raise self.error(f"the end of the {what}")


def joker_corners(board: Board | FrozenBoard, cell: Cell) -> Corners:
    """The joker's corners on ``cell``: the numbers at its vertices, WILD where none is."""
    a, b, c = (board.number_at(vertex) for vertex in cell.corners())
    return (
        WILD if a is None else a,
        WILD if b is None else b,
        WILD if c is None else c,
    )


def tile_from_text(text: str, tile_set: TileSet | None = None) -> Tile:
    """Parse ``0-1-2`` or ``012`` (any rotation), or ``J``; with ``tile_set``, the tile must
    be in it."""
    scanner = _Scanner(text)
    tile = JOKER if scanner.joker() else Tile(*scanner.numbers())
    scanner.end("tile")
    if tile_set is not None and tile not in tile_set:
        raise NotationError(f"{tile} is not a tile of the {tile_set.name} set", text, 1)
    return tile


def cell_from_text(text: str) -> Cell:
    """Parse ``0,0^`` or ``-1,2v``."""
    scanner = _Scanner(text)
    cell = scanner.cell()
    scanner.end("cell")
    return cell


def placement_from_text(text: str, board: Board | FrozenBoard | None = None) -> Placement:
    """Parse ``545@0,0v``: the tile is the one whose rotation the numbers are.

    ``J@0,1v`` (the joker) takes its corners from ``board``, which it then needs.
    """
    scanner = _Scanner(text)
    placement = scanner.placement(board)
    scanner.end("placement")
    return placement


def take_joker_from_text(text: str) -> TakeJoker:
    """Parse ``312@J``: the card 1-2-3 with 3, 1, 2 on the corners of the joker's cell."""
    scanner = _Scanner(text)
    corners = scanner.numbers()
    scanner.expect("@", "'@' between the numbers and the joker")
    if not scanner.joker():
        raise scanner.error(f"{JOKER_MARK!r}, the joker to take back")
    scanner.end("take-joker")
    return TakeJoker(Tile(*corners), corners)


def move_from_text(text: str, board: Board | FrozenBoard | None = None) -> Move:
    """Parse a placement (``545@0,0v``, ``J@0,1v`` against ``board``) or a take-joker
    (``312@J``)."""
    scanner = _Scanner(text)
    move = scanner.move(board)
    scanner.end("move")
    return move


def action_from_text(
    text: str, board: Board | FrozenBoard | None = None, player: int | None = None
) -> Action:
    """Parse a move (:func:`move_from_text`, against ``board``) or an action's name
    (:data:`NAMED_ACTIONS`); ``resign`` needs the ``player`` who resigns."""
    if text in NAMED_ACTIONS:
        try:
            return action_from_json({"action": text}, CLASSIC, player=player)
        except ActionFieldError as error:
            raise NotationError(error.message, text, 1) from None
    if text[:1].isalpha() and text[:1].upper() != JOKER_MARK:
        names = ", ".join(repr(name) for name in NAMED_ACTIONS)
        raise NotationError(f"expected a move like 545@0,0v or one of {names}", text, 1)
    return move_from_text(text, board)


def position_from_text(text: str, tile_set: TileSet = CLASSIC) -> Board:
    """The board made by laying the placements of ``text`` in order, each checked.

    An illegal placement is a NotationError naming its number (from 1), its column and
    the rule it breaks.
    """
    scanner = _Scanner(text)
    board = Board(tile_set)
    while scanner.peek() == " ":
        scanner.at += 1
    while scanner.peek():
        start = scanner.at
        placement = scanner.placement(board)
        try:
            board.push(placement)
        except IllegalPlacementError as error:
            raise NotationError(
                f"placement {len(board) + 1} ({text[start : scanner.at]}) is illegal: {error} "
                f"(rule {error.rule})",
                text,
                start + 1,
                rule=error.rule,
            ) from None
        if scanner.peek() not in (" ", ""):
            raise scanner.error("' ' between placements")
        while scanner.peek() == " ":
            scanner.at += 1
    return board
