# OpenSpiel's own records of random games (tests/reference/openspiel/, from OpenSpiel's C++ game
# code; see the README there) replayed move for move on the Keli game whose options follow
# OpenSpiel's rules: at every decision the same legal moves, each recorded move applied by its
# text, the same position after it, and at the end the same returns.
import json
import os

import pytest

import keli
from conftest import ROOT

RECORDS = os.path.join(ROOT, "tests", "reference", "openspiel")


def othello_move(action):
    return "pass" if action == 64 else "abcdefgh"[action % 8] + str(action // 8 + 1)


def othello_cells(text):
    """The 64 squares of an OpenSpiel othello state, row 1 (the top) first: 0 Black, 1 White, -1 empty."""
    rows = [line for line in text.split("\n") if line[:1].isdigit()]
    assert len(rows) == 8, text
    marks = {"x": 0, "o": 1, "-": -1}
    return [marks[c] for row in rows for c in row.split()[1:9]]


def hex_move(action):
    return "abcdefghijk"[action % 11] + str(action // 11 + 1)


def hex_cells(text):
    """The 121 cells of an OpenSpiel hex state, row 1 (the top) first: 0 Black, 1 White, -1 empty."""
    rows = text.split("\n")
    assert len(rows) == 11, text
    marks = {"x": 0, "o": 1, ".": -1}
    return [marks[c] for row in rows for c in row.split()]


# Per OpenSpiel game: the Keli file and options, an action id as Keli's move text, and the
# position as the values of the Keli table that holds it (with how to read that table).
GAMES = {
    "othello": dict(file="games/reversi.keli", params={}, move=othello_move, cells=othello_cells, table="stone"),
    "hex": dict(file="games/hex.keli", params={}, move=hex_move, cells=hex_cells, table="stone"),
}


def records(name):
    """Each game of a records file: (its first line, the lines of its moves, its final line)."""
    games, current = [], None
    with open(os.path.join(RECORDS, name + ".jsonl")) as f:
        for line in f:
            r = json.loads(line)
            if "game" in r:
                current = [r, []]
            elif r.get("end"):
                games.append((current[0], current[1], r))
            else:
                current[1].append(r)
    return games


def position(state, table):
    return [int(v) for v in state.observation()[table]]


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("engine", ["interp", "native"])
def test_openspiel_records_replay(name, engine, cache_dir):
    glue = GAMES[name]
    game = keli.load_game(os.path.join(ROOT, glue["file"]), glue["params"], engine=engine, cache_dir=cache_dir)
    played = records(name)
    assert len(played) >= 20
    for first, moves, end in played:
        where = f"{name} game {first['index']}"
        state = game.new_initial_state()
        assert position(state, glue["table"]) == glue["cells"](first["state"]), where
        legal = first["legal_next"]
        for m in moves:
            at = f"{where}, ply {m['ply']}"
            keli_legal = sorted(state.action_to_string(a) for a in state.legal_actions())
            assert keli_legal == sorted(glue["move"](a) for a in legal), at
            assert glue["move"](m["action"]) == m["action_str"], at
            assert state.current_player() == m["player"], at
            state.apply_move(m["action_str"])
            assert position(state, glue["table"]) == glue["cells"](m["state"]), at
            legal = m["legal_next"]
        assert state.is_terminal() == end["terminal"], where
        assert list(state.returns()) == end["returns"], where
