"""How far from the origin real hands reach: the measure behind ``encoding.RADIUS``.

For every preset, with random and greedy bots, at 2 players and at the preset's most,
plays ``--hands`` hands and prints the largest *extent* seen and how often each extent
came: the largest ``|x|`` or ``|y|`` of a corner of a tile on the table or of an open
cell (where the next tile may go), over every position of the hand. The action window
and the tensor cover the extents up to ``RADIUS``.
"""

from __future__ import annotations

import argparse
import random
from collections import Counter

from triominos.bots import make_bot
from triominos.encoding import RADIUS
from triominos.game import Deal, Hand
from triominos.lattice import Cell
from triominos.rules import PRESETS


def extent(cells: list[Cell]) -> int:
    return max(max(abs(v.x), abs(v.y)) for cell in cells for v in cell.corners())


def hand_extent(preset: str, bot: str, players: int, rng: random.Random) -> int:
    rules = PRESETS[preset].rules
    bots = [make_bot(bot, seed=rng.randrange(2**32)) for _ in range(players)]
    hand = Hand(rules, Deal.shuffle(rules, players, rng), rng=rng)
    farthest = 0
    while not hand.is_over:
        hand.apply(bots[hand.to_move].act(hand.observe(hand.to_move)))
        cells = [placement.cell for placement in hand.board] + hand.board.open_cells()
        farthest = max(farthest, extent(cells))
    return farthest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000, help="hands per line")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    largest = 0
    for name, preset in PRESETS.items():
        for bot in ("random", "greedy"):
            for players in sorted({preset.rules.min_players, preset.rules.max_players}):
                seen = Counter(hand_extent(name, bot, players, rng) for _ in range(args.hands))
                largest = max(largest, max(seen))
                spread = " ".join(f"{e}:{n}" for e, n in sorted(seen.items()))
                print(f"{name} {bot} {players}p largest extent: {max(seen)} ({spread})", flush=True)
    print(f"largest extent: {largest} (RADIUS {RADIUS})")


if __name__ == "__main__":
    main()
