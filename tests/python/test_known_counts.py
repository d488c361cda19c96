# Counts of legal moves published for a game's start (as chess's perft), checked on both engines:
# an independent check of move generation that needs no other implementation.
import os

import pytest

import keli
from conftest import ROOT

# game file, options, and the number of legal moves at the start, with where it is published
KNOWN = [
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


# Amazons' first turn is two decisions here (the move, then the arrow): 2176 turns in all, the
# published count (Wikipedia, "Game of the Amazons").
@pytest.mark.parametrize("engine", ["interp", "native"])
def test_amazons_first_turns(engine, cache_dir):
    game = keli.load_game(os.path.join(ROOT, "games/amazons.keli"), {}, engine=engine, cache_dir=cache_dir)
    start = game.new_initial_state()
    turns = 0
    for move in start.legal_actions():
        after = start.clone()
        after.apply_action(move)
        assert after.current_player() == 0
        turns += len(after.legal_actions())
    assert turns == 2176

