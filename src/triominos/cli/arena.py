"""``triominos arena``: a bot tournament on duplicate deals, with intervals and ratings.

The arena itself (schedule, processes, statistics) is :mod:`triominos.arena`; this
module reads the options, shows the progress and prints the table.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import click
from rich import box
from rich.console import Console
from rich.table import Table

from triominos.arena import (
    ARENA_BOTS,
    BOOTSTRAP_RESAMPLES,
    ArenaConfig,
    EntryStats,
    GameResult,
    Sprt,
    SprtResult,
    play_games,
    play_sprt,
)
from triominos.arena import summarize as summarize_results
from triominos.bots import Budget
from triominos.bots.spec import AgentError
from triominos.cli.main import (
    bots_option,
    hands_option,
    main,
    match_rules,
    out_option,
    parse_bots,
    players_option,
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
from triominos.record import write_records


def parse_budget(value: str) -> Budget:
    """``--think``: a budget per move, or a usage error that says how to write one."""
    try:
        return Budget.parse(value)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--think") from None


def results_table(stats: Sequence[EntryStats]) -> Table:
    """A row per entry; each rate and mean followed by its 95% interval."""
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    for header in ("bot", "wins", "win %", "95% CI", "margin", "95% CI", "rating", "ms/move"):
        table.add_column(header, justify="left" if header == "bot" else "right")
    for entry in stats:
        (win_low, win_high), (margin_low, margin_high) = entry.win_interval, entry.margin_interval
        table.add_row(
            entry.label,
            f"{round(entry.wins, 2):g}",
            f"{100 * entry.win_rate:.1f}",
            f"{100 * win_low:.1f}-{100 * win_high:.1f}",
            f"{entry.margin:+.1f}",
            f"{margin_low:+.0f} {margin_high:+.0f}",
            f"{entry.rating:.1f}±{entry.rating_sigma:.1f}",
            f"{1000 * entry.seconds_per_move:.1f}",
        )
    return table


def parse_sprt(value: str, alpha: float, beta: float, players: int) -> Sprt:
    """``--sprt ELO0,ELO1`` with ``--alpha`` and ``--beta``, or a usage error naming the option."""
    if players != 2:
        raise click.BadParameter(
            f"a sequential test compares two bots head to head: 2 players, not {players}",
            param_hint="--players",
        )
    low, comma, high = value.partition(",")
    try:
        if not comma:
            raise ValueError
        bounds = float(low), float(high)
    except ValueError:
        raise click.BadParameter(
            f"give two Elo differences ELO0,ELO1, like 0,10, not {value!r}", param_hint="--sprt"
        ) from None
    try:
        return Sprt(*bounds, alpha=alpha, beta=beta)
    except ValueError as error:
        raise click.BadParameter(str(error)) from None


def run_sprt(config: ArenaConfig, test: Sprt, jobs: int, ray: str | None) -> None:
    """Play pairs until the test decides (or the matches run out) and say where it stopped."""
    progress = progress_bar()
    task = progress.add_task("matches", total=config.groups * config.players)
    start = time.perf_counter()
    try:
        with progress:
            result, games = play_sprt(
                config, test, jobs=jobs, ray=ray, on_done=lambda _: progress.advance(task)
            )
    except KeyboardInterrupt:
        raise click.Abort() from None
    except (AgentError, ClusterError) as error:
        stop(click.get_current_context(), str(error))
    elapsed = time.perf_counter() - start
    first, second = config.labels
    click.echo(
        f"SPRT {first} against {second}: H0 Elo {test.elo0:g}, H1 Elo {test.elo1:g}, "
        f"alpha {test.alpha:g}, beta {test.beta:g}, think {config.budget}, "
        f"seeds from {config.seed}"
    )
    for line in sprt_lines(result):
        click.echo(line)
    click.echo(f"time: {elapsed:.1f} s, {len(games)} matches")


def sprt_lines(result: SprtResult) -> list[str]:
    """The test's figures and its verdict, a line each."""
    estimate = result.estimate
    low, high = estimate.interval
    verdict = {
        "H1": "H1 accepted: the difference is ELO1 (or more) rather than ELO0",
        "H0": "H0 accepted: the difference is ELO0 (or less) rather than ELO1",
        None: "undecided: the matches ran out before the test could decide (raise --matches)",
    }[result.decision]
    return [
        f"LLR {result.llr:.2f} (bounds {result.lower:.2f}, {result.upper:.2f})",
        f"Elo {estimate.elo:+.1f} (95% CI {low:+.1f} to {high:+.1f}), "
        f"score {100 * estimate.score:.1f}%, {estimate.pairs} pairs",
        verdict,
    ]


