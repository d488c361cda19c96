#!/usr/bin/env python3
# Steps a second a Python learner gets from keli (docs/python.md, "Batches"): random legal
# play over a batch of states with keli.legal_actions_masks and keli.apply_actions, the same
# with one state at a time, and the cost of one call of the single-state API. A benchmark, not a
# test: run it alone on a quiet machine. Usage:
#   PYTHONPATH=build/python python3 tools/bench/python_steps.py [GAME] [--batch N] [--seconds S]
import argparse
import random
import time

import numpy as np

import keli


def batched(game, batch, seconds, rng):
    states = [game.new_initial_state() for _ in range(batch)]
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        masks = keli.legal_actions_masks(states)
        # A random legal action a row: the largest of random numbers kept only where legal.
        actions = (rng.random(masks.shape) * masks).argmax(axis=1)
        ended = keli.apply_actions(states, actions)
        steps += batch
        for i in np.flatnonzero(ended):
            states[i] = game.new_initial_state()
    return steps / (time.perf_counter() - start)


def one_at_a_time(game, seconds):
    rng = random.Random(1)
    state, steps, start = game.new_initial_state(), 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        state.apply_action(rng.choice(state.legal_actions()))
        steps += 1
        if state.is_terminal():
            state = game.new_initial_state()
    return steps / (time.perf_counter() - start)


def call_cost(game, calls=200_000):
    state = game.new_initial_state()
    start = time.perf_counter()
    for _ in range(calls):
        state.current_player()
    return (time.perf_counter() - start) / calls


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("game", nargs="?", default="kalah")
    ap.add_argument("--batch", type=int, default=1024)
    ap.add_argument("--seconds", type=float, default=5.0)
    args = ap.parse_args()
    rng = np.random.default_rng(1)
    for engine in ("native", "interp"):
        game = keli.load_game(args.game, engine=engine)
        print(f"{args.game} {engine:7} batch of {args.batch}: {batched(game, args.batch, args.seconds, rng):12,.0f} steps/s")
        print(f"{args.game} {engine:7} one state:      {one_at_a_time(game, args.seconds):12,.0f} steps/s")
        print(f"{args.game} {engine:7} one call (current_player): {call_cost(game) * 1e9:,.0f} ns")


if __name__ == "__main__":
    main()
