"""The OpenSpiel game ``triominos`` (triominos.rl.openspiel)."""

from __future__ import annotations

from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from open_spiel.python.algorithms import ismcts, mcts  # type: ignore[import-untyped]  # noqa: E402

from triominos.bots import GreedyBot  # noqa: E402
from triominos.encoding import DRAW  # noqa: E402
from triominos.game import Action, Deal, Hand, Match, match_ends  # noqa: E402
from triominos.rl.openspiel import TriominosGame, TriominosState  # noqa: E402
from triominos.rules import PRESETS, RuleOptionError  # noqa: E402


def load(preset: str = "classic", players: int = 2, **params: Any) -> TriominosGame:
    game: TriominosGame = pyspiel.load_game(
        "triominos", {"preset": preset, "players": players, **params}
    )
    return game


def hand_of(state: TriominosState) -> Hand:
    assert state.play.hand is not None
    return state.play.hand


def deal(game: TriominosGame, rng: Any) -> TriominosState:
    """A state right after the deal, chance outcomes drawn with ``rng``."""
    state = game.new_initial_state()
    while state.is_chance_node():
        outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(outcomes, p=probabilities)))
    return state


def play_out(state: TriominosState, rng: Any) -> TriominosState:
    """The state played to the hand's end, chance outcomes and actions drawn with ``rng``."""
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize("match", [False, True], ids=["hand", "match"])
@pytest.mark.parametrize("preset", list(PRESETS))
def test_random_simulations_pass_openspiel_checks(preset: str, match: bool) -> None:
    """The issue's done-when, on every preset, for a hand (at the fewest and the most
    players) and a whole match (2 players, one simulation: a match is several hands):
    OpenSpiel's random_sim_test, whose serialization check compares the states through
    str(); and the information-state tensor, which random_sim_test checks only when the
    game declares a non-zero size, is non-empty and of the game's size at every decision
    and at the end, where the serialized state still reads back to the same str()."""
    for players in (2,) if match else (2, PRESETS[preset].rules.max_players):
        game = load(preset, players, match=match)
        pyspiel.random_sim_test(game, num_sims=1 if match else 2, serialize=True, verbose=False)
        size = game.information_state_tensor_size()
        assert size > 0
        rng = np.random.RandomState(players)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(outcomes, p=probabilities)))
                continue
            assert len(state.information_state_tensor(state.current_player())) == size
            state.apply_action(int(rng.choice(state.legal_actions())))
        for seat in range(players):
            assert len(state.information_state_tensor(seat)) == size
        text = pyspiel.serialize_game_and_state(game, state)
        assert str(pyspiel.deserialize_game_and_state(text)[1]) == str(state)


def test_parameters_are_checked() -> None:
    game = load("junior", 3)
    assert game.num_players() == 3
    assert game.num_distinct_actions() == game.space.size
    assert game.max_chance_outcomes() == 36
    with pytest.raises(RuleOptionError, match="preset"):
        TriominosGame({"preset": "chess"})
    with pytest.raises(RuleOptionError, match="players"):
        TriominosGame({"players": 7})
    with pytest.raises(ValueError, match="unknown parameter"):
        TriominosGame({"seats": 2})


def test_the_deal_and_the_draws_are_chance_nodes() -> None:
    game = load()
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert len(state.chance_outcomes()) == 56
    state = deal(game, np.random.RandomState(3))
    hand = hand_of(state)
    assert [len(hand.rack(seat)) for seat in (0, 1)] == [9, 9]
    # Play until someone draws: the draw waits for a chance node over the pool's tiles.
    greedy = GreedyBot()
    while True:
        action = game.space.encode(greedy.act(state.observation(state.current_player())))
        if action == DRAW:
            break
        state.apply_action(action)
    drawer = state.current_player()
    pool = {game.rules.tiles.index(tile) for tile in hand.pool}
    state.apply_action(DRAW)
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert {tile for tile, _ in outcomes} == pool
    assert sum(p for _, p in outcomes) == pytest.approx(1)
    tile = max(pool)
    state.apply_action(tile)
    assert game.rules.tiles.tiles[tile] in hand_of(state).rack(drawer)


