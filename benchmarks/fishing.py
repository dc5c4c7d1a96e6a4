"""How much the expert bot draws on purpose, and what its fishing wins or costs.

Expert (and sim, which leaves the call to draw to expert's evaluation) draws while a
tile fits whenever the evaluation prices a draw above every placement. Plays 2-player
classic hands, expert against greedy on duplicate deals (each deal twice, the seats
swapped), and prints:

- ``voluntary draws a hand: mean M, max X`` — expert's draws while a placement was legal;
- ``largest rack a hand: median M, max X`` — expert's rack at its fullest;
- ``hands ending with expert holding N+ tiles: P%, mean margin D`` — those hands, and
  expert's hand margin over greedy in them (settlement included);
- ``mean margin of the other hands: D``;
- ``mean margin: D ± E`` — expert's hand margin over greedy over all hands, with its
  standard error.

``--cap N`` measures the alternative: expert makes no voluntary draw once its rack holds
N tiles (it plays its best placement instead).

Figures are counts over seeded deals, not times: the same seed gives the same figures.
"""

from __future__ import annotations

import argparse
import statistics

from triominos.board import Placement
from triominos.bots import Bot, GreedyBot
from triominos.bots.expert import Evaluator, ExpertBot, choices, understood
from triominos.game import Action, Draw, Match, Observation
from triominos.rules import PRESETS

HAND = PRESETS["classic-house"].rules.replace(hand_limit=1)


class CappedExpert(ExpertBot):
    """Expert that stops drawing on purpose once its rack holds ``cap`` tiles."""

    def __init__(self, cap: int | None) -> None:
        super().__init__()
        self.cap = cap

    def act(self, observation: Observation) -> Action:
        options = choices(observation)
        if self.cap is None or len(options) == 1 or not understood(observation, options):
            return super().act(observation)
        ranked = Evaluator(observation).ranked(options)
        best = ranked[0][0].action
        if isinstance(best, Draw) and (observation.rack or 0).bit_count() >= self.cap:
            placements = [o.action for o, _ in ranked if isinstance(o.action, Placement)]
            if placements:
                return placements[0]
        return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--full", type=int, default=15, help="a rack this large is 'full'")
    parser.add_argument("--cap", type=int, default=None, help="no voluntary draw from N tiles")
    args = parser.parse_args()
    draws: list[int] = []
    largest: list[int] = []
    full_margins: list[int] = []
    other_margins: list[int] = []
    for deal in range(args.seed, args.seed + args.deals):
        for expert_seat in (0, 1):
            match = Match(HAND, 2, deal)
            bots: list[Bot] = [CappedExpert(args.cap), GreedyBot()]
            if expert_seat:
                bots.reverse()
            voluntary, biggest = 0, 0
            while not match.is_over:
                seat = match.to_move
                observation = match.observe(seat)
                action = bots[seat].act(observation)
                if seat == expert_seat:
                    biggest = max(biggest, (observation.rack or 0).bit_count())
                    if isinstance(action, Draw) and any(
                        isinstance(option.action, Placement)
                        for option in observation.legal_actions()
                    ):
                        voluntary += 1
                match.apply(action)
            hand = match.hand
            margin = hand.points[expert_seat] - hand.points[1 - expert_seat]
            draws.append(voluntary)
            largest.append(biggest)
            kept = hand.racks[expert_seat].bit_count()
            (full_margins if kept >= args.full else other_margins).append(margin)
    print(f"voluntary draws a hand: mean {statistics.mean(draws):.1f}, max {max(draws)}")
    print(f"largest rack a hand: median {statistics.median(largest):.0f}, max {max(largest)}")
    share = 100 * len(full_margins) / len(draws)
    mean_full = statistics.mean(full_margins) if full_margins else float("nan")
    print(
        f"hands ending with expert holding {args.full}+ tiles: {share:.0f}%, "
        f"mean margin {mean_full:+.1f}"
    )
    print(f"mean margin of the other hands: {statistics.mean(other_margins):+.1f}")
    margins = full_margins + other_margins
    error = statistics.stdev(margins) / len(margins) ** 0.5
    print(f"mean margin: {statistics.mean(margins):+.1f} ± {error:.1f}")


if __name__ == "__main__":
    main()
