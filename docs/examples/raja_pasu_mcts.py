"""docs/python.md's example: mcts against random at Raja Pasu with the Python module keli.

One game step by step (each seat's player choosing an action id), then many games with
keli.simulate (without the GIL, over every core) and a histogram of their lengths, saved as
docs/img/raja_pasu_lengths.png. Run from the repository with the module built:

    PYTHONPATH=build/python python3 docs/examples/raja_pasu_mcts.py [GAMES]
"""
import os
import random
import sys

import matplotlib

matplotlib.use("Agg")  # no display needed: the picture goes to a file
import matplotlib.pyplot as plt

import keli

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MCTS = "mcts:iterations=200"
games = int(sys.argv[1]) if len(sys.argv) > 1 else 100

game = keli.load_game(os.path.join(ROOT, "games", "raja_pasu.keli"))  # native engine when it can
print(f"{game.name()}: {game.num_players()} players {game.seats()}, "
      f"{game.num_distinct_actions()} action ids, engine {game.engine()}")

# One game: South searches, North plays at random; a chance node (none in Raja Pasu) samples
# its outcomes with their probabilities.
players = [keli.Player(game, MCTS, seed=1), keli.Player(game, "random", seed=2)]
rng = random.Random(3)
state = game.new_initial_state()
while not state.is_terminal():
    if state.is_chance_node():
        ids, probs = zip(*state.chance_outcomes())
        state.apply_action(rng.choices(ids, weights=probs)[0])
    else:
        state.apply_action(players[state.current_player()].choose(state))
print(state)
print(f"after {state.move_number()} moves: places {state.places()}, returns {state.returns()}")

# Many games, the same seats: one record a game (places, returns, length in decisions, ...).
records = keli.simulate(game, n=games, players=[MCTS, "random"], seed=1, threads=os.cpu_count() or 1)
wins = sum(1 for r in records if r["returns"][0] > 0)
lengths = [r["length"] for r in records]
print(f"{games} games: mcts (South) won {wins}, mean length {sum(lengths) / len(lengths):.1f} decisions")

plt.figure(figsize=(7, 4))
plt.hist(lengths, bins=20, color="#4a7ab5", edgecolor="white")
plt.title(f"Raja Pasu: {MCTS} (South) against random\n{games} games, mcts won {wins}")
plt.xlabel("game length (decisions)")
plt.ylabel("games")
plt.tight_layout()
out = os.path.join(ROOT, "docs", "img", "raja_pasu_lengths.png")
plt.savefig(out, dpi=100)
print("histogram written to", os.path.relpath(out, ROOT))
