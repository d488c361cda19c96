# OpenSpiel's own records of random backgammon games (tests/reference/openspiel/backgammon.jsonl) replayed on
# games/backgammon.keli (rules = openspiel), each OpenSpiel action of two checkers as one or two Keli moves of one.
import os
import re

import pytest

import keli
from conftest import ROOT
from test_reference_records import records

GAME = os.path.join(ROOT, "games", "backgammon.keli")
PARAMS = {"rules": "openspiel", "scoring": "single"}
PASS = 1351  # OpenSpiel's action id of a pass
BAR, NONE = 24, 25  # a half-move's start: the bar, or no half-move at all
# The board of OpenSpiel's ToString: 13 lines, points 12..17 | 18..23 along the top (line 1 the edge), points
# 11..6 | 5..0 along the bottom (line 11 the edge); the column of each point by its absolute index.
COLUMN = [13 - p if p < 6 else 12 - p if p < 12 else p - 11 if p < 18 else p - 10 for p in range(24)]


def point_cells(count, seat, top):
    """The 5 cells OpenSpiel draws for a point, the edge's first: at most 5 checkers; a count of 6 to 9 as its
    digit on the edge; 10 or more as `1` and the last digit in the two outermost cells, read top to bottom."""
    cells = ["xo"[seat]] * min(count, 5) + ["."] * (5 - min(count, 5))
    if count >= 10:
        cells[0:2] = ["1", str(count % 10)] if top else [str(count % 10), "1"]
    elif count > 5:
        cells[0] = str(count)
    return "".join(cells)


def read_point(cells, top):
    """A point's (count, seat) from its 5 cells, the edge's first; seat -1 when it is empty."""
    seat = 0 if "x" in cells else 1 if "o" in cells else -1
    if cells[0].isdigit() and cells[1].isdigit():
        count = 10 + int(cells[1] if top else cells[0])
    elif cells[0].isdigit():
        count = int(cells[0])
    else:
        count = len(cells.rstrip("."))
    assert count == 0 or point_cells(count, seat, top) == cells, cells
    return count, seat


def parse_state(text):
    """OpenSpiel's ToString as a position: the 24 points' (count, seat) by absolute index, then the checkers
    on the bar and those borne off, each [X's, O's]. Also the dice, (low, high) or ()."""
    lines = text.split("\n")
    assert lines[0] == lines[12] == "+------|------+" and lines[6] == "|      |      |", text
    points = []
    for p in range(24):
        rows = range(1, 6) if p >= 12 else range(11, 6, -1)  # from the edge inwards
        points.append(read_point("".join(lines[r][COLUMN[p]] for r in rows), p >= 12))
    info = dict(line.split(":", 1) for line in lines[13:] if ":" in line and not line.startswith("Scores"))
    bar = re.fullmatch(r"(?: (x*)(o*))?", info["Bar"])
    assert bar and info["Bar"] != " ", text
    scores = re.search(r"^Scores, X: (\d+), O: (\d+)$", text, re.M)
    dice = info["Dice"].strip()
    assert re.fullmatch(r"([1-6])([1-6])|", dice) and dice == "".join(sorted(dice)), text  # never a used die
    position = (points, [len(bar.group(1) or ""), len(bar.group(2) or "")], [int(scores[1]), int(scores[2])])
    return position, tuple(int(d) for d in dice)


def number(player, point):
    """A point's number from the mover's side: X's absolute index i reads as 24 - i, O's as i + 1."""
    return 24 - point if player == 0 else point + 1


def half_move(position, player, start, die):
    """Keli's text of one checker moved from `start` (24: the bar) by `die` on `position`, and the position
    after it (a single opposing checker on the destination goes to its owner's bar)."""
    points, bar, off = list(position[0]), list(position[1]), list(position[2])
    if start == BAR:
        assert bar[player] > 0, (position, player, start)
        bar[player] -= 1
        source, to = "bar", die - 1 if player == 0 else 24 - die
    else:
        count, seat = points[start]
        assert count > 0 and seat == player, (position, player, start)
        points[start] = (count - 1, seat if count > 1 else -1)
        source, to = str(number(player, start)), start + die if player == 0 else start - die
    if not 0 <= to < 24:
        off[player] += 1
        return f"{source}/off" + (f"({die})" if die > int(source) else ""), (points, bar, off)
    count, seat = points[to]
    text = f"{source}/{number(player, to)}"
    if seat == 1 - player:
        assert count == 1, (position, player, start, die)
        text, count = text + "*", 0
        bar[seat] += 1
    points[to] = (count + 1, player)
    return text, (points, bar, off)


