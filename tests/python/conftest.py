# Shared fixtures of the Python module's tests: where the keli binary, the games and a cache are.
import glob
import os
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
