# pyspiel's state surface over every game of games/, in the manner of OpenSpiel's random
# simulation test: at every step of a random game, the serialization replays to an equal state,
# a clone and a child are equal where they should be, the legal mask agrees with the legal
# actions, string_to_action inverts action_to_string, pickling round-trips, and undo_action
# restores the exact state (checked at some steps: it replays the game).
import os
import pickle
import random

import pytest

import keli
from conftest import GAMES, ROOT, option_sets

STEPS = 60  # steps of each game checked; the rest of the game is played to its end
UNDO_EVERY = 15  # undo_action replays the game so far: checked every so many steps


def name(path):
    return os.path.basename(path)[:-5]


def random_action(state, rng):
    if state.is_chance_node():
        ids, probs = zip(*state.chance_outcomes())
        assert sum(probs) == pytest.approx(1.0)
        return rng.choices(ids, weights=probs)[0]
    return rng.choice(state.legal_actions())


def check_step(game, state, step):
    assert game.deserialize_state(state.serialize()) == state
    legal = state.legal_actions()
    mask = state.legal_actions_mask()
    size = game.max_chance_outcomes() if state.is_chance_node() else game.num_distinct_actions()
    assert len(mask) == size
    assert [i for i, x in enumerate(mask) if x] == legal
    # Every legal action has a name of its own (alike pieces' moves are listed once), and the
    # name gives the action back.
    texts = [state.action_to_string(a) for a in legal]
    assert len(set(texts)) == len(texts), sorted(t for t in texts if texts.count(t) > 1)
    for a, text in zip(legal, texts):
        assert state.string_to_action(text) == a
    for a in legal[:8]:
        child = state.child(a)
        assert child != state and len(child.history()) == len(state.history()) + 1
    if step % UNDO_EVERY == 0 and legal:
        a = legal[0]
        nxt = state.child(a)
        nxt.undo_action(state.current_player(), a)
        assert nxt == state and nxt.history() == state.history()


def play_checked(game, rng, checked_steps, most_steps=None):
    """A random game with check_step at each of its first checked_steps steps, played to its end
    (or for most_steps steps): what every state and the end must be, whatever the game."""
    state = game.new_initial_state()
    assert state.is_initial_state() and state.history() == [] and not state.is_simultaneous_node()
    shape = state.observation().array.shape
    step = decisions = 0
    while not state.is_terminal() and (most_steps is None or step < most_steps):
        checked = step < checked_steps
        if checked:
            check_step(game, state, step)
            assert state.observation().array.shape == shape
        decisions += not state.is_chance_node()
        a = random_action(state, rng)
        before = state.clone() if checked else None
        state.apply_action(a)
        if checked:
            assert state.history() == before.history() + [a]
        step += 1
    assert decisions <= game.max_game_length()
    full = state.full_history()
    assert [a for _, a in full] == state.history() and state.history_str() == ", ".join(map(str, state.history()))
    assert sum(p != keli.CHANCE_PLAYER for p, _ in full) == decisions
    returns = state.returns()
    assert all(game.min_utility() <= r <= game.max_utility() for r in returns)
    assert sum(returns) == pytest.approx(game.utility_sum())
    assert state.rewards() == returns
    assert [state.player_return(p) for p in range(game.num_players())] == returns
    return state


@pytest.mark.parametrize("path", GAMES, ids=name)
def test_state_surface_at_every_step(path):
    game = keli.load_game(path, engine="interp")
    state = play_checked(game, random.Random(11), STEPS)
    assert state.is_terminal()
    again = pickle.loads(pickle.dumps(state))
    assert again == state and hash(again) == hash(state) and again.history() == state.history()
    assert pickle.loads(pickle.dumps(game)).get_parameters() == game.get_parameters()


