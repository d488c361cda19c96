# The observation tensor (docs/python.md, "Observations"): laid out as the game says, the same
# size at every step, each seat's view turned to seat 0's place (seats counted from the
# observer, its pieces first, the board rotated where the game's per-seat tables agree on a
# rotation), and its parts views of the one array.
import math
import random

import numpy as np
import pytest

import keli
from conftest import GAMES


def name(path):
    return path.rsplit("/", 1)[-1][:-5]


def random_action(state, rng):
    if state.is_chance_node():
        ids, probs = zip(*state.chance_outcomes())
        return rng.choices(ids, weights=probs)[0]
    return rng.choice(state.legal_actions())


def check_views(game, state):
    layout = game.observation_tensor_layout()
    assert game.observation_tensor_shape() == [game.observation_tensor_size()]
    assert layout[-1]["offset"] + math.prod(layout[-1]["shape"]) == game.observation_tensor_size()
    for seat in range(game.num_players()):
        flat = state.observation_tensor(seat)
        assert flat.dtype == np.float32 and flat.shape == (game.observation_tensor_size(),)
        parts = state.observation_tensor_parts(seat)
        assert list(parts) == [p["name"] for p in layout]
        for p in layout:
            size = math.prod(p["shape"])
            assert parts[p["name"]].shape == tuple(p["shape"])
            assert np.array_equal(parts[p["name"]].reshape(-1), flat[p["offset"] : p["offset"] + size])
        to_move = parts["to_move"]
        if state.is_terminal():
            assert not to_move.any()
        else:
            mover = state.observation().fixed["mover"]
            assert to_move.sum() == 1 and to_move[(mover - seat) % game.num_players()] == 1
        places = state.observation().fixed["places"]
        assert [parts["places"][(q - seat) % game.num_players()] for q in range(game.num_players())] == list(places)


@pytest.mark.parametrize("path", GAMES, ids=name)
def test_every_game_lays_out_its_tensor_and_every_seat_sees_it(path):
    game = keli.load_game(path, engine="interp")
    rng = random.Random(5)
    state = game.new_initial_state()
    for step in range(400):
        if step % 40 == 0 or state.is_terminal():
            check_views(game, state)
        if state.is_terminal():
            break
        state.apply_action(random_action(state, rng))


def test_kalah_seen_from_north_is_the_board_turned():
    game = keli.load_game("kalah", engine="interp")
    assert game.observation_rotates_board()
    state = game.new_initial_state()
    south, north = state.observation_tensor(0), state.observation_tensor(1)
    # The start is symmetric: both seats see the same but for whose turn it is.
    assert np.array_equal(south[2:], north[2:]) and list(south[:2]) == [1, 0] and list(north[:2]) == [0, 1]
    rng = random.Random(9)
    for _ in range(30):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
        raw = state.observation().tables
        for seat, row, store in ((0, slice(0, 6), 6), (1, slice(7, 13), 13)):
            seen = state.observation_tensor_parts(seat)
            # The observer's own row and store come first, as South's do in the raw slots.
            assert list(seen["counters"][0:6]) == list(raw["counters"][row])
            assert seen["counters"][6] == raw["counters"][store]
            assert seen["store"][0] == raw["store"][seat] and seen["store"][1] == raw["store"][1 - seat]


def test_ludo_each_seat_sees_its_own_pieces_first():
    game = keli.load_game("ludo", engine="interp")
    rng = random.Random(3)
    state = game.new_initial_state()
    for _ in range(300):
        if state.is_terminal():
            break
        state.apply_action(random_action(state, rng))
    raw = state.observation().tables["pos"]
    for seat in range(4):
        seen = state.observation_tensor_parts(seat)["pos"]
        assert list(seen) == [raw[(seat * 4 + k) % 16] for k in range(16)]


def test_the_observer_is_checked():
    game = keli.load_game("kalah", engine="interp")
    state = game.new_initial_state()
    assert np.array_equal(state.observation_tensor(), state.observation_tensor(0))
    with pytest.raises(keli.Error, match="player"):
        state.observation_tensor(2)
    with pytest.raises(keli.Error, match="player"):
        state.observation_tensor(-1)
    t = game.get_type()
    assert t.provides_observation_tensor and not t.provides_information_state_tensor


ODD_GAME = """
# A game whose slots hold numbers for a site and a piece that name none, and a variable named as
# a fixed part of the observation tensor.
game "Odd observation"

players 2 named Left, Right
region spot
board {
  add site(0, 0) to spot
  add site(1, 0) to spot
}
pieces 2

var at: site
var held: piece
var places: int

setup {
  at = 999
  held = 77
  places = 5
}

phase play {
  move wait() {
    finish mover
  }
}
"""


def test_a_site_or_piece_that_names_none_reads_as_none(tmp_path):
    # The checker lets a number stand for a site or a piece: the tensor shows one out of range
    # as none (-1), and a variable named as a fixed part gets a name of its own.
    path = tmp_path / "odd.keli"
    path.write_text(ODD_GAME)
    game = keli.load_game(str(path), engine="interp")
    assert [p["name"] for p in game.observation_tensor_layout()] == ["to_move", "places", "at", "held", "places_var"]
    for seat in range(2):
        parts = game.new_initial_state().observation_tensor_parts(seat)
        assert parts["at"] == -1 and parts["held"] == -1 and parts["places_var"] == 5