def half_moves(action, dice):
    """An OpenSpiel decision as its half-moves, [(start, die)], none for a pass: id = d1 * 26 + d0 (+ 676 when
    the first half-move uses the lower die), d0 and d1 the starts of the first and the second (25: none)."""
    if action == PASS:
        return []
    low, high = dice
    d0, d1 = action % 676 % 26, action % 676 // 26
    first, second = (low, high) if action >= 676 else (high, low)
    assert d0 != NONE and (action < 676 or low != high), action
    return [(d0, first)] + ([(d1, second)] if d1 != NONE else [])


def decision_texts(position, player, legal, dice):
    """Keli's texts of the first half-moves of OpenSpiel's legal actions ("pass" for a pass), and for each the
    texts of the second half-moves that may follow it (on the position after it)."""
    firsts, seconds = set(), {}
    for action in legal:
        moves = half_moves(action, dice)
        if not moves:
            firsts.add("pass")
            continue
        text, after = half_move(position, player, *moves[0])
        firsts.add(text)
        if len(moves) == 2:
            seconds.setdefault(text, set()).add(half_move(after, player, *moves[1])[0])
    return firsts, seconds


def total_checkers(position):
    points, bar, off = position
    return [sum(n for n, s in points if s == p) + bar[p] + off[p] for p in (0, 1)]


def roll_dice(record):
    """The two dice of a chance line's `(roll: AB)`, in OpenSpiel's order."""
    roll = re.search(r"\(roll: ([1-6])([1-6])\)$", record["action_str"])
    return int(roll[1]), int(roll[2])


def roll_text(record):
    """Keli's text of a chance outcome: the opening roll (OpenSpiel's pair (a, b) is O's die, X's die) as
    `roll X O`, a later roll as `roll LOW HIGH`."""
    a, b = roll_dice(record)
    return f"roll {b} {a}" if record["ply"] == 0 else f"roll {min(a, b)} {max(a, b)}"


def test_backgammon_records_parse_and_apply():
    """Without Keli: the ToString parser and the half-move applier the replay uses reproduce every position."""
    start = parse_state(records("backgammon")[0][0]["state"])[0]  # first, Keli's texts of a few half-moves
    blot = ([(1, 0) if p == 21 else (0, -1) for p in range(24)], [0, 1], [14, 14])
    home = ([(5, 0) if p == 18 else (10, 0) if p == 21 else (0, -1) for p in range(24)], [0, 0], [0, 15])
    assert [half_move(start, 0, 11, 5)[0], half_move(start, 1, 12, 6)[0], half_move(blot, 1, BAR, 3)[0]] == \
        ["13/8", "13/7", "bar/22*"]
    assert [half_move(home, 0, 18, 6)[0], half_move(home, 0, 21, 5)[0]] == ["6/off", "3/off(5)"]
    assert half_move(blot, 1, BAR, 3)[1] == ([(1, 1) if p == 21 else (0, -1) for p in range(24)], [1, 0], [14, 14])
    played = records("backgammon")
    assert len(played) == 20
    seen = dict(decisions=0, extra=0, hits=0, passes=0, bear_offs=0, low_first=0, single=0)
    for first, moves, end in played:
        where = f"backgammon game {first['index']}"
        (position, dice), legal, extra, mover, turn = parse_state(first["state"]), first["legal_next"], False, None, "*"
        assert total_checkers(position) == [15, 15] and first["legal_next"] == list(range(30)), where
        for m in moves:
            at = f"{where}, ply {m['ply']}"
            assert turn == ("*" if m["player"] == "chance" else "xo"[m["player"]]), at  # ToString's `Turn:`
            after, next_dice = parse_state(m["state"])
            assert total_checkers(after) == [15, 15], at
            turn = re.search(r"^Turn: (.)$", m["state"], re.M)[1]
            if m["player"] == "chance":
                a, b = roll_dice(m)
                assert after == position and next_dice == (min(a, b), max(a, b)), at
                if m["ply"] == 0:  # the opening: an even id X starts, with the higher die
                    starter = 0 if m["action"] % 2 == 0 else 1
                    assert a != b and (b > a) == (starter == 0), at
                    assert f"{'XO'[starter]} starts" in m["action_str"] and turn == "xo"[starter], at
                else:
                    assert m["action"] < 36 and turn == "xo"[1 - mover], at  # the roll goes to the opponent
            else:
                named = "Pass" if m["action"] == PASS else f"{m['action']} - "
                assert m["action"] in legal and m["action_str"].startswith(named), at
                decision_texts(position, m["player"], legal, dice)  # every legal action applies
                texts, moved = [], position
                for start, die in half_moves(m["action"], dice):
                    text, moved = half_move(moved, m["player"], start, die)
                    texts.append(text)
                hit, bear_off = any("*" in t for t in texts), any("/off" in t for t in texts)
                assert moved == after, at
                assert hit == ("*" in m["action_str"]) and bear_off == ("Off" in m["action_str"]), at
                mover, seen["decisions"], seen["extra"] = m["player"], seen["decisions"] + 1, seen["extra"] + extra
                seen["hits"] += hit
                seen["bear_offs"] += bear_off
                seen["passes"] += m["action"] == PASS
                seen["low_first"] += m["action"] >= 676 and m["action"] != PASS
                seen["single"] += m["action"] != PASS and m["action"] % 676 // 26 == NONE
                if "Extra turn: 1" in m["state"]:  # a double's second decision: the same player, the same dice
                    assert dice[0] == dice[1] and next_dice == dice and turn == "xo"[mover], at
            position, dice, legal, extra = after, next_dice, m["legal_next"], "Extra turn: 1" in m["state"]
        assert end["terminal"] and end["plies"] == len(moves), where
        winner = 0 if position[2][0] == 15 else 1
        assert position[2][winner] == 15 and end["returns"] == [1.0 if p == winner else -1.0 for p in (0, 1)], where
    # OpenSpiel's README counts over a larger set of games (542 extra decisions, 1058 plies with a hit, 194
    # passes); these are the 20 games' own
    assert seen == dict(decisions=1898, extra=268, hits=442, passes=82, bear_offs=214, low_first=602,
                        single=57), seen


