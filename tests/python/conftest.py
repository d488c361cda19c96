# Shared fixtures of the Python module's tests: where the keli binary, the games and a cache are.
import glob
import itertools
import json
import os
import re
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GAMES = sorted(glob.glob(os.path.join(ROOT, "games", "*.keli")))
# The seed games of the brief, each a base game and not a variant.
SEED_GAMES = [os.path.join(ROOT, "games", g + ".keli") for g in ("raja_pasu", "pahada_keliya", "pagade_kayi_ata")]


def keli_binary():
    return os.environ.get("KELI_BINARY", os.path.join(ROOT, "build", "keli"))


def run_keli(*args, check=True):
    r = subprocess.run([keli_binary(), *args], cwd=ROOT, capture_output=True, text=True)
    if check and r.returncode != 0:
        raise AssertionError(f"keli {' '.join(args)} failed ({r.returncode}): {r.stderr}")
    return r


@pytest.fixture(scope="session")
def cache_dir(tmp_path_factory):
    return str(tmp_path_factory.mktemp("native-cache"))


def battery_axes(path):
    """The parameters the random-play battery combines for a game (games/NAME.battery.yaml's
    `axes: [...]`), or None when the plan names none: then every bool and choice parameter."""
    plan = path[: -len(".keli")] + ".battery.yaml"
    if not os.path.exists(plan):
        return None
    with open(plan) as f:
        m = re.search(r"^axes:\s*\[([^\]]*)\]", f.read(), re.M)
    return None if m is None else [a.strip() for a in m.group(1).split(",") if a.strip()]


def option_sets(path):
    """Every option set of a game as the battery plays them (tests/unit/battery_test.cpp): each
    combination of the values of its bool and choice parameters on the battery's axes, as a
    params dict; the first is the defaults."""
    described = json.loads(run_keli("describe", path, "--json").stdout)
    axes = battery_axes(path)
    names, values = [], []
    for p in described["params"]:
        if axes is not None and p["name"] not in axes:
            continue
        default = p["default"]
        if p["type"] == "bool":
            choices = [default == "true", default != "true"]
        elif p["allowed"]:  # named choices, or whole numbers from a list
            typed = int if p["type"].startswith("int") else str
            choices = [typed(default)] + [typed(a) for a in p["allowed"] if a != default]
        else:
            continue
        names.append(p["name"])
        values.append(choices)
    return [dict(zip(names, combo)) for combo in itertools.product(*values)]
