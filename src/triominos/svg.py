"""Pictures of the table as SVG, for the README, the web app and notebooks.

Every function here is pure: it takes a board or a tile and returns a standalone SVG
document as a string (an :class:`SvgDocument`, which a Jupyter notebook shows as a
picture). Nothing is read from or written to disk, and only the standard library is
used, so the pictures can be made anywhere the engine runs.

The drawing imitates a real Triominos tile: an ivory equilateral triangle with rounded
corners, each of its three numbers written near its corner and turned so that it reads
upright when that corner points away from the reader, as the numbers are printed on the
real tiles. Numbers have a colour each, so that equal numbers meeting at a vertex are
easy to see.

Triominos Junior's cards are drawn as the real ones are printed: each corner on a patch
of its symbol's colour (:data:`CARD_COLORS`, "red next to red"), so that six patches of
one colour make a flower around a vertex. The joker is a pale card with a gold star and
a ``J``; each of its corners shows the number that the cards around it show at that
vertex, or ``*`` where no card touches it (a free corner, which takes any number).

Geometry: a lattice vertex ``(x, y)`` sits in the plane at ``(x + y/2, y * sqrt(3)/2)``
(RECORD.md), with y growing upwards. One unit of the plane is :data:`EDGE` user units of
the SVG, and y is flipped because SVG y grows downwards. :func:`cell_points` is the only
place where lattice coordinates become picture coordinates.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Sequence

from triominos.board import Board
from triominos.lattice import ORIGIN, Cell
from triominos.tiles import JOKER, Tile, TileSet

Point = tuple[float, float]
"""A point of the picture, in SVG user units (y grows downwards)."""

EDGE = 60.0
"""The length of a tile's edge in SVG user units (pixels when the picture is unscaled)."""

MARGIN = 0.3 * EDGE
"""Room around the outermost tiles, so their outlines are not cut by the frame."""

TILE_MARGIN = 0.04 * EDGE
"""Room around a tile drawn alone: just enough for its outline."""

TILE_GAP = 0.035 * EDGE
"""How far each tile's outline is drawn inside its cell, so neighbours show a seam."""

NUMBER_SIZE = 0.22 * EDGE
NUMBER_INSET = 0.56
"""Where a number sits on the way from its corner to the tile's centre (0 to 1)."""
COORDINATE_SIZE = 0.11 * EDGE

TABLE_COLOR = "#2f6b4f"
FACE_COLOR = "#fbf6e8"
OUTLINE_COLOR = "#6b5f4b"
LAST_COLOR = "#ffc21a"
HIGHLIGHT_COLOR = "#ffe680"
COORDINATE_COLOR = "#8c8272"
NUMBER_COLORS = ("#333333", "#c92a2a", "#2b8a3e", "#1864ab", "#d9480f", "#862e9c")
"""The colour of each number (0 to 5), cycling for sets with more symbols."""

CARD_COLORS: dict[int, str] = {
    1: "#e03131",
    2: "#f08c00",
    3: "#1971c2",
    4: "#2f9e44",
    5: "#9c36b5",
}
"""Triominos Junior: the colour of each symbol (1 to 5), the same on every card and in
the text board: red, orange-yellow, blue, green, purple."""
CARD_NUMBER_COLOR = "#ffffff"
CARD_NUMBER_OUTLINE = "#212529"
JOKER_FACE_COLOR = "#fff9db"
JOKER_COLOR = "#f59f00"
"""The joker's star (and its ``J`` in the text board)."""
FREE_COLOR = "#868e96"
FREE_MARK = "*"
"""What a joker's free corner shows: it takes any number."""

FONT_FAMILY = "DejaVu Sans, Verdana, Helvetica, Arial, sans-serif"

SVG_NAMESPACE = "http://www.w3.org/2000/svg"


class SvgDocument(str):
    """An SVG document as a string that a Jupyter notebook displays as a picture."""

    __slots__ = ()

    def _repr_svg_(self) -> str:
        return str(self)


# --- geometry -----------------------------------------------------------------------