def test_the_information_state_hides_the_other_racks() -> None:
    game = load()
    first = deal(game, np.random.RandomState(1))
    # The same deal but for a tile of seat 1's rack traded with one of the pool, neither
    # a triple, so that the same seat opens.
    tiles = game.rules.tiles.tiles
    dealt = first.play.dealt
    ones = [i for i in range(9, 18) if not tiles[dealt[i]].is_triple]
    pool = [tile for tile in range(56) if tile not in dealt and not tiles[tile].is_triple]
    swapped = [*dealt[:9], *dealt[9:18]]
    swapped[ones[0]] = pool[0]
    second = game.new_initial_state()
    for tile in swapped:
        second.apply_action(tile)
    assert hand_of(first).rack(1) != hand_of(second).rack(1)
    assert first.current_player() == second.current_player()
    for state in (first, second):  # the opening, and the chance node of a draw if any
        state.apply_action(state.legal_actions()[0])
    for seat, same in ((0, True), (1, False)):
        assert (
            first.information_state_string(seat) == second.information_state_string(seat)
        ) == same
        assert (first.observation_string(seat) == second.observation_string(seat)) == same
        assert (first.observation_tensor(seat) == second.observation_tensor(seat)) == same


def test_resampled_states_agree_with_what_the_seat_saw() -> None:
    game = load()
    state = deal(game, np.random.RandomState(5))
    state.apply_action(state.legal_actions()[0])  # the opening
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    seat = state.current_player()
    other = 1 - seat
    rack = hand_of(state).rack(other)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    worlds = [state.resample_from_infostate(seat, sampler) for _ in range(5)]
    for world in worlds:
        assert world.information_state_string(seat) == state.information_state_string(seat)
        assert world.legal_actions() == state.legal_actions()
    assert len({tuple(hand_of(world).rack(other)) for world in worlds}) > 1
    assert hand_of(state).rack(other) == rack  # the state resampled from is untouched


def test_returns_are_the_margin_and_sum_to_zero() -> None:
    game = load("classic", 3)
    rng = np.random.RandomState(7)
    state = play_out(deal(game, rng), rng)
    points = hand_of(state).points
    returns = state.returns()
    assert sum(returns) == pytest.approx(0)
    for seat in range(3):
        others = [points[other] for other in range(3) if other != seat]
        assert returns[seat] == pytest.approx(points[seat] - sum(others) / 2)


def test_ismcts_plays_a_hand_against_greedy() -> None:
    game = load()
    rng = np.random.RandomState(11)
    searcher = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 8, random_state=rng)
    greedy = GreedyBot()
    state = game.new_initial_state()
    searched = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
        elif state.current_player() == 0:
            action = int(searcher.step(state))
            assert action in state.legal_actions()
            state.apply_action(action)
            searched += 1
        else:
            state.apply_action(game.space.encode(greedy.act(state.observation(1))))
    assert searched > 3
    assert sum(state.returns()) == 0


def _after_a_draw_that_fits_or_not() -> tuple[TriominosState, TriominosState]:
    """Two classic-003 states alike but for which of two tiles of the rack came from the
    seat's last draw: the dealt one fits the board and the drawn one does not, or the
    other way round. Seed 003 lets the seat draw again only after a drawn tile that does
    not fit, so one may draw and the other may not."""
    game = load("classic-003")
    for seed in range(200):  # random play that draws often, until such a draw comes
        rng = np.random.RandomState(seed)
        state, history = game.new_initial_state(), []
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
                action = int(rng.choice(outcomes, p=probabilities))
            else:
                legal = state.legal_actions()
                action = DRAW if DRAW in legal and rng.rand() < 0.7 else int(rng.choice(legal))
            drawing = state.play.pending == DRAW
            state.apply_action(action)
            history.append(action)
            hand = state.play.hand
            if not drawing or hand is None or hand.is_over or hand.drawn is None:
                continue
            seat, drawn, tiles = hand.to_move, hand.drawn, game.rules.tiles.tiles
            size = game.rules.rack_size(2)
            for dealt in state.play.dealt[seat * size : (seat + 1) * size]:
                if (
                    hand.racks[seat] >> dealt & 1
                    and hand.board.can_place(1 << dealt) != hand.board.can_place(1 << drawn)
                    and not tiles[dealt].is_triple
                    and not tiles[drawn].is_triple  # the same seat opens
                ):
                    swapped = [
                        {dealt: drawn}.get(a, a) if i < len(state.play.dealt) else a
                        for i, a in enumerate(history)
                    ]
                    swapped[-1] = dealt  # the last draw brings the other tile
                    other = game.new_initial_state()
                    for a in swapped:
                        other.apply_action(a)
                    return state, other
    raise AssertionError("no such draw in 200 random hands")


