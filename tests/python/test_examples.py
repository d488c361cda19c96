# docs/python.md's learning example, small: the TD(0) value function of
# docs/examples/kalah_td.py, trained on 100 self-play games from the observation tensor, beats
# a random player (the full run, 2,000 games, is the docs' learning curve).
import os
import sys

from conftest import ROOT

sys.path.insert(0, os.path.join(ROOT, "docs", "examples"))
import kalah_td  # noqa: E402


def test_the_kalah_value_function_learns_to_beat_random():
    curve, weights = kalah_td.learn(100, points=2)
    untrained, trained = curve[0][1], curve[-1][1]
    assert curve[-1][0] == 100
    # Untrained (all weights 0) it plays about as random does; trained, it wins most games.
    assert untrained < 0.65 and trained >= 0.85, curve
    assert weights.any()