def cell_points(cell: Cell) -> tuple[Point, Point, Point]:
    """The picture points of a cell's corners, clockwise from the leftmost (RECORD.md).

    This is the one place where the lattice meets the picture: a plane point ``(px, py)``
    is drawn at ``(px * EDGE, -py * EDGE)``, since SVG y grows downwards.
    """
    left, middle, right = (vertex.point() for vertex in cell.corners())
    return (
        (left[0] * EDGE, -left[1] * EDGE),
        (middle[0] * EDGE, -middle[1] * EDGE),
        (right[0] * EDGE, -right[1] * EDGE),
    )


def _centre(points: Sequence[Point]) -> Point:
    return (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))


def _toward(start: Point, end: Point, fraction: float) -> Point:
    """The point ``fraction`` of the way from ``start`` to ``end``."""
    return (start[0] + (end[0] - start[0]) * fraction, start[1] + (end[1] - start[1]) * fraction)


def _inset(points: Sequence[Point], gap: float) -> list[Point]:
    """An equilateral triangle shrunk about its centre so each edge moves in by ``gap``."""
    centre = _centre(points)
    inradius = math.dist(points[0], points[1]) / (2 * math.sqrt(3))
    scale = (inradius - gap) / inradius
    return [_toward(centre, point, scale) for point in points]


def _upright_angle(centre: Point, corner: Point) -> float:
    """The rotation (degrees, clockwise) that makes text read upright toward ``corner``."""
    angle = math.degrees(math.atan2(corner[1] - centre[1], corner[0] - centre[0])) + 90
    return (angle + 180) % 360 - 180


def _star(centre: Point, outer: float, inner: float) -> list[Point]:
    """A five-pointed star around ``centre``, one point straight up."""
    points = []
    for index in range(10):
        radius = outer if index % 2 == 0 else inner
        angle = math.pi / 5 * index - math.pi / 2
        points.append((centre[0] + radius * math.cos(angle), centre[1] + radius * math.sin(angle)))
    return points


def _fmt(value: float) -> str:
    """A coordinate written short: two decimals at most, no trailing zeros, no ``-0``."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _points_attribute(points: Iterable[Point]) -> str:
    return " ".join(f"{_fmt(x)},{_fmt(y)}" for x, y in points)


# --- drawing ------------------------------------------------------------------------


def _svg_root(corners: Iterable[Point], size: int | None, margin: float) -> ET.Element:
    """An <svg> element whose viewBox fits ``corners`` with ``margin`` around them.

    ``size`` is the longer side of the picture in pixels; without it one user unit is
    one pixel, so a tile's edge is EDGE pixels long.
    """
    points = list(corners)
    left = min(x for x, _ in points) - margin
    top = min(y for _, y in points) - margin
    width = max(x for x, _ in points) + margin - left
    height = max(y for _, y in points) + margin - top
    scale = 1.0 if size is None else size / max(width, height)
    return ET.Element(
        "svg",
        {
            "xmlns": SVG_NAMESPACE,
            "version": "1.1",
            "viewBox": " ".join(_fmt(v) for v in (left, top, width, height)),
            "width": _fmt(round(width * scale)),
            "height": _fmt(round(height * scale)),
            "font-family": FONT_FAMILY,
            "text-anchor": "middle",
        },
    )


def uses_cards(tile_set: TileSet) -> bool:
    """Whether the set's pieces are Junior cards, drawn with coloured symbols."""
    return tile_set.name == "junior"


