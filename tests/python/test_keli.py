# The Python module keli against the command line: the same games as `keli run` traces for the
# same seed, chance outcomes as `describe` gives them, and an OpenSpiel-style random simulation of
# every game (to the end, cloned mid-game, returns summing to zero); errors as keli.Error.
import json
import os
import random

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


def test_native_engine_plays_the_same_game(cache_dir):
    path = os.path.join(ROOT, "games", "raja_pasu.keli")
    try:
        native = keli.load_game(path, engine="native", cache_dir=cache_dir)
    except keli.Error as e:
        pytest.skip(f"no native engine here: {e}")
    assert native.engine() == "native"
    interp = keli.load_game(path, engine="interp")
    assert keli.simulate(native, n=3, seed=9) == keli.simulate(interp, n=3, seed=9)
