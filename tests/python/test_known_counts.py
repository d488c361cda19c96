# Counts of legal moves published for a game's start (as chess's perft), checked on both engines:
# an independent check of move generation that needs no other implementation.
import os

import pytest

import keli
from conftest import ROOT

# game file, options, and the number of legal moves at the start, with where it is published
KNOWN = [
    ("games/amazons.keli", {}, 2176),  # the Game of the Amazons' first move (Wikipedia, "Game of the Amazons")
    ("games/breakthrough.keli", {}, 22),  # 8 x 8: six front men with three steps, two edge men with two
    ("games/connect_four.keli", {}, 7),
    ("games/tic_tac_toe.keli", {}, 9),
    ("games/reversi.keli", {}, 4),  # Othello's four opening moves
]


@pytest.mark.parametrize("path,params,count", KNOWN)
@pytest.mark.parametrize("engine", ["interp", "native"])
def test_start_moves(path, params, count, engine, cache_dir):
    game = keli.load_game(os.path.join(ROOT, path), params, engine=engine, cache_dir=cache_dir)
    assert len(game.new_initial_state().legal_actions()) == count