def keli_position(state):
    """Keli's position in the form of parse_state: sites 0..23 the points, 24/25 the bars, 26/27 borne off."""
    obs = state.observation()
    men, side = [int(v) for v in obs["men"]], [int(v) for v in obs["side"]]
    assert len(men) == 28, men
    return [(men[s], side[s]) for s in range(24)], [men[24], men[25]], [men[26], men[27]]


def keli_texts(state):
    return sorted(set(state.action_to_string(a) for a in state.legal_actions()))


def apply_text(state, text, at):
    found = [a for a in state.legal_actions() if state.action_to_string(a) == text]
    assert found, f"{at}: no {text!r} among {keli_texts(state)}"
    state.apply_action(found[0])


@pytest.mark.parametrize("engine", ["interp", "native"])
def test_backgammon_records_replay(engine, cache_dir):
    game = keli.load_game(GAME, PARAMS, engine=engine, cache_dir=cache_dir)
    played = records("backgammon")
    assert len(played) >= 20
    for first, moves, end in played:
        where = f"backgammon game {first['index']}"
        state = game.new_initial_state()
        (position, dice), legal = parse_state(first["state"]), first["legal_next"]
        assert keli_position(state) == position, where
        for m in moves:
            at = f"{where}, ply {m['ply']}"
            if m["player"] == "chance":
                assert state.is_chance_node(), at
                text = roll_text(m)
                if m["ply"] > 0:  # a later roll: 1/36 a double, 1/18 any other
                    p = sum(q for a, q in state.chance_outcomes() if state.action_to_string(a) == text)
                    assert p == pytest.approx(1 / 36 if text[-1] == text[-3] else 1 / 18), at
                apply_text(state, text, at)
            else:
                player = m["player"]
                assert state.current_player() == player, at
                firsts, seconds = decision_texts(position, player, legal, dice)
                assert keli_texts(state) == sorted(firsts), at
                chosen = half_moves(m["action"], dice)
                text, after = half_move(position, player, *chosen[0]) if chosen else ("pass", position)
                apply_text(state, text, at)
                if len(chosen) == 2:
                    assert state.current_player() == player and keli_position(state) == after, at
                    assert keli_texts(state) == sorted(seconds[text]), at
                    apply_text(state, half_move(after, player, *chosen[1])[0], at)
                else:  # the turn is over: no second move in this ply
                    assert state.current_player() != player, at
            position, dice = parse_state(m["state"])
            assert keli_position(state) == position, at
            legal = m["legal_next"]
        assert state.is_terminal() == end["terminal"], where
        assert [float(r) for r in state.returns()] == [float(r) for r in end["returns"]], where
