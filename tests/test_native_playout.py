"""sim's playouts on the native core against the Python ones, value for value.

Positions come from seeded matches of greedy and random players, several hands deep (so
that totals near the target, going out and blocked hands all come up). In each, the sim
bot's simulation is set up on both cores (``native.running_on``) and every candidate is
played out in the same sampled worlds, to the next turn and to the end of the hand: the
values must be the same floats, and the boards must be left the same. Every preset
at every player count it allows, every rule option at another value
(tests/rule_values.py) and every choice of every choice option, all read from
:mod:`triominos.rules`. Junior's candidates include draws, passes and jokers taken
back.
"""

from __future__ import annotations

import importlib
import itertools
import random

import pytest

from native_cores import needs_native, positions, state
from rule_values import changed_rules
from triominos import native
from triominos.bots import sim
from triominos.bots.base import Budget
from triominos.bots.expert import choices, evaluated
from triominos.bots.sampler import World
from triominos.bots.sim import (
    CANDIDATES,
    CandidateValue,
    Horizon,
    Planned,
    SimBot,
    junior_candidates,
    shortlist,
)
from triominos.game import Action, Event, Hand, Observation, TakeJoker
from triominos.native import running_on
from triominos.rules import OPTIONS, PRESETS, RuleOptionError, Rules

pytestmark = needs_native

POSITIONS = 4
WORLDS = 6


def planned(
    observation: Observation, core: str, horizon: Horizon, read_choices: int = 0
) -> Planned | None:
    """sim's simulation of the position on ``core`` and its candidates, whatever sim
    would play without simulating (a draw, the only action); None where it cannot
    simulate (the opening, a Junior playout to the next turn)."""
    bot = SimBot(0, horizon=horizon, closing=None, read_choices=read_choices)
    options = choices(observation)
    with running_on(core):
        if not evaluated(observation.rules):
            junior = bot.junior_simulation(observation)
            return Planned(junior, junior_candidates(options)) if horizon == "hand" else None
        simulation = bot.simulation(observation, options)
        if simulation is None:
            return None
        candidates = shortlist(observation, simulation.evaluator.ranked(options), CANDIDATES)
    return Planned(simulation, candidates) if candidates else None


def played(plan: Planned, core: str, worlds: list[World]) -> tuple[list[float], object]:
    """The playouts' values, and the board they leave (popped back: its cells as before,
    their dicts' order as pops leave it)."""
    with running_on(core):
        found = [
            plan.simulation.play_out(world, option.action)
            for world in worlds
            for option, _ in plan.candidates
        ]
    return found, state(plan.simulation.board)


def same_playouts(rules: Rules, players: int, seed: int) -> int:
    """Compare every playout of :data:`POSITIONS` positions that sim simulates; how many
    playouts were compared."""
    compared = simulated = 0
    for number, observation in enumerate(positions(rules, players, seed)):
        if simulated == POSITIONS:
            break
        simulated += planned(observation, "python", "hand") is not None
        for horizon in ("turn", "hand"):
            python = planned(observation, "python", horizon)
            ours = planned(observation, "native", horizon)
            if python is None or ours is None:
                assert python is None and ours is None
                continue
            assert ours.candidates == python.candidates
            assert ours.simulation._native is not None
            assert python.simulation._native is None
            rng = random.Random(f"{seed}/{number}")
            worlds = [python.simulation.sampler.sample(rng) for _ in range(WORLDS)]
            assert played(ours, "native", worlds) == played(python, "python", worlds)
            compared += len(worlds) * len(ours.candidates)
    return compared


PLAYER_COUNTS = [
    (name, players)
    for name, preset in PRESETS.items()
    for players in range(preset.rules.min_players, preset.rules.max_players + 1)
]


@pytest.mark.parametrize(("preset", "players"), PLAYER_COUNTS)
def test_playouts_are_the_same_on_both_cores(preset: str, players: int) -> None:
    rules = PRESETS[preset].rules
    assert sum(same_playouts(rules, players, seed) for seed in range(2)) > 0