def test_what_a_seat_may_do_follows_from_its_information_state() -> None:
    """OpenSpiel's rule for imperfect information: states with one information state
    have the same legal actions. The last tile the seat drew is its own knowledge."""
    first, second = _after_a_draw_that_fits_or_not()
    seat = first.current_player()
    assert second.current_player() == seat
    assert hand_of(first).rack(seat) == hand_of(second).rack(seat)
    assert (DRAW in first.legal_actions()) != (DRAW in second.legal_actions())
    assert first.information_state_string(seat) != second.information_state_string(seat)
    assert first.information_state_tensor(seat) != second.information_state_tensor(seat)
    other = 1 - seat  # who saw a draw and not its tile cannot tell them apart
    assert first.information_state_string(other) == second.information_state_string(other)
    assert first.information_state_tensor(other) == second.information_state_tensor(other)


@pytest.mark.parametrize(("preset", "players"), [("classic", 2), ("extended", 4), ("junior", 3)])
def test_the_information_state_tensor_has_a_fixed_size_and_recalls_every_event(
    preset: str, players: int
) -> None:
    game = load(preset, players)
    size = game.information_state_tensor_size()
    assert size > game.observation_tensor_size() > 0
    state = deal(game, np.random.RandomState(3))
    tensors = set()
    steps = 0
    while not state.is_terminal() and steps < 60:
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
            continue
        seat = state.current_player()
        tensor = state.information_state_tensor(seat)
        assert len(tensor) == size
        tensors.add(tuple(tensor))
        state.apply_action(state.legal_actions()[-1])
        steps += 1
    assert len(tensors) == steps  # each decision a history of its own


def test_a_public_observer_shows_no_rack() -> None:
    game = load()
    state = deal(game, np.random.RandomState(2))
    public = pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
    )
    observer = game.make_py_observer(public)
    private = game.make_py_observer()
    for seat in (0, 1):
        rack = " ".join(tile.name for tile in hand_of(state).rack(seat))
        assert rack in private.string_from(state, seat)
        assert rack not in observer.string_from(state, seat)
        assert "; rack " not in observer.string_from(state, seat)
        observer.set_from(state, seat)
        assert not observer.tensor[game.encoder.features["rack"]].any()
    observer.set_from(state, 0)
    zero = observer.tensor.copy()
    observer.set_from(state, 1)
    # The rack is among the unseen tiles for both: only whose view it is differs.
    assert (
        zero[game.encoder.features["unseen"]].sum()
        == observer.tensor[game.encoder.features["unseen"]].sum()
    )
    with pytest.raises(ValueError, match="every seat"):
        game.make_py_observer(
            pyspiel.IIGObservationType(
                perfect_recall=False,
                public_info=True,
                private_info=pyspiel.PrivateInfoType.ALL_PLAYERS,
            )
        )


def test_the_utility_bounds_hold_the_margin_and_are_no_wider_than_a_seat_s_points() -> None:
    from triominos.encoding import points_bound

    for preset, players in (("classic", 2), ("extended", 4)):
        game = load(preset, players)
        assert game.max_utility() == points_bound(game.rules, players) == -game.min_utility()


def test_str_of_a_state_after_draws_reads_back_as_its_hand() -> None:
    """str() is the hand's repr: after chance nodes chose the drawn tiles it must still
    paste back to the same hand."""
    game = load()
    state = deal(game, np.random.RandomState(4))
    draws = 0
    while not state.is_terminal() and draws < 3:
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[-1][0])  # never the deal's order
            continue
        legal = state.legal_actions()
        draws += DRAW in legal
        state.apply_action(DRAW if DRAW in legal else legal[0])
    assert draws
    assert Hand.from_text(str(state)[len("Hand.from_text('") : -2]) == hand_of(state)