# Every other option set of every game (the battery's: its plan's axes, or every bool and choice
# parameter), checked for fewer steps and played on for at most so many: the defaults are
# checked whole above.
OPTION_STEPS = 20
OPTION_MOST_STEPS = 3000
OPTION_SETS = [(p, o) for p in GAMES for o in option_sets(p)[1:]]


@pytest.mark.parametrize(
    "path, options", OPTION_SETS, ids=[name(p) + "(" + ",".join(f"{k}={v}" for k, v in o.items()) + ")" for p, o in OPTION_SETS]
)
def test_state_surface_of_every_option_set(path, options):
    game = keli.load_game(path, params=options, engine="interp")
    assert all(game.get_parameters()[k] == v for k, v in options.items())
    state = play_checked(game, random.Random(13), OPTION_STEPS, OPTION_MOST_STEPS)
    again = pickle.loads(pickle.dumps(state))
    assert again == state and again.get_game().get_parameters() == game.get_parameters()


def test_games_by_name_and_game_strings():
    names = keli.registered_names()
    assert names == sorted(name(p) for p in GAMES)
    assert keli.load_game("kalah", engine="interp").name() == keli.load_game(
        os.path.join(ROOT, "games", "kalah.keli"), engine="interp").name()
    g = keli.load_game("raja_pasu(holes=5,skip_origin=True)", engine="interp")
    assert g.get_parameters()["holes"] == 5 and g.get_parameters()["skip_origin"] is True
    # params given as well override the string's
    assert keli.load_game("raja_pasu(holes=5)", params={"holes": 6}, engine="interp").get_parameters()["holes"] == 6
    with pytest.raises(keli.Error, match="did you mean 'kalah'"):
        keli.load_game("kalha")
    with pytest.raises(keli.Error, match="is not NAME=VALUE"):
        keli.load_game("kalah(pits)")
    with pytest.raises(keli.Error, match="E301|allowed"):
        keli.load_game("kalah(pits=0)")


def test_serialized_states_that_do_not_replay_say_where():
    game = keli.load_game("kalah", engine="interp")
    with pytest.raises(keli.Error, match="line 2 of the serialized state: 'x' is not an action id"):
        game.deserialize_state("1\nx\n")
    with pytest.raises(keli.Error, match="line 1 of the serialized state: .*not legal"):
        game.deserialize_state("999\n")
    state = game.new_initial_state()
    with pytest.raises(keli.Error, match="no action to take back"):
        state.undo_action()
    a = state.legal_actions()[0]
    state.apply_action(a)
    with pytest.raises(keli.Error, match="the last action was"):
        state.undo_action(0, a + 1)
    assert state.history() == [a]  # a refused undo leaves the state as it was


@pytest.mark.parametrize("path", GAMES, ids=name)
def test_game_type_describes_the_game(path):
    game = keli.load_game(path, engine="interp")
    t = game.get_type()
    assert t.short_name == name(path) and t.long_name == game.name()
    assert t.dynamics == keli.GameType.Dynamics.SEQUENTIAL
    assert t.information == keli.GameType.Information.PERFECT_INFORMATION
    assert t.utility == keli.GameType.Utility.ZERO_SUM and t.reward_model == keli.GameType.RewardModel.TERMINAL
    assert t.min_num_players == t.max_num_players == game.num_players()
    assert t.parameter_specification == game.get_parameters()
    state = game.new_initial_state()
    # A game with dice has a chance node somewhere: it says it is stochastic, and one without
    # never meets one (checked along a short random game).
    rng = random.Random(5)
    met_chance = False
    for _ in range(200):
        if state.is_terminal():
            break
        met_chance |= state.is_chance_node()
        state.apply_action(random_action(state, rng))
    if met_chance:
        assert t.chance_mode == keli.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    if t.chance_mode == keli.GameType.ChanceMode.DETERMINISTIC:
        assert game.max_chance_outcomes() == 0 or not met_chance
    assert state.information_state_string(0) == ", ".join(str(a) for a in state.history())
    assert state.observation_string(0) == str(state)
