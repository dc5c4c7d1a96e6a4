"""Bot specs: a bot with settings, as the measuring commands read one."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from triominos.arena import ArenaConfig, play_game
from triominos.bots import Budget, make_bot
from triominos.bots.sim import SimBot
from triominos.bots.spec import BotSpec, BotSpecError, setting_text, settings_of, split_bots
from triominos.cli import main
from triominos.game import Match
from triominos.rules import PRESETS

CLASSIC = PRESETS["classic-house"].rules


def sim_v1_as_settings() -> str:
    """sim-v1 spelled as sim with every setting written out, read off the bot itself."""
    v1 = make_bot("sim-v1", 0)
    written = ",".join(f"{name}={setting_text(getattr(v1, name))}" for name in settings_of("sim"))
    return f"sim({written})"


@pytest.mark.parametrize(
    "text",
    [
        "sim",
        "greedy",
        "sim-v1",
        "sim(fishing=4)",
        "sim(candidates=10,horizon=hand)",
        sim_v1_as_settings(),
    ],
)
def test_a_spec_reads_back_as_it_is_written(text: str) -> None:
    spec = BotSpec.from_text(text)
    assert spec.to_text() == text
    assert BotSpec.from_text(spec.to_text()) == spec
    assert eval(repr(spec)) == spec


def test_a_spec_is_written_the_one_way_it_is_read() -> None:
    spec = BotSpec.from_text(" sim( Fishing = 4 , endgame=None, exact_worlds=TRUE ) ".lower())
    assert spec.settings == (("fishing", 4), ("endgame", None), ("exact_worlds", True))
    assert spec.to_text() == "sim(fishing=4,endgame=none,exact_worlds=true)"
    assert BotSpec.from_text("sim()") == BotSpec("sim")


def test_the_settings_are_sims_keywords() -> None:
    declared = settings_of("sim")
    assert {name: default for name, (_, default) in declared.items()} == {
        "candidates": 6,
        "horizon": "turn",
        "endgame": 1000,
        "read_placements": True,
        "exact_worlds": True,
        "fishing": 3,
        "closing": 200,
        "crowded_closing": 320,
        "win_value": 100,
        "equity": True,
        "read_choices": 0,
    }
    assert settings_of("expert") == {}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "deepblue",
            "unknown bot 'deepblue'; bots are random, greedy, expert, sim, sim-v1, sim-v2",
        ),
        (
            "sim(depth=3)",
            "sim has no setting 'depth'; its settings (and defaults) are candidates (6)",
        ),
        ("sim(weights=1)", "sim has no setting 'weights'"),
        ("expert(candidates=3)", "expert has no settings; only sim has"),
        ("sim(fishing=lots)", "sim(fishing=...): must be a whole number, not 'lots'"),
        ("sim(horizon=far)", "sim(horizon=...): must be one of turn, hand, not 'far'"),
        ("sim(endgame=deep)", "sim(endgame=...): must be none or a whole number, not 'deep'"),
        ("sim(exact_worlds=1)", "sim(exact_worlds=...): must be true or false, not '1'"),
        ("sim(fishing)", "sim(fishing=...): give the setting a value"),
        ("sim(fishing=1,fishing=2)", "sim(fishing=...): the setting is given twice"),
        ("sim(candidates=0)", "sim(candidates=0): candidates must be at least 1, not 0"),
        ("sim(fishing=-1)", "sim(fishing=-1): fishing must be 0 (never) or more players"),
        ("sim(endgame=0)", "endgame must be none or at least 1 position, not 0"),
        ("sim(closing=-1)", "closing must be none (never) or 0 or more points, not -1"),
        ("sim(crowded_closing=-5)", "crowded_closing must be 0 or more points, not -5"),
        ("sim(win_value=-100)", "win_value must be 0 or more points, not -100"),
        ("sim(fishing=4", "a bot is written like sim or sim(fishing=4), not 'sim(fishing=4'"),
        ("sim(a=(1))", "a bot is written like sim or sim(fishing=4)"),
    ],
)
def test_a_wrong_spec_says_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(BotSpecError) as raised:
        BotSpec.from_text(text)
    assert message in str(raised.value)
    assert isinstance(raised.value, ValueError)


def test_a_spec_makes_the_bot_it_names() -> None:
    bot = BotSpec.from_text("sim(fishing=4,candidates=10)").make(7, Budget(simulations=30))
    assert isinstance(bot, SimBot)
    assert (bot.fishing, bot.candidates, bot.seed, bot.budget) == (4, 10, 7, Budget(simulations=30))
    assert bot.name == "sim(fishing=4,candidates=10)"
    assert BotSpec.from_text("sim").make(7, Budget(simulations=30)).name == "sim"


def test_sim_with_sim_v1s_settings_plays_as_sim_v1() -> None:
    """The settings are the bot's own keywords: written out, they are the frozen reference."""
    budget = Budget(simulations=40)
    spelled = BotSpec.from_text(sim_v1_as_settings())
    assert "endgame=none" in spelled.to_text() and "fishing=0" in spelled.to_text()
    for players in (2, 4):
        match = Match(CLASSIC, players, 11)
        compared = 0
        while not match.is_over and len(match.hands) == 1 and compared < 25:
            observation = match.observe(match.to_move)
            expected = make_bot("sim-v1", compared, budget).act(observation)
            assert spelled.make(compared, budget).act(observation) == expected
            match.apply(expected)
            compared += 1
        assert compared == 25


def test_commas_split_bots_but_not_their_settings() -> None:
    assert list(split_bots("sim(fishing=4,candidates=10), expert,greedy")) == [
        "sim(fishing=4,candidates=10)",
        "expert",
        "greedy",
    ]


def test_the_arena_seats_and_labels_a_spec() -> None:
    config = ArenaConfig(
        CLASSIC.replace(target_score=60),
        ("sim(candidates=2)", "greedy"),
        Budget(simulations=8),
        1,
        5,
    )
    result = play_game(config, config.schedule()[0])
    assert sum(result.moves) > 0
    assert config.labels == ["sim(candidates=2)", "greedy"]
    with pytest.raises(BotSpecError, match="sim has no setting 'depth'"):
        ArenaConfig(CLASSIC, ("sim(depth=1)", "greedy"), Budget(simulations=8), 1, 5)


QUICK = ("--think", "8sims", "--target", "60", "--seed", "3")


@pytest.mark.parametrize(
    ("command", "bots", "size"),
    [
        ("arena", "sim(candidates=2),greedy", "--matches"),
        ("ladder", "greedy,sim(candidates=2)", "--pairs"),
    ],
)
def test_the_arena_and_the_ladder_seat_a_spec(command: str, bots: str, size: str) -> None:
    result = CliRunner().invoke(main, [command, "--bots", bots, *QUICK, size, "2"])
    assert result.exit_code == 0, result.output
    assert "sim(candidates=2)" in result.output


def test_a_wrong_spec_is_a_usage_error_and_the_other_commands_refuse_settings() -> None:
    runner = CliRunner()
    wrong = runner.invoke(main, ["arena", "--bots", "sim(candidates=none),greedy"])
    assert wrong.exit_code == 2
    assert "sim(candidates=...): must be a whole number, not 'none'" in wrong.output
    demo = runner.invoke(main, ["demo", "--bots", "sim(candidates=2)"])
    assert demo.exit_code == 2
    assert (
        "settings such as sim(fishing=4) and outside agents (module:factory) are for "
        "triominos arena and ladder"
    ) in demo.output