def _draw_tile(
    parent: ET.Element,
    cell: Cell,
    numbers: Sequence[int | None],
    *,
    title: str,
    cards: bool = False,
    joker: bool = False,
    last: bool = False,
    coordinates: bool = False,
) -> None:
    """A tile on ``cell``: its face, its three numbers near their corners, its label.

    ``numbers`` are read clockwise from the leftmost corner; None is a joker's free
    corner. ``cards`` draws Junior cards (a coloured patch under each number), ``joker``
    the joker's face.
    """
    points = cell_points(cell)
    centre = _centre(points)
    stroke = 0.07 * EDGE if last else 0.035 * EDGE
    group = ET.SubElement(parent, "g", {"class": "tile joker" if joker else "tile"})
    ET.SubElement(group, "title").text = title
    ET.SubElement(
        group,
        "polygon",
        {
            "class": "tile last" if last else "tile",
            "points": _points_attribute(_inset(points, TILE_GAP)),
            "fill": JOKER_FACE_COLOR if joker else FACE_COLOR,
            "stroke": LAST_COLOR if last else OUTLINE_COLOR,
            "stroke-width": _fmt(stroke),
            "stroke-linejoin": "round",
        },
    )
    if cards:
        # Inside the outline's inner half, so the outline stays whole.
        face = _inset(points, TILE_GAP + stroke / 2)
        for index, number in enumerate(numbers):
            if number is not None:
                # The joker's patches are smaller: its own pale face stays in sight.
                color = CARD_COLORS.get(number, FACE_COLOR)
                _draw_patch(group, face, index, color, reach=0.62 if joker else 1.0)
    apex = points[1] if cell.up else points[2]
    if joker:
        _draw_joker_star(group, centre)
    for corner, number in zip(points, numbers, strict=True):
        _draw_number(group, corner, centre, number, cards=cards)
    if coordinates:
        # Nudged toward the apex, where the tile is widest between its numbers; on a
        # joker, whose star is there, toward the base.
        x, y = _toward(centre, apex, -0.36 if joker else 0.1)
        attributes = {
            "class": "coordinates",
            "x": _fmt(x),
            "y": _fmt(y + COORDINATE_SIZE * 0.36),
            "font-size": _fmt(COORDINATE_SIZE),
            "fill": COORDINATE_COLOR,
        }
        if cards:  # on the coloured patches: dark, with a pale halo
            attributes |= _outlined(CARD_NUMBER_OUTLINE, FACE_COLOR, 0.03 * EDGE)
        label = ET.SubElement(group, "text", attributes)
        label.text = cell_caption(cell)


def _outlined(fill: str, outline: str, width: float) -> dict[str, str]:
    """Text attributes for a glyph drawn over a halo of ``outline``, readable on any patch."""
    return {
        "fill": fill,
        "stroke": outline,
        "stroke-width": _fmt(width),
        "stroke-linejoin": "round",
        "paint-order": "stroke",
    }


def _draw_number(
    group: ET.Element, corner: Point, centre: Point, number: int | None, *, cards: bool
) -> None:
    """A corner's number, upright toward the corner; ``*`` for a free corner."""
    x, y = _toward(corner, centre, NUMBER_INSET)
    attributes = {
        "class": "number" if number is not None else "number free",
        "x": _fmt(x),
        # The text's baseline sits a third of the font size below the point, so the
        # glyph is centred on it in every renderer (dominant-baseline is not universal).
        "y": _fmt(y + NUMBER_SIZE * 0.36),
        "transform": f"rotate({_fmt(_upright_angle(centre, corner))} {_fmt(x)} {_fmt(y)})",
        "font-size": _fmt(NUMBER_SIZE),
        "font-weight": "bold",
    }
    if number is None:
        attributes["fill"] = FREE_COLOR
    elif cards:
        attributes |= _outlined(CARD_NUMBER_COLOR, CARD_NUMBER_OUTLINE, 0.04 * EDGE)
    else:
        attributes["fill"] = NUMBER_COLORS[number % len(NUMBER_COLORS)]
    text = ET.SubElement(group, "text", attributes)
    text.text = FREE_MARK if number is None else str(number)


def _draw_patch(
    group: ET.Element, face: Sequence[Point], index: int, color: str, *, reach: float = 1.0
) -> None:
    """The coloured third of a card around corner ``index``: a kite from the corner to
    the middles of its two edges and the centre, shrunk toward the corner by ``reach``."""
    corner, following, previous = face[index], face[(index + 1) % 3], face[(index + 2) % 3]
    kite = [
        _toward(corner, point, reach)
        for point in (corner, _toward(corner, following, 0.5), _centre(face))
    ]
    kite.append(_toward(corner, _toward(corner, previous, 0.5), reach))
    ET.SubElement(
        group,
        "polygon",
        {
            "class": "patch",
            "points": _points_attribute(kite),
            "fill": color,
            "stroke": color,
            "stroke-width": _fmt(0.01 * EDGE),
            "stroke-linejoin": "round",
        },
    )


