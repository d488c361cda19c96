# The Python module keli against the command line: the same games as `keli run` traces for the
# same seed, chance outcomes as `describe` gives them, and an OpenSpiel-style random simulation of
# every game (to the end, cloned mid-game, returns summing to zero); errors as keli.Error.
import json
import os
import random
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import keli
from conftest import GAMES, ROOT, SEED_GAMES, run_keli


def name(path):
    return os.path.basename(path)


def trace_lines(path, seed, tmp_path):
    out = tmp_path / "t.jsonl"
    run_keli("run", path, "--seed", str(seed), "--quiet", "--trace", str(out), "--trace-every", "25",
             "--record-legal")
    with open(out) as f:
        return [json.loads(line) for line in f]


@pytest.mark.parametrize("path", SEED_GAMES, ids=name)
@pytest.mark.parametrize("seed", [1, 7])
def test_module_replays_keli_run_traces(path, seed, tmp_path):
    lines = trace_lines(path, seed, tmp_path)
    game = keli.load_game(path, engine="interp")
    state = game.new_initial_state()
    for line in lines[1:]:
        if "result" in line:
            assert state.is_terminal()
            assert state.places() == line["result"]["places"]
            assert state.move_number() == line["result"]["moves"]
            assert abs(sum(state.returns())) < 1e-9
            break
        if line.get("chance"):
            assert state.is_chance_node() and state.current_player() == keli.CHANCE_PLAYER
            ids = [a for a in state.legal_actions() if state.action_to_string(a) == line["move"]]
            assert len(ids) == 1, line
            state.apply_action(ids[0])
        else:
            assert state.current_player() == line["player"]
            legal = state.legal_actions()
            assert legal == line["legal"]
            ids = [a for a in legal if state.action_to_call(a) == line["move"]]
            assert state.action_to_string(ids[0]) == line["notation"]
            assert len(ids) == 1, line
            state.apply_action(ids[0])
        assert state.ply() == line["ply"]
        if "state" in line:
            assert json.loads(state.to_json()) == line["state"]
    else:
        pytest.fail("the trace has no result line")