def every_choice() -> list[tuple[str, object]]:
    return [
        (option.name, choice)
        for option in OPTIONS.values()
        if option.kind == "choice"
        for choice in option.choices
    ]


def with_value(name: str, value: object) -> Rules | None:
    """The first preset that takes ``value`` for option ``name``, changed so."""
    for preset in PRESETS.values():
        try:
            return preset.rules.replace(**{name: value})
        except RuleOptionError:
            continue
    return None


@pytest.mark.parametrize("option", list(OPTIONS))
def test_every_rule_option_plays_out_the_same_on_both_cores(option: str) -> None:
    rules = changed_rules(option)
    assert same_playouts(rules, rules.min_players, 21) > 0


@pytest.mark.parametrize(("option", "choice"), every_choice())
def test_every_choice_plays_out_the_same_on_both_cores(option: str, choice: object) -> None:
    rules = with_value(option, choice)
    if rules is None:
        pytest.skip(f"no preset takes {option}={choice!r} alone")
    assert same_playouts(rules, max(rules.min_players, 3), 31) > 0


def test_candidates_other_than_placements_are_compared_too() -> None:
    """Junior's draws, passes and jokers taken back are candidates too: the tests above
    compare their playouts; and the switch chooses the playout's core."""
    rules = PRESETS["junior"].rules
    kinds = set()
    for observation in positions(rules, 2, 7):
        ours = planned(observation, "native", "hand")
        if ours is not None:
            kinds |= {type(option.action).__name__ for option, _ in ours.candidates}
    assert {"Placement", "Draw"} <= kinds
    with running_on("python"):
        assert native.playout() is None
    with running_on("native"):
        assert native.playout() is not None


def ranked_on(plan: Planned, core: str, simulations: int) -> list[CandidateValue]:
    """``Simulation.run``'s candidates and means at a budget in simulations, on ``core``:
    on the native core the worlds are sampled and played out in one call
    (``Playout.simulate``), the values added up in C."""
    with running_on(core):
        return plan.simulation.run(plan.candidates, Budget(simulations=simulations))


def same_rankings(rules: Rules, players: int, seed: int, count: int) -> int:
    """Compare whole simulations (the same means, the same float sums, the same order)
    in the first ``count`` positions of a seeded match; how many were compared."""
    compared = 0
    for observation in itertools.islice(positions(rules, players, seed), count):
        for horizon in ("turn", "hand"):
            python = planned(observation, "python", horizon)
            ours = planned(observation, "native", horizon)
            if python is None or ours is None:
                continue
            # The native batch runs, but where every rack is shown (worlds in Python).
            assert (ours.simulation.sampler.native is None) == rules.open_racks
            simulations = 7 * len(ours.candidates) - 1  # a last world short of a full one
            assert ranked_on(ours, "native", simulations) == ranked_on(
                python, "python", simulations
            )
            compared += 1
    return compared


@pytest.mark.parametrize(("preset", "players"), PLAYER_COUNTS)
def test_simulations_rank_the_same_on_both_cores(preset: str, players: int) -> None:
    assert same_rankings(PRESETS[preset].rules, players, 41, 12) > 0


@pytest.mark.parametrize("option", list(OPTIONS))
def test_every_rule_option_simulates_the_same_on_both_cores(option: str) -> None:
    rules = changed_rules(option)
    assert same_rankings(rules, rules.min_players, 43, 8) > 0


def test_jokers_taken_back_in_playouts_are_compared(monkeypatch: pytest.MonkeyPatch) -> None:
    """Junior playouts in which the joker is taken back (and laid again): the Table's
    swaps and their undoing, value for value and board for board."""
    taken = 0
    apply = Hand.apply

    def counted(hand: Hand, action: Action, player: int | None = None) -> Event:
        nonlocal taken
        taken += isinstance(action, TakeJoker)
        return apply(hand, action, player)

    monkeypatch.setattr(Hand, "apply", counted)
    rules = PRESETS["junior"].rules
    for players, seed in ((2, 5), (2, 6), (3, 5)):
        assert same_playouts(rules, players, seed) > 0
    assert taken > 0