@main.command()
@preset_option
@players_option
@bots_option("greedy,sim", ARENA_BOTS, settings=True)
@click.option(
    "--matches",
    type=click.IntRange(min=1),
    default=100,
    show_default=True,
    help="Matches to play, rounded up to whole duplicate groups (one per seating); "
    "with --sprt, the most to play.",
)
@click.option(
    "--sprt",
    default=None,
    metavar="ELO0,ELO1",
    help="Play duplicate pairs until a sequential test accepts H0 (the first bot is ELO0 "
    "Elo stronger than the second) or H1 (ELO1 stronger); 2 players.",
)
@click.option(
    "--alpha",
    type=float,
    default=0.05,
    show_default=True,
    help="With --sprt: the chance of accepting H1 when H0 holds.",
)
@click.option(
    "--beta",
    type=float,
    default=0.05,
    show_default=True,
    help="With --sprt: the chance of accepting H0 when H1 holds.",
)
@click.option(
    "--jobs",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Processes playing at once.",
)
@ray_option
@think_option(
    "What a searching bot (sim) may spend a move: 1s, 250ms or 600sims "
    "(simulations: the same seed then gives the same games)."
)
@hands_option
@seed_option("Seed of the first deal group; group g uses seed + g (random if omitted).")
@rule_options
@out_option("Save every match's record to FILE.jsonl, each player named after its bot.")
def arena(
    preset: str,
    players: int,
    bots: str,
    matches: int,
    sprt: str | None,
    alpha: float,
    beta: float,
    jobs: int,
    ray: str | None,
    think: str,
    hands: bool,
    seed: int | None,
    target: int | None,
    rule: tuple[str, ...],
    out: Path | None,
) -> None:
    """Bots play duplicate deals: win rates with 95% intervals, margins and ratings.

    Each deal group is one seed played once per seating, the bots rotated one seat on
    each time, so every bot plays every seat's cards and the luck of the deal cancels.
    """
    entries = parse_bots(bots, players, ARENA_BOTS, settings=True)
    budget = parse_budget(think)
    test = None if sprt is None else parse_sprt(sprt, alpha, beta, players)
    if out is not None and not out.parent.is_dir():
        raise click.BadParameter(
            f"no directory {str(out.parent)!r} to write in", param_hint="--out"
        )
    rules = match_rules(preset, target, rule, players)
    groups = math.ceil(matches / players)
    first_seed = seed_or_random(seed)
    config = ArenaConfig(rules, tuple(entries), budget, groups, first_seed, hands)
    if test is not None:
        run_sprt(config, test, jobs, ray)
        return
    games = groups * players
    console = Console(highlight=False)
    progress = progress_bar()
    task = progress.add_task("hands" if hands else "matches", total=games)
    results: list[GameResult] = []

    def played() -> Iterator[GameResult]:
        """The results in schedule order, kept (without their records) for the table."""
        for result in play_games(
            config,
            jobs=jobs,
            ray=ray,
            keep_records=out is not None,
            on_done=lambda _: progress.advance(task),
        ):
            results.append(result.without_record())
            yield result

    start = time.perf_counter()
    try:
        with progress:
            if out is None:
                for _result in played():
                    pass
            else:
                try:
                    write_records(out, (result.record or {} for result in played()))
                except OSError as error:
                    raise click.FileError(str(out), hint=error.strerror) from None
    except KeyboardInterrupt:
        raise click.Abort() from None
    except (AgentError, ClusterError) as error:
        stop(click.get_current_context(), str(error))
    elapsed = time.perf_counter() - start
    kind = "hands" if hands else "matches"
    click.echo(
        f"{games} {preset} {kind}, {players} players: {groups} deal groups x {players} "
        f"seatings, seeds {first_seed} to {first_seed + groups - 1}, think {budget}"
    )
    table = results_table(summarize_results(config, results))
    # As wide as the table needs (a bot with settings has a long name), never squeezed.
    wide = console.options.update_width(10_000)
    console.width = max(console.width, console.measure(table, options=wide).maximum)
    console.print(table)
    notes = (
        f"win %: of the {games} {kind}, a win shared by k seats counting 1/k; a bot no "
        f"better than the others wins {100 / players:.1f}%",
        "margin: the bot's total less the mean of the other seats' totals",
        f"95% CI: percentile bootstrap over the {groups} deal groups "
        f"({BOOTSTRAP_RESAMPLES} resamples)",
        "rating: openskill (Plackett-Luce) mu±sigma over every finishing order",
    )
    for note in notes:
        click.echo(note)
    click.echo(f"time: {elapsed:.1f} s, {games / elapsed:.2f} {kind}/s")
    if out is not None:
        click.echo(f"records: {games} {kind} written to {out}")
