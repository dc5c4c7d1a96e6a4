"""``triominos ladder``: every level against every other on duplicate deals, rated in Elo.

The games are the arena's (:mod:`triominos.arena`), one 2-player pairing at a time, every
pairing on the same seeds; the ratings are :func:`triominos.arena.ladder`'s. The table is
printed in Markdown, to go into the README as it is.
"""

from __future__ import annotations

import time
from itertools import combinations

import click

from triominos.arena import (
    ARENA_BOTS,
    LADDER_RESAMPLES,
    VIRTUAL_DRAW,
    ArenaConfig,
    Rung,
    pair_scores,
    play_games,
)
from triominos.arena import ladder as rate
from triominos.bots import BOTS
from triominos.bots.spec import SETTINGS_EXAMPLE, AgentError
from triominos.cli.arena import parse_budget
from triominos.cli.main import (
    hands_option,
    main,
    match_rules,
    parse_bots,
    preset_option,
    progress_bar,
    rule_options,
    seed_option,
    seed_or_random,
    stop,
    think_option,
)
from triominos.cli.workers import ray_option
from triominos.cluster import ClusterError


def ladder_table(rungs: list[Rung]) -> list[str]:
    """The ladder in Markdown, strongest first."""
    lines = ["| bot | Elo | 95% CI | score % |", "|---|---:|---:|---:|"]
    for rung in sorted(rungs, key=lambda rung: -rung.elo):
        low, high = rung.interval
        lines.append(
            f"| {rung.bot} | {rung.elo:+.0f} | {low:+.0f} to {high:+.0f} | {100 * rung.score:.1f} |"
        )
    return lines


@main.command()
@preset_option
@click.option(
    "--bots",
    default=",".join(BOTS),
    show_default=True,
    help=f"The bots of the round robin, comma-separated ({', '.join(ARENA_BOTS)}). "
    f"A bot may change its settings: {SETTINGS_EXAMPLE}.",
)
@click.option(
    "--pairs",
    type=click.IntRange(min=1),
    default=100,
    show_default=True,
    help="Duplicate pairs (one deal, seats swapped) for each pairing of two bots.",
)
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True)
@ray_option
@think_option(
    "What a searching bot may spend a move; in simulations (600sims) for ratings "
    "that do not depend on the machine."
)
@hands_option
@seed_option("Seed of the first pair; every pairing plays the same seeds (random if omitted).")
@rule_options
def ladder(
    preset: str,
    bots: str,
    pairs: int,
    jobs: int,
    ray: str | None,
    think: str,
    hands: bool,
    seed: int | None,
    target: int | None,
    rule: tuple[str, ...],
) -> None:
    """A round robin of 2-player matches between bots, rated in Elo with 95% intervals.

    Every two bots play the same duplicate deals; the ratings (the first bot at 0) are
    Bradley-Terry by maximum likelihood over all pairings.
    """
    names = list(dict.fromkeys(parse_bots(bots, None, ARENA_BOTS, settings=True)))
    if len(names) < 2:
        raise click.BadParameter("a ladder needs at least two different bots", param_hint="--bots")
    budget = parse_budget(think)
    rules = match_rules(preset, target, rule, 2)
    first_seed = seed_or_random(seed)
    pairings = list(combinations(range(len(names)), 2))
    progress = progress_bar()
    task = progress.add_task("matches", total=len(pairings) * pairs * 2)
    scores: dict[tuple[int, int], list[float]] = {}
    start = time.perf_counter()
    try:
        with progress:
            for i, j in pairings:
                config = ArenaConfig(rules, (names[i], names[j]), budget, pairs, first_seed, hands)
                results = list(
                    play_games(config, jobs=jobs, ray=ray, on_done=lambda _: progress.advance(task))
                )
                scores[i, j] = pair_scores(results)
    except KeyboardInterrupt:
        raise click.Abort() from None
    except (AgentError, ClusterError) as error:
        stop(click.get_current_context(), str(error))
    elapsed = time.perf_counter() - start
    kind = "hands" if hands else "matches"
    click.echo(
        f"{preset} {kind}, 2 players: {len(pairings)} pairings x {pairs} duplicate pairs, "
        f"seeds {first_seed} to {first_seed + pairs - 1}, think {budget}"
    )
    click.echo()
    for line in ladder_table(rate(names, scores)):
        click.echo(line)
    click.echo()
    click.echo(
        f"Elo: Bradley-Terry over every pair (one deal, seats swapped), {names[0]} at 0, "
        f"{VIRTUAL_DRAW:g} drawn pair added to each pairing; 95% CI: percentile bootstrap of "
        f"the pairs ({LADDER_RESAMPLES} resamples); score: mean win share"
    )
    click.echo(f"time: {elapsed:.1f} s, {len(pairings) * pairs * 2} {kind}")
