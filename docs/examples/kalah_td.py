"""docs/python.md's learning example: a value function for Kalah learned by TD(0), numpy only.

The value of a state for a seat is a weighted sum of the observation tensor as that seat sees it
(keli's observation_tensor(seat): its own pits and store first), the same weights for both
seats. Self-play: the seat to move takes the move whose child it values most (now and then a
random one, to explore), and after every step both seats' values move towards the next state's
(the returns at the end). Every so often the greedy player meets a random one, half the games
from each seat; the win rates are drawn as a learning curve, saved as docs/img/kalah_td.png.
Run from the repository with the module built:

    PYTHONPATH=build/python python3 docs/examples/kalah_td.py [TRAINING_GAMES] [--no-picture]
"""
import os
import random
import sys

import numpy as np

import keli

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ALPHA = 0.1  # step size of the TD updates at the start, ALPHA / (1 + games / DECAY) later
DECAY = 300
EXPLORE = 0.3  # how often self-play takes a random move
SCALE = 1.0 / 48  # a Kalah board holds 48 seeds: features of about 0 to 1
EVAL_GAMES = 100  # games against random at each point of the curve


def features(state, seat):
    """The tensor as `seat` sees it, the same again when it is that seat's turn (a position is
    worth more to the side that moves in it), a bias and the turn."""
    seen = state.observation_tensor(seat) * SCALE
    mine = 1.0 if not state.is_terminal() and state.current_player() == seat else 0.0
    return np.concatenate([seen, seen * mine, [1.0, mine]])


def value(w, state, seat):
    if state.is_terminal():
        return state.returns()[seat]
    return float(np.tanh(w @ features(state, seat)))


def greedy(w, state, rng, explore=0.0):
    legal = state.legal_actions()
    if rng.random() < explore:
        return rng.choice(legal)
    seat = state.current_player()
    return max(legal, key=lambda a: value(w, state.child(a), seat))


def train_game(w, game, rng, alpha):
    state = game.new_initial_state()
    while not state.is_terminal():
        after = state.child(greedy(w, state, rng, EXPLORE))
        for seat in range(2):  # TD(0) for both seats' views, through tanh
            x = features(state, seat)
            v = np.tanh(w @ x)
            w += alpha * (value(w, after, seat) - v) * (1 - v * v) * x
        state = after


def win_rate(w, game, rng, games=EVAL_GAMES):
    wins = 0.0
    for g in range(games):
        learner = g % 2  # half the games from each seat
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == learner:
                state.apply_action(greedy(w, state, rng))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        r = state.returns()[learner]
        wins += 1.0 if r > 0 else 0.5 if r == 0 else 0.0
    return wins / games


def learn(training_games, points=10, seed=1):
    """The learning curve: (games trained, win rate against random) at `points` points."""
    game = keli.load_game(os.path.join(ROOT, "games", "kalah.keli"))
    rng = random.Random(seed)
    w = np.zeros(2 * game.observation_tensor_size() + 2)
    # The games against random draw from their own generator: the training is the same
    # whatever the curve's points.
    judge = random.Random(seed + 1)
    curve = [(0, win_rate(w, game, judge))]
    # Points closer together early, where the curve climbs.
    at = {max(1, round(training_games * (i / points) ** 2)) for i in range(1, points + 1)}
    for trained in range(1, training_games + 1):
        train_game(w, game, rng, ALPHA / (1 + trained / DECAY))
        if trained in at:
            curve.append((trained, win_rate(w, game, judge)))
    return curve, w


def draw(curve, path):
    import matplotlib

    matplotlib.use("Agg")  # no display needed: the picture goes to a file
    import matplotlib.pyplot as plt

    plt.figure(figsize=(7, 4))
    plt.plot([c[0] for c in curve], [c[1] for c in curve], marker="o", color="#4a7ab5")
    plt.axhline(0.5, color="grey", linestyle=":")
    plt.ylim(0, 1)
    plt.title(f"Kalah: TD(0) value function against random ({EVAL_GAMES} games a point)")
    plt.xlabel("self-play games trained")
    plt.ylabel("win rate against random")
    plt.tight_layout()
    plt.savefig(path, dpi=100)


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    curve, _ = learn(int(args[0]) if args else 2000)
    for trained, rate in curve:
        print(f"{trained:6} games trained: {rate:.2f} against random")
    if "--no-picture" not in sys.argv:
        out = os.path.join(ROOT, "docs", "img", "kalah_td.png")
        draw(curve, out)
        print(f"learning curve: {os.path.relpath(out, ROOT)}")
