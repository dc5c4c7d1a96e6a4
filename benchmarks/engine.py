"""Engine speed, as medians of several runs (``make bench``).

Prints, each on its own line:

- ``classic 2p greedy hands/s: N`` — complete greedy-versus-greedy hands of the
  2-player classic game in one process, dealing included, every move going through the
  public path (an observation for the seat, the bot's choice, ``Hand.apply``);
- ``mid-hand hand clones/s`` and ``mid-hand match clones/s`` — ``Hand.clone`` and
  ``Match.clone`` 20 actions into a match's second hand, and what one costs as a share
  of a greedy hand above;
- legal placement generation: ``Board.legal_placements`` calls per second on positions
  taken from real games, and the placements they produce per second;
- numbers for learning (:mod:`triominos.encoding`, classic, 2 players, positions from
  the middle of greedy hands): ``actions encoded/s`` (``ActionSpace.encode`` of legal
  actions), ``legal-action masks built/s`` and ``observation tensors built/s``;
- ``classic 2p greedy matches/s`` — whole matches to 400.

The machines are shared and noisy: the median of several timed runs is what counts.
``--hands N`` makes each run of the first figure a fixed amount of work, for instruction
counts: ``valgrind --tool=callgrind .venv/bin/python benchmarks/engine.py --runs 1
--hands 200 --seconds 0.1``.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable

from triominos.board import Board
from triominos.bots import GreedyBot
from triominos.encoding import ActionSpace, ObservationEncoder
from triominos.game import Deal, Hand, Match
from triominos.rules import PRESETS


def play_hand(rules_name: str, players: int, rng: random.Random) -> Hand:
    rules = PRESETS[rules_name].rules
    bot = GreedyBot()
    hand = Hand(rules, Deal.shuffle(rules, players, rng), rng=rng)
    while not hand.is_over:
        hand.apply(bot.act(hand.observe(hand.to_move)))
    return hand


def sample_hands(count: int, seed: int) -> list[Hand]:
    """Classic 2-player greedy hands stopped in the middle, 5 to 30 tiles on the table."""
    rules = PRESETS["classic-house"].rules
    rng = random.Random(seed)
    bot = GreedyBot()
    hands: list[Hand] = []
    while len(hands) < count:
        hand = Hand(rules, Deal.shuffle(rules, 2, rng))
        stop = rng.randrange(5, 30)
        while not hand.is_over and len(hand.board) < stop:
            hand.apply(bot.act(hand.observe(hand.to_move)))
        if not hand.is_over:
            hands.append(hand)
    return hands


def sample_positions(count: int, seed: int) -> list[tuple[Board, int]]:
    """(board, rack) pairs from the middle of greedy hands; each hand keeps its own board."""
    return [(hand.board, hand.racks[hand.to_move]) for hand in sample_hands(count, seed)]


def middle_of_a_match(seed: int) -> Match:
    """A classic 2-player match of greedy players in the middle of its second hand."""
    match = Match(PRESETS["classic-house"].rules, 2, seed)
    bot = GreedyBot()
    while len(match.hands) < 2 or len(match.hand.events) < 20:
        match.apply(bot.act(match.observe(match.to_move)))
    return match


def rate(work: Callable[[], int], seconds: float, units: int | None = None) -> float:
    """Units of work per second: over about ``seconds`` of repeated calls or, given
    ``units``, over the calls that do that many."""
    done = 0
    start = time.perf_counter()
    while done < units if units is not None else time.perf_counter() - start < seconds:
        done += work()
    return done / (time.perf_counter() - start)


def median_rate(
    work: Callable[[], int], runs: int, seconds: float, units: int | None = None
) -> float:
    return statistics.median(rate(work, seconds, units) for _ in range(runs))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="timed runs per figure")
    parser.add_argument("--seconds", type=float, default=2.0, help="length of a run")
    parser.add_argument(
        "--hands", type=int, help="hands in a run of the first figure, instead of --seconds"
    )
    args = parser.parse_args()
    # The interpreter's build moves these figures by a quarter (README, Speed): say which.
    interpreter = os.path.realpath(sys.executable)
    print(
        f"on {platform.python_implementation()} {platform.python_version()}, {interpreter}",
        file=sys.stderr,
    )
    play_hand("classic-house", 2, random.Random(0))  # untimed: builds the fit table
    rng = random.Random(1)

    def one_hand() -> int:
        play_hand("classic-house", 2, rng)
        return 1

    hands = median_rate(one_hand, args.runs, args.seconds, args.hands)
    print(f"classic 2p greedy hands/s: {hands:.0f}")

    middles = [middle_of_a_match(seed) for seed in range(20)]

    def clone_hands() -> int:
        for match in middles:
            match.hand.clone()
        return len(middles)

    def clone_matches() -> int:
        for match in middles:
            match.clone()
        return len(middles)

    for what, work in (("hand", clone_hands), ("match", clone_matches)):
        clones = median_rate(work, args.runs, args.seconds)
        print(
            f"mid-hand {what} clones/s: {clones:.0f} "
            f"({100 * hands / clones:.1f}% of a greedy hand each)"
        )

    positions = sample_positions(500, seed=2)

    def generate() -> int:
        for board, rack in positions:
            board.legal_placements(rack)
        return len(positions)

    calls = median_rate(generate, args.runs, args.seconds)
    per_call = sum(len(board.legal_placements(rack)) for board, rack in positions) / len(positions)
    print(f"legal placement generation calls/s: {calls:.0f}")
    print(f"legal placements generated/s: {calls * per_call:.0f} ({per_call:.1f} a call)")

    observations = [hand.observe(hand.to_move) for hand in sample_hands(500, seed=3)]
    space = ActionSpace(PRESETS["classic-house"].rules)
    encoder = ObservationEncoder(PRESETS["classic-house"].rules, 2)
    legal = [option.action for seen in observations for option in seen.legal_actions()]

    def encode_actions() -> int:
        for action in legal:
            space.encode(action)
        return len(legal)

    def build_masks() -> int:
        for seen in observations:
            space.mask(seen)
        return len(observations)

    def build_tensors() -> int:
        for seen in observations:
            encoder.encode(seen)
        return len(observations)

    print(f"actions encoded/s: {median_rate(encode_actions, args.runs, args.seconds):.0f}")
    print(f"legal-action masks built/s: {median_rate(build_masks, args.runs, args.seconds):.0f}")
    print(f"observation tensors built/s: {median_rate(build_tensors, args.runs, args.seconds):.0f}")

    def one_match() -> int:
        match = Match(PRESETS["classic-house"].rules, 2, rng.randrange(2**32))
        bot = GreedyBot()
        while not match.is_over:
            match.apply(bot.act(match.observe(match.to_move)))
        return 1

    matches = median_rate(one_match, args.runs, args.seconds)
    print(f"classic 2p greedy matches/s: {matches:.1f}")


if __name__ == "__main__":
    main()