@pytest.mark.parametrize("path", [g for g in GAMES if "pagade" in g or "pahada" in g], ids=name)
def test_chance_outcomes_sum_to_one_and_match_describe(path):
    described = json.loads(run_keli("describe", path, "--json").stdout)
    dice = {d["name"]: d for d in described["dice"]}
    game = keli.load_game(path, engine="interp")
    assert game.max_chance_outcomes() == described["actions"]["max_chance_outcomes"]
    state = game.new_initial_state()
    rng = random.Random(5)
    chance_nodes = 0
    while not state.is_terminal() and chance_nodes < 30:
        if state.is_chance_node():
            chance_nodes += 1
            outcomes = state.chance_outcomes()
            exact = state.chance_outcomes_exact()
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            assert sum(w for _, w, _ in exact) == exact[0][2]
            # Some dice set of the game lists exactly these throws, by id, with these weights.
            matches = [d for d in dice.values()
                       if [(t["id"], t["weight"], d["total_weight"]) for t in d["throws"]] == exact]
            assert matches, exact
            throws = matches[0]["throws"]
            for (i, _, _), t in zip(exact, throws):
                assert state.action_to_string(i) == "roll " + " ".join(str(v) for v in t["values"])
            state.apply_action(rng.choice([a for a, _ in outcomes]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert chance_nodes > 0


def play_randomly(state, rng, steps=None):
    taken = 0
    while not state.is_terminal() and (steps is None or taken < steps):
        legal = state.legal_actions()
        assert legal == sorted(set(legal))
        if state.is_chance_node():
            assert state.current_player() == keli.CHANCE_PLAYER
            ids, probs = zip(*state.chance_outcomes())
            action = rng.choices(ids, weights=probs)[0]
        else:
            assert state.current_player() >= 0
            action = rng.choice(legal)
            state.action_to_string(action)
        state.apply_action(action)
        taken += 1
    return taken


@pytest.mark.parametrize("path", GAMES, ids=name)
def test_random_simulation_of_every_game(path):
    game = keli.load_game(path, engine="interp")
    n = game.num_players()
    rng = random.Random(3)
    state = game.new_initial_state()
    assert state.returns() == [0.0] * n
    play_randomly(state, rng, steps=20)
    ended_early = state.is_terminal()  # a short game may be over within those 20 steps
    clone = state.clone()
    before = str(clone)
    for s in (state, clone):
        play_randomly(s, rng)
        assert s.is_terminal()
        assert s.current_player() == keli.TERMINAL_PLAYER
        assert s.legal_actions() == []
        r = s.returns()
        assert len(r) == n
        assert all(game.min_utility() <= x <= game.max_utility() for x in r)
        assert sum(r) == pytest.approx(game.utility_sum())
    assert ended_early or str(clone) != before or clone.ply() > 20  # the clone went on by itself
    obs = state.observation()
    assert isinstance(obs.array, np.ndarray) and obs.array.dtype == np.int32
    assert obs.fixed["ply"] == state.ply()
    assert list(obs.fixed["places"]) == state.places()


def test_observation_views_and_text_board():
    game = keli.load_game(os.path.join(ROOT, "games", "raja_pasu.keli"), engine="interp")
    state = game.new_initial_state()
    obs = state.observation()
    counters = obs["counters"]
    assert counters.shape == (14,)
    assert counters.sum() == 98 and (counters == 7).all()
    assert np.shares_memory(counters, obs.array)
    assert "7" in str(state)
    assert state.action_to_call(3) == "sow 3"
    assert state.action_to_string(3) == "sow hole 4 (7)"
    state.apply_action(3)
    assert state.current_player() == 1


def test_errors_carry_keli_positioned_messages(tmp_path):
    bad = tmp_path / "bad.keli"
    bad.write_text('game "x"\nplayers 2\nboard {\n  let = 3\n}\n')
    with pytest.raises(keli.Error, match=r"bad.keli:4:\d+: error: .*\[E001\]"):
        keli.load_game(str(bad))
    raja = os.path.join(ROOT, "games", "raja_pasu.keli")
    with pytest.raises(keli.Error, match=r"E301"):
        keli.load_game(raja, params={"holes": 99})
    game = keli.load_game(raja, params={"holes": 5, "skip_origin": True}, engine="interp")
    assert game.num_distinct_actions() == 11
    state = game.new_initial_state()
    with pytest.raises(keli.Error, match=r"the move 'sow 7' \(action 7\) is not legal here \[E705\]"):
        state.apply_action(7)
    with pytest.raises(keli.Error, match=r"no action id of this game"):
        state.apply_action(10**6)
    with pytest.raises(keli.Error, match=r"no throw"):
        state.apply_throw([1])
    assert state.ply() == 0  # every failed step leaves the state as it was


def test_simulate_records_and_threads():
    game = keli.load_game(os.path.join(ROOT, "games", "raja_pasu.keli"), engine="interp")
    one = keli.simulate(game, n=12, seed=4, threads=1)
    two = keli.simulate(game, n=12, seed=4, threads=2)
    assert one == two
    assert [r["index"] for r in one] == list(range(12))
    report = json.loads(run_keli("simulate", "games/raja_pasu.keli", "-n", "12", "--seed", "4", "--threads", "1",
                                 "--json", "--engine", "interp").stdout)
    assert np.mean([r["length"] for r in one]) == pytest.approx(report["results"]["length"]["mean"], abs=0.006)
    assert all(abs(sum(r["returns"])) < 1e-9 and r["error"] is None for r in one)
    with pytest.raises(keli.Error, match="wizard"):
        keli.simulate(game, n=1, players=["wizard"])


def test_points_are_the_returns_of_a_game_that_scores_them(tmp_path):
    # Kalah scored by the margin: each seat's points (the stores' difference) are its returns, as
    # the trace's result and the records of keli simulate give them; a game without points has none.
    path = os.path.join(ROOT, "games", "kalah_margin.keli")
    lines = trace_lines(path, 3, tmp_path)
    game = keli.load_game(path, engine="interp")
    state = game.new_initial_state()
    for line in lines[1:]:
        if "result" in line:
            break
        state.apply_action([a for a in state.legal_actions() if state.action_to_call(a) == line["move"]][0])
    assert state.is_terminal()
    assert state.points() == line["result"]["points"] and state.places() == line["result"]["places"]
    assert state.returns() == [float(p) for p in state.points()]
    assert state.points()[0] == -state.points()[1] != 0
    games = keli.simulate(game, n=20, seed=4)
    records = tmp_path / "r.jsonl"
    run_keli("simulate", path, "-n", "20", "--seed", "4", "--engine", "interp", "--records", str(records))
    rows = [json.loads(l) for l in records.read_text().splitlines()[1:]]
    assert [g["points"] for g in games] == [r["points"] for r in rows]
    assert all(g["returns"] == [float(p) for p in g["points"]] for g in games)
    plain = keli.load_game(os.path.join(ROOT, "games", "kalah.keli"), engine="interp").new_initial_state()
    assert plain.points() == []
    assert "points" not in keli.simulate(keli.load_game(os.path.join(ROOT, "games", "kalah.keli")), n=1)[0]


def test_native_engine_plays_the_same_game(cache_dir):
    path = os.path.join(ROOT, "games", "raja_pasu.keli")
    try:
        native = keli.load_game(path, engine="native", cache_dir=cache_dir)
    except keli.Error as e:
        pytest.skip(f"no native engine here: {e}")
    assert native.engine() == "native"
    interp = keli.load_game(path, engine="interp")
    assert keli.simulate(native, n=3, seed=9) == keli.simulate(interp, n=3, seed=9)


RAJA = os.path.join(ROOT, "games", "raja_pasu.keli")


def bad_arguments(tmp_path):
    """(call, message) for arguments out of range or of the wrong kind: each a keli.Error."""
    game = keli.load_game(RAJA, engine="interp")
    state = game.new_initial_state()
    a_file = tmp_path / "a_file"
    a_file.write_text("")
    load = keli.load_game
    return [
        (lambda: load(RAJA, engine="interp", budget=2**40),
         r"budget \(0: the game's 'limit work'\) must be a whole number from 0 to 1000000000, not 1099511627776"),
        (lambda: load(RAJA, engine="interp", budget=-1), r"budget .* from 0 to 1000000000, not -1 "),
        (lambda: load(RAJA, engine="interp", budget=1.5), r"budget .*, not 1.5 \(float\)"),
        (lambda: load(RAJA, engine="interp", budget=True), r"budget .*, not True \(bool\)"),
        (lambda: load(RAJA, engine="interp", params={"holes": 2**100}), r"E301"),
        (lambda: load(RAJA, engine="interp", params={"holes": 1.5}),
         r"the value of parameter 'holes' must be a bool, an int or a str, not float"),
        (lambda: load(RAJA, engine="interp", params={"holes\0": 5}), r"a parameter's name 'holes\\x00' holds a NUL"),
        (lambda: load(RAJA, engine="interp", params=[("holes", 5)]), r"params must be a dict"),
        (lambda: load(RAJA + "\0a"), r"path '.*raja_pasu.keli\\x00a' holds a NUL character"),
        (lambda: load(42), r"path must be a path \(a str or an os.PathLike\), not int"),
        (lambda: load(RAJA, engine="warp"), r"engine must be 'interp', 'native' or 'auto', not 'warp'"),
        (lambda: load(RAJA, engine="native", cache_dir=str(a_file)), r"the cache " + str(a_file)),
        (lambda: keli.simulate(game, n=0), r"n \(games\) must be a whole number from 1 to 1000000000000, not 0"),
        (lambda: keli.simulate(game, n=2**70), r"n \(games\) .*, not 1180591620717411303424"),
        (lambda: keli.simulate(game, n=1, seed=-1), r"seed must be a whole number from 0 to 18446744073709551615"),
        (lambda: keli.simulate(game, n=1, seed=2**64), r"seed must be .*, not 18446744073709551616"),
        (lambda: keli.simulate(game, n=1, threads=0), r"threads must be a whole number from 1 to 1024, not 0"),
        (lambda: keli.simulate(game, n=1, threads=2**31), r"threads .*, not 2147483648"),
        (lambda: keli.simulate(game, n=1, players="random"), r"players must be a list of player specs"),
        (lambda: keli.simulate(game, n=1, players=[7]), r"a player spec must be a str, not int"),
        (lambda: keli.Player(game, "random", seed=-5), r"seed must be .*, not -5"),
        (lambda: keli.Player(game, "random", seed=2**64), r"seed must be .*, not 18446744073709551616"),
        (lambda: state.apply_action(2**100), r"1267650600228229401496703205376 is no action id of this game \(0 to 14\)"),
        (lambda: state.apply_action(-2**100), r"-1267650600228229401496703205376 is no action id of this game"),
        (lambda: state.apply_action(-1), r"-1 \(no action id of this game\) is not legal here"),
        (lambda: state.apply_action("3"), r"action must be an action id, a whole number, not '3' \(str\)"),
        (lambda: state.apply_action(None), r"action must be an action id, a whole number, not None \(NoneType\)"),
        (lambda: state.action_to_string(2**64), r"18446744073709551616 is no action id of this game"),
        (lambda: state.action_to_call(2**64), r"18446744073709551616 is no action id of this game"),
        (lambda: state.action_to_string(5, 3), r"player \(a seat, or keli.CHANCE_PLAYER\) must be .* -1 to 1, not 5"),
        (lambda: state.legal_actions(2**63), r"player .* from -1 to 1, not 9223372036854775808"),
        (lambda: state.apply_throw([2**40]),
         r"a die's face must be a whole number from -2147483648 to 2147483647, not 1099511627776"),
        (lambda: state.apply_throw(7), r"values must be a list of the dice's faces"),
        (lambda: state.apply_move("sow\0 3"), r"notation 'sow\\x00 3' holds a NUL character"),
        (lambda: state.apply_move(3), r"notation must be a str, not int"),
    ], state


def test_bad_arguments_raise_keli_error(tmp_path):
    calls, state = bad_arguments(tmp_path)
    for call, message in calls:
        with pytest.raises(keli.Error, match=message):
            call()
    assert state.ply() == 0  # nothing was applied
    # numpy's integers are numbers like Python's.
    assert state.legal_actions(np.int32(0)) == state.legal_actions()
    state.apply_action(np.int64(state.legal_actions()[0]))
    assert state.ply() == 1
    # OpenSpiel's legal_actions(player): none for a seat that is not to act.
    assert state.legal_actions(1 - state.current_player()) == []
    # The ends of the range are taken: 0 (the game's own) and kMaxWorkBudget, the largest --budget.
    for budget in (0, 1_000_000_000):
        assert keli.load_game(RAJA, engine="interp", budget=budget).engine() == "interp"


def test_a_long_step_lets_other_threads_run():
    # Two nested loops of 10^7 rounds: the step stops at the default work budget (E601) after a
    # second or so, during which this thread must go on (the step has let go of the GIL): it
    # wakes every millisecond, and some of its wakings fall in the middle half of the step.
    game = keli.load_game(os.path.join(ROOT, "tests", "budget", "nested_loops.keli"), engine="interp")
    state = game.new_initial_state()
    done, span, errors = threading.Event(), [], []

    def step():
        span.append(time.monotonic())
        try:
            state.apply_action(state.legal_actions()[0])
        except keli.Error as e:
            errors.append(str(e))
        span.append(time.monotonic())
        done.set()

    worker = threading.Thread(target=step)
    worker.start()
    wakings = []
    while not done.is_set():
        time.sleep(0.001)
        wakings.append(time.monotonic())
    worker.join()
    assert len(errors) == 1 and "E601" in errors[0] and "work budget" in errors[0]
    quarter = (span[1] - span[0]) / 4
    assert len([t for t in wakings if span[0] + quarter < t < span[1] - quarter]) > 10
    assert state.ply() == 0


# States of one game stepped from four threads at once (each takes the game's lock in turn), the
# first observation() of the process among them: each playout is the one its seed gives alone.
CONCURRENT = r"""
import random, sys, threading
import keli
game = keli.load_game(sys.argv[1], engine="interp")
def playout(seed):
    rng = random.Random(seed)
    state = game.new_initial_state()
    state.observation()
    while not state.is_terminal():
        if state.is_chance_node():
            ids, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(ids, weights=probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state.ply(), state.returns()
together = {}
threads = [threading.Thread(target=lambda s=s: together.__setitem__(s, playout(s))) for s in range(4)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(all(together[s] == playout(s) for s in range(4)))
"""


def test_states_of_one_game_stepped_from_several_threads():
    game = os.path.join(ROOT, "games", "pahada_keliya.keli")
    r = subprocess.run([sys.executable, "-c", CONCURRENT, game], capture_output=True, text=True, timeout=300)
    assert r.stdout.strip() == "True", r.stderr


@pytest.mark.parametrize("path", SEED_GAMES, ids=name)
def test_rules_is_the_rulebook_of_keli_rules(path):
    # game.rules() is `keli rules` (same words, same options folded in), in every format.
    game = keli.load_game(path, engine="interp")
    for fmt in ("text", "md", "html"):
        expected = run_keli("rules", path, "--format", fmt).stdout
        assert game.rules(fmt) == expected
    assert game.rules() == game.rules("text")
    with pytest.raises(keli.Error, match="text, md or html"):
        game.rules("pdf")


def test_why_not_says_the_failed_test_in_words():
    game = keli.load_game(os.path.join(ROOT, "games", "raja_pasu.keli"), engine="interp")
    state = game.new_initial_state()
    # South to move: North's holes are not South's to sow; every South hole holds 7 counters.
    assert "is legal now" in state.why_not("sow hole 1 (7)")
    why = state.why_not("sow hole 9 (7)")
    assert "no rule of the sowing phase reads" in why and "sow hole 1 (7)" in why
