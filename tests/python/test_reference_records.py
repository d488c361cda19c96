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


# OpenSpiel numbers the 24 points of nine men's morris row by row down its picture (0, 1, 2 the
# outer square's top; 9, 10, 11 and 12, 13, 14 the middle row); games/nine_mens_morris.keli goes
# round each square clockwise from its top left corner, the outer square first. Keli's point of
# each OpenSpiel point, and where OpenSpiel's picture shows it (line, column).
MORRIS_POINT = [0, 1, 2, 8, 9, 10, 16, 17, 18, 7, 15, 23, 19, 11, 3, 22, 21, 20, 14, 13, 12, 6, 5, 4]
MORRIS_PICTURE = [(0, 0), (0, 7), (0, 14), (2, 2), (2, 7), (2, 12), (4, 4), (4, 7), (4, 10), (6, 0), (6, 2),
                  (6, 4), (6, 10), (6, 12), (6, 14), (8, 4), (8, 7), (8, 10), (10, 2), (10, 7), (10, 12),
                  (12, 0), (12, 7), (12, 14)]


def morris_text(action):
    """OpenSpiel's own text of an action: a point (placing or taking), or a move FROM -> TO."""
    if action < 24:
        return f"Point {action}"
    return f"Move {(action - 24) // 24} -> {(action - 24) % 24}"


def morris_move(action, state):
    """Keli's text of an OpenSpiel action: a point placed (`5`) or taken (`x5`), a move `3-4`."""
    if action >= 24:
        return f"{MORRIS_POINT[(action - 24) // 24]}-{MORRIS_POINT[(action - 24) % 24]}"
    return ("x" if "Capture time" in state else "") + str(MORRIS_POINT[action])


def morris_cells(text):
    """The 24 points in Keli's order: 0 White, 1 Black, -1 empty."""
    lines = text.split("\n")
    marks = {"W": 0, "B": 1}
    cells = [-1] * 24
    for point, (line, column) in enumerate(MORRIS_PICTURE):
        cells[MORRIS_POINT[point]] = marks.get(lines[line][column], -1)
    return cells


def connect_four_cells(text):
    """The 42 cells of an OpenSpiel connect_four state, the top row first: 0 x (Red), 1 o (Yellow), -1 empty."""
    rows = text.split("\n")[:6]
    assert len(rows) == 6 and all(len(r) == 7 for r in rows), text
    return [{"x": 0, "o": 1, ".": -1}[c] for row in rows for c in row]


def connect_four_move(action, state):
    """Keli's text of a drop: the cell where the disc comes to rest, `d1` the bottom of column d."""
    filled = sum(1 for row in state.split("\n")[:6] if row[action] != ".")
    return "abcdefg"[action] + str(filled + 1)


# OpenSpiel's breakthrough: action ((row * 8 + column) * 6 + direction) * 2 + capture, row 0 the top
# (labelled 8); Black's directions 0..2 go down the board, White's 3..5 up it.
BREAKTHROUGH_STEPS = [(1, -1), (1, 0), (1, 1), (-1, -1), (-1, 0), (-1, 1)]


def breakthrough_move(action, _=None):
    """OpenSpiel's text of an action, which is Keli's too: from, to and `*` for a capture (`d5e4*`)."""
    cell, capture = divmod(action, 2)
    cell, direction = divmod(cell, 6)
    row, column = divmod(cell, 8)
    dr, dc = BREAKTHROUGH_STEPS[direction]
    square = lambda r, c: "abcdefgh"[c] + str(8 - r)
    return square(row, column) + square(row + dr, column + dc) + ("*" if capture else "")


def breakthrough_cells(text):
    """The 64 cells of an OpenSpiel breakthrough state, row 8 (the top) first: 0 b (Black), 1 w (White), -1 empty."""
    rows = [line[1:] for line in text.split("\n") if line[:1].isdigit()]
    assert len(rows) == 8, text
    return [{"b": 0, "w": 1, ".": -1}[c] for row in rows for c in row]


# OpenSpiel's checkers: action ((row * 8 + column) * 4 + direction) * 2 + jump, row 0 the top (Black's
# side, as Keli's points 1..4); Keli numbers the 32 dark squares row by row from there, as draughts
# notation does. OpenSpiel's player 0 is White, Keli's seat 1.
CHECKERS_STEPS = [(-1, -1), (-1, 1), (1, 1), (1, -1)]