def test_the_native_float_sum_is_the_builtin_sum() -> None:
    """The chance to win (outcome's equity) adds its weights in C as sum() does in the
    running Python: one by one before 3.12, compensated from 3.12 on."""
    sum_of = importlib.import_module("triominos._board").sum_of
    rng = random.Random(8)
    for _ in range(2000):
        values = [
            rng.choice((1.0, -1.0)) * rng.random() * 10.0 ** rng.randint(-20, 20)
            for _ in range(rng.randint(1, 64))
        ]
        assert sum_of(values).hex() == float(sum(values)).hex()
    assert sum_of([-0.0]).hex() == float(sum([-0.0])).hex()


def test_worlds_played_one_by_one_value_the_same_on_both_cores() -> None:
    """Where the simulation goes through the worlds in Python (every consistent world by
    its weight, or worlds read from the others' choices), each world's playouts are one
    native call: the same means as in Python."""
    rules, exact = PRESETS["classic-house"].rules, 0
    for observation in positions(rules, 3, 53):
        if observation.pool_size:  # (the worlds are few once the pool is empty)
            continue
        for read_choices in (0, 2):
            python = planned(observation, "python", "hand", read_choices)
            ours = planned(observation, "native", "hand", read_choices)
            if python is None or ours is None:
                continue
            simulations = 60 * len(ours.candidates)
            if read_choices == 0:
                every = python.simulation.every_world(
                    len(python.candidates), Budget(simulations=simulations)
                )
                if every is None:
                    continue
                exact += 1
            assert ranked_on(ours, "native", simulations) == ranked_on(
                python, "python", simulations
            )
    assert exact > 0


def test_a_seat_out_again_and_again_plays_out_the_same_in_one_call(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Junior plays on after going out: a seat that buys a card and lays it empties its
    rack again, and counts as out each time (``Hand.out``). In one of these worlds (three
    cards on the table, a full pool) seats went out more often than the native playout
    had room to note, and it wrote past its array onto the world's pool: that playout
    came out right, but the next candidate of the same call drew another pool. Each
    candidate played twice in one call (``Simulation.play_outs``), against Python's one
    by one."""
    most_out = 0
    apply = Hand.apply

    def counted(hand: Hand, action: Action, player: int | None = None) -> Event:
        nonlocal most_out
        event = apply(hand, action, player)
        most_out = max(most_out, len(hand.out))
        return event

    monkeypatch.setattr(Hand, "apply", counted)
    observation = next(positions(PRESETS["junior"].rules, 2, 2))
    python = planned(observation, "python", "hand")
    ours = planned(observation, "native", "hand")
    assert python is not None and ours is not None
    actions = [option.action for option, _ in python.candidates]
    rng = random.Random(0)
    for world in [python.simulation.sampler.sample(rng) for _ in range(10)]:
        with running_on("python"):
            values = [python.simulation.play_out(world, action) for action in actions]
        with running_on("native"):
            assert ours.simulation.play_outs(world, actions * 2) == values * 2
    assert most_out > 16  # the seats the native playout has room for (MAX_PLAYERS)


@pytest.mark.parametrize("out", [[1, 1], [0, 1, 0]])
def test_a_native_playout_refuses_a_seat_out_twice(
    monkeypatch: pytest.MonkeyPatch, out: list[int]
) -> None:
    """The seats gone out at the start are each noted once, as the playout notes them
    (room for every seat once): a list with a seat twice is refused, not written past."""
    monkeypatch.setattr(sim, "_gone_out", lambda observation: out)
    observation = next(positions(PRESETS["junior"].rules, 2, 2))
    with running_on("native"), pytest.raises(ValueError, match="each once"):
        SimBot(0).junior_simulation(observation)