def test_every_rule_option_is_a_game_parameter_and_the_returns_a_choice() -> None:
    from triominos.rules import OPTIONS

    specification = load().get_type().parameter_specification
    assert set(specification) == {"preset", "players", "returns", "actions", "match", *OPTIONS}
    game: Any = pyspiel.load_game(
        "triominos",
        {"preset": "classic", "players": 3, "max_draws": "none", "returns": "pairwise"},
    )
    assert game.rules.max_draws is None and game.rules.tiles.name == "classic"
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    state = play_out(game.new_initial_state(), np.random.RandomState(6))
    points = hand_of(state).points
    expected = [sum((mine > theirs) - (mine < theirs) for theirs in points) / 2 for mine in points]
    assert state.returns() == expected and sum(expected) == 0
    with pytest.raises(RuleOptionError, match="max_draws"):
        pyspiel.load_game("triominos", {"max_draws": "many"})
    with pytest.raises(ValueError, match="returns"):
        pyspiel.load_game("triominos", {"returns": "glory"})


def test_factored_actions_are_a_game_parameter() -> None:
    game: Any = pyspiel.load_game("triominos", {"actions": "factored", "preset": "junior"})
    assert game.num_distinct_actions() == game.space.size < 100_000
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_a_whole_match_is_one_game_with_the_deals_between_hands_as_chance_nodes() -> None:
    """``match=True``: hands follow one another as the engine's Match plays them (each
    dealt by chance nodes, its number and starting totals those of the match so far) until
    a total reaches the target, and the returns are counted on the final totals."""
    game = load("classic", 3, match=True, target_score="250")
    assert game.max_game_length() == 250 * load("classic", 3).max_game_length()
    assert game.max_utility() == 250 * load("classic", 3).max_utility()
    rng = np.random.RandomState(5)
    state = game.new_initial_state()
    dealing = 0  # chance nodes of the deals after the first hand
    while not state.is_terminal():
        if state.play.finished and state.play.hand is None:
            assert state.is_chance_node()
            assert str(state).endswith(f"dealing: {len(state.play.dealt)} tiles dealt")
            dealing += 1
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    hands = [*state.play.finished, hand_of(state)]
    assert len(hands) > 1 and dealing == (len(hands) - 1) * 3 * 7
    totals = [0, 0, 0]
    for number, hand in enumerate(hands, 1):
        assert hand.is_over and hand.number == number and list(hand.start_totals) == totals
        totals = [total + points for total, points in zip(totals, hand.points, strict=True)]
        assert match_ends(game.rules, totals, number) == (number == len(hands))
        assert Hand.from_text(str(state).splitlines()[number - 1][16:-2]) == hand
    assert state.play.totals == totals
    returns = state.returns()
    for seat in range(3):
        others = [totals[other] for other in range(3) if other != seat]
        assert returns[seat] == pytest.approx(totals[seat] - sum(others) / 2)
    # The information state recalls the hands played out, as the seat saw them.
    assert state.information_state_string(0).startswith("hand 1 ")
    pairwise = load("classic", 2, match=True, returns="pairwise", target_score="150")
    state = play_out(pairwise.new_initial_state(), rng)
    winner = max(range(2), key=state.play.totals.__getitem__)
    assert state.returns()[winner] == 1.0 and sum(state.returns()) == 0


def test_the_match_form_plays_as_the_engine_s_match_on_the_same_deals() -> None:
    """Replayed through the engine's Match, with each hand's deal (its pool in the order
    the chance nodes drew it) and the same actions, the match has the same hands and
    totals: the OpenSpiel form banks and deals exactly as Match does."""
    game = load("classic", 2, match=True)
    rng = np.random.RandomState(8)
    state = game.new_initial_state()
    actions: list[Action] = []
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
            continue
        action_id = int(rng.choice(state.legal_actions()))
        actions.append(game.space.decode(action_id, hand_of(state).board))
        state.apply_action(action_id)
    hands = [*state.play.finished, hand_of(state)]
    deals = []
    for hand in hands:
        drawn = [event.tile for event in hand.events if event.tile and event.action == "draw"]
        pool = (*drawn, *(tile for tile in hand.deal.pool if tile not in drawn))
        deals.append(Deal(hand.deal.racks, pool))
    match = Match(game.rules, 2, seed=0, deals=deals)
    for action in actions:
        match.apply(action)
    assert match.is_over and len(match.hands) == len(hands) > 1
    assert match.totals == state.play.totals
    assert [list(hand.events) for hand in match.hands] == [list(hand.events) for hand in hands]