def checkers_squares(action):
    cell, jump = divmod(action, 2)
    cell, direction = divmod(cell, 4)
    row, column = divmod(cell, 8)
    dr, dc = CHECKERS_STEPS[direction]
    reach = 2 if jump else 1
    return (row, column), (row + reach * dr, column + reach * dc), jump


def checkers_text(action, _=None):
    """OpenSpiel's own text: the from and to squares, `e3f4`."""
    square = lambda rc: "abcdefgh"[rc[1]] + str(8 - rc[0])
    start, end, _jump = checkers_squares(action)
    return square(start) + square(end)


def checkers_move(action, _=None):
    """Keli's text: draughts notation on the points 1..32, `22-18` or `23x14`."""
    point = lambda rc: (rc[0] * 8 + rc[1]) // 2 + 1
    start, end, jump = checkers_squares(action)
    return f"{point(start)}{'x' if jump else '-'}{point(end)}"


def checkers_cells(text):
    """The 32 dark squares of an OpenSpiel checkers state, Keli's points in order: 0 a Black man, 1 a
    White man, 2 a Black king, 3 a White king, -1 empty."""
    rows = [line[1:9] for line in text.split("\n") if line[:1].isdigit()]
    assert len(rows) == 8, text
    marks = {"+": 0, "o": 1, "*": 2, "8": 3, ".": -1}
    return [marks[rows[r][c]] for r in range(8) for c in range(8) if (r + c) % 2 == 1]


def draughts_position(state):
    obs = state.observation()
    man_at, king = [int(v) for v in obs["man_at"]], [int(v) for v in obs["king"]]
    return [-1 if pc < 0 else (0 if pc < 12 else 1) + (2 if king[pc] else 0) for pc in man_at]


# Per OpenSpiel game: the Keli file and options, an action id as Keli's move text (given the
# OpenSpiel state it is played in), OpenSpiel's own text of it (checked against the record), and
# the position as the values of the Keli table that holds it (`owner` turns a cell into a seat).
GAMES = {
    "othello": dict(file="games/reversi.keli", params={}, move=lambda a, _: othello_move(a), text=lambda a, _: othello_move(a),
                    cells=othello_cells, table="stone"),
    "hex": dict(file="games/hex.keli", params={}, move=lambda a, _: hex_move(a), text=lambda a, _: hex_move(a), cells=hex_cells,
                table="stone"),
    "breakthrough": dict(file="games/breakthrough.keli", params={}, move=breakthrough_move,
                         text=breakthrough_move, cells=breakthrough_cells, table="stone"),
    "checkers": dict(file="games/english_draughts.keli", params={"rules": "openspiel"}, move=checkers_move,
                     text=checkers_text, cells=checkers_cells, position=draughts_position, seat=lambda p: 1 - p),
    "connect_four": dict(file="games/connect_four.keli", params={}, move=connect_four_move,
                         text=lambda a, player: "xo"[player] + str(a), cells=connect_four_cells, table="stone"),
    "nine_mens_morris": dict(file="games/nine_mens_morris.keli", params={"rules": "openspiel"}, move=morris_move,
                             text=lambda a, _: morris_text(a), cells=morris_cells, table="occupant",
                             owner=lambda pc: -1 if pc < 0 else pc // 9),
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


def position(state, glue):
    if "position" in glue:
        return glue["position"](state)
    owner = glue.get("owner", lambda v: v)
    return [owner(int(v)) for v in state.observation()[glue["table"]]]


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
        assert position(state, glue) == glue["cells"](first["state"]), where
        legal, before = first["legal_next"], first["state"]
        for m in moves:
            at = f"{where}, ply {m['ply']}"
            keli_legal = sorted(state.action_to_string(a) for a in state.legal_actions())
            assert keli_legal == sorted(glue["move"](a, before) for a in legal), at
            assert glue["text"](m["action"], m["player"]) == m["action_str"], at
            assert state.current_player() == glue.get("seat", lambda p: p)(m["player"]), at
            state.apply_move(glue["move"](m["action"], before))
            assert position(state, glue) == glue["cells"](m["state"]), at
            legal, before = m["legal_next"], m["state"]
        assert state.is_terminal() == end["terminal"], where
        seat = glue.get("seat", lambda p: p)
        assert [state.returns()[seat(p)] for p in range(2)] == end["returns"], where
