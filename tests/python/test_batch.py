# The batched API (docs/python.md, "Batches"): keli.apply_actions and keli.legal_actions_masks
# step many states in one call and must agree, state by state, with the single-state API; a bad
# argument is a keli.Error naming the state or the argument, and leaves the states it names as
# they were.
import os
import random

import numpy as np
import pytest

import keli
from conftest import ROOT

KALAH = os.path.join(ROOT, "games", "kalah.keli")
RAJA_PASU = os.path.join(ROOT, "games", "raja_pasu.keli")


def random_legal(mask_row, rng):
    return rng.choice([i for i, x in enumerate(mask_row) if x])


@pytest.mark.parametrize("path", [KALAH, RAJA_PASU])
def test_batch_agrees_with_single_states(path):
    game = keli.load_game(path)
    rng = random.Random(7)
    batch = [game.new_initial_state() for _ in range(16)]
    alone = [s.clone() for s in batch]
    for _ in range(200):
        masks = keli.legal_actions_masks(batch)
        assert masks.dtype == np.int8 and masks.shape[0] == len(batch)
        for row, s in zip(masks, alone):
            assert [i for i, x in enumerate(row) if x] == s.legal_actions()
        actions = [random_legal(row, rng) for row in masks]
        ended = keli.apply_actions(batch, np.array(actions))
        for s, a in zip(alone, actions):
            s.apply_action(a)
        assert list(ended) == [s.is_terminal() for s in alone]
        assert batch == alone
        for i in np.flatnonzero(ended):
            batch[i] = game.new_initial_state()
            alone[i] = game.new_initial_state()


def test_a_failing_state_is_named_and_later_states_are_untouched():
    game = keli.load_game(KALAH)
    states = [game.new_initial_state() for _ in range(3)]
    before = [s.serialize() for s in states]
    legal = states[0].legal_actions()
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in legal)
    with pytest.raises(keli.Error, match=r"states\[1\]"):
        keli.apply_actions(states, [legal[0], illegal, legal[0]])
    assert states[0].serialize() != before[0]  # stepped: it came before the failing one
    assert [s.serialize() for s in states[1:]] == before[1:]


@pytest.mark.parametrize(
    "states, actions, message",
    [
        ("not a list", [0], "states must be a list"),
        ([1, 2], [0, 0], r"states\[0\] is no keli.State"),
        (None, "ab", "actions must be a list"),
        (None, [0, 1], "2 actions for 1 states"),
        (None, np.zeros((1, 1), dtype=np.int64), "1-D array"),
        (None, [2**70], "action id"),
    ],
)
def test_bad_arguments_are_keli_errors(states, actions, message):
    game = keli.load_game(KALAH)
    if states is None:
        states = [game.new_initial_state()]
    with pytest.raises(keli.Error, match=message):
        keli.apply_actions(states, actions)


def test_masks_of_games_with_different_widths_are_refused():
    a = keli.load_game(KALAH).new_initial_state()
    b = keli.load_game(RAJA_PASU).new_initial_state()
    if a.get_game().num_distinct_actions() == b.get_game().num_distinct_actions():
        pytest.skip("these games have the same width")
    with pytest.raises(keli.Error, match="different numbers of action ids"):
        keli.legal_actions_masks([a, b])


def test_an_empty_batch():
    assert keli.apply_actions([], []).shape == (0,)
    assert keli.legal_actions_masks([]).shape == (0, 0)


def test_without_numpy_the_calls_say_so(tmp_path):
    # A Python whose numpy does not import: a keli.Error with the way out, not an ImportError.
    import subprocess
    import sys

    (tmp_path / "numpy").mkdir()
    (tmp_path / "numpy" / "__init__.py").write_text("raise ImportError('no numpy here')\n")
    code = (
        "import keli\n"
        f"g = keli.load_game({KALAH!r})\n"
        "for call in (lambda: keli.legal_actions_masks([g.new_initial_state()]),\n"
        "             lambda: keli.apply_actions([g.new_initial_state()], [0]),\n"
        "             lambda: g.new_initial_state().observation()):\n"
        "    try:\n"
        "        call()\n"
        "    except keli.Error as e:\n"
        "        assert 'numpy does not import' in str(e), e\n"
        "    else:\n"
        "        raise SystemExit('no error')\n"
        "print('ok')\n"
    )
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), env.get("PYTHONPATH", "")])
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr


def test_action_arrays_must_hold_whole_numbers():
    game = keli.load_game(KALAH)
    state = game.new_initial_state()
    for bad in (np.array([0.0]), np.array([True])):
        with pytest.raises(keli.Error, match="whole numbers"):
            keli.apply_actions([state], bad)
    keli.apply_actions([state], np.array([state.legal_actions()[0]], dtype=np.uint8))


def test_states_replaced_by_another_thread_outlive_the_call():
    # The batch holds each state while it runs without the GIL: a thread replacing the list's
    # items meanwhile frees nothing the batch is stepping.
    import threading

    game = keli.load_game(KALAH)
    states = [game.new_initial_state() for _ in range(256)]
    stop = threading.Event()

    def replace():
        while not stop.is_set():
            for i in range(len(states)):
                states[i] = game.new_initial_state()

    t = threading.Thread(target=replace)
    t.start()
    try:
        for _ in range(50):
            keli.legal_actions_masks(states)
            actions = [(s.legal_actions() or [0])[0] for s in list(states)]
            try:
                keli.apply_actions(states, actions)
            except keli.Error:
                pass  # a state replaced (or ended) since its action was chosen: refused, never a crash
    finally:
        stop.set()
        t.join()