def _draw_joker_star(group: ET.Element, centre: Point) -> None:
    """The joker's mark: a gold star with a ``J`` on it."""
    ET.SubElement(
        group,
        "polygon",
        {
            "class": "joker",
            "points": _points_attribute(_star(centre, 0.15 * EDGE, 0.068 * EDGE)),
            "fill": JOKER_COLOR,
            "stroke": CARD_NUMBER_OUTLINE,
            "stroke-width": _fmt(0.012 * EDGE),
            "stroke-linejoin": "round",
        },
    )
    size = 0.13 * EDGE
    mark = ET.SubElement(
        group,
        "text",
        {
            "class": "joker-mark",
            "x": _fmt(centre[0]),
            "y": _fmt(centre[1] + size * 0.42),
            "font-size": _fmt(size),
            "font-weight": "bold",
            **_outlined(CARD_NUMBER_COLOR, CARD_NUMBER_OUTLINE, 0.03 * EDGE),
        },
    )
    mark.text = "J"


def _draw_highlight(parent: ET.Element, cell: Cell) -> None:
    """A dashed outline of an empty cell, such as a legal destination."""
    ET.SubElement(
        parent,
        "polygon",
        {
            "class": "highlight",
            "points": _points_attribute(_inset(cell_points(cell), TILE_GAP)),
            "fill": HIGHLIGHT_COLOR,
            "fill-opacity": "0.15",
            "stroke": HIGHLIGHT_COLOR,
            "stroke-width": _fmt(0.035 * EDGE),
            "stroke-dasharray": f"{_fmt(0.1 * EDGE)} {_fmt(0.06 * EDGE)}",
            "stroke-linejoin": "round",
        },
    )


def _document(root: ET.Element) -> SvgDocument:
    return SvgDocument(ET.tostring(root, encoding="unicode"))


def cell_caption(cell: Cell) -> str:
    """A cell as written in the middle of a tile: ``0,0▲`` points up, ``0,0▼`` down."""
    return f"{cell.x},{cell.y}{'▲' if cell.up else '▼'}"


# --- the public pictures ------------------------------------------------------------


def board_svg(
    board: Board,
    *,
    coordinates: bool = False,
    last: bool = True,
    highlight: Iterable[Cell] = (),
    size: int | None = None,
) -> SvgDocument:
    """The table as a standalone SVG document.

    :param coordinates: write each tile's cell (``x,y▲`` or ``x,y▼``) small in its middle,
        so a reader can name where a tile lies.
    :param last: outline the tile laid last, so a viewer sees what just happened.
    :param highlight: cells to outline dashed, such as the legal destinations of the
        player to move.
    :param size: the longer side of the picture in pixels; by default a tile's edge is
        EDGE pixels long.

    The viewBox fits the tiles and the highlighted cells; an empty table is drawn
    around the origin, where the first tile will go.
    """
    placements = list(board)
    marked = list(highlight)
    cells = [placement.cell for placement in placements] + marked
    corners = [point for cell in cells or [ORIGIN] for point in cell_points(cell)]
    root = _svg_root(corners, size, MARGIN)
    x, y, width, height = root.attrib["viewBox"].split()
    ET.SubElement(
        root,
        "rect",
        {"class": "table", "x": x, "y": y, "width": width, "height": height, "fill": TABLE_COLOR},
    )
    cards = uses_cards(board.tile_set)
    for index, placement in enumerate(placements):
        joker = placement.tile == JOKER
        numbers = (
            [board.number_at(vertex) for vertex in placement.cell.corners()]
            if joker  # what the cards around show at its corners, or nothing yet
            else placement.corners
        )
        _draw_tile(
            root,
            placement.cell,
            numbers,
            title=f"{placement.tile} on {_cell_words(placement.cell)}",
            cards=cards,
            joker=joker,
            last=last and index == len(placements) - 1,
            coordinates=coordinates,
        )
    for cell in marked:
        _draw_highlight(root, cell)
    return _document(root)


def tile_svg(tile: Tile, *, size: int = 60, tile_set: TileSet | None = None) -> SvgDocument:
    """A single tile pointing up, its numbers clockwise from the lower left, ``size`` wide.

    A tile of a card set (``tile_set``, Triominos Junior) is drawn as a card; the joker
    alone has three free corners.
    """
    root = _svg_root(cell_points(ORIGIN), size, TILE_MARGIN)
    joker = tile == JOKER
    cards = joker or (tile_set is not None and uses_cards(tile_set))
    numbers = (None, None, None) if joker else tile.numbers
    _draw_tile(root, ORIGIN, numbers, title=tile.name, cards=cards, joker=joker)
    return _document(root)


def _cell_words(cell: Cell) -> str:
    return f"{cell.x},{cell.y} {cell.orientation}"
