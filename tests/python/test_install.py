# The module installs where Python finds it: `cmake --install` puts it in a folder on the
# sys.path of a fresh virtual environment (with the system's site packages), and
# `pip install --no-build-isolation .` from the checkout gives an importable module there. pip
# uses this build's folder (KELI_BUILD_DIR), so it only links the module again.
import os
import re
import subprocess
import sys

import pytest

from conftest import ROOT

BUILD = os.environ.get("KELI_BUILD_DIR", os.path.join(ROOT, "build"))
USE = "import keli; g = keli.load_game('kalah', engine='interp'); s = g.new_initial_state(); " \
      "s.apply_action(s.legal_actions()[0]); print(keli.__file__, len(s.history()))"


# The environment of a fresh shell: without the suite's PYTHONPATH (which points at the build).
CLEAN_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}


def cached(name):
    with open(os.path.join(BUILD, "CMakeCache.txt")) as f:
        m = re.search(rf"^{name}:[A-Z]+=(.*)$", f.read(), re.M)
    return m.group(1) if m else None


def fresh_env(tmp_path):
    env_dir = tmp_path / "venv"
    subprocess.run([cached("KELI_PYTHON_EXECUTABLE") or sys.executable, "-m", "venv", "--system-site-packages",
                    str(env_dir)], check=True)
    return env_dir / "bin" / "python"


def test_cmake_install_puts_the_module_on_sys_path(tmp_path):
    python = fresh_env(tmp_path)
    folder = cached("KELI_PYTHON_INSTALL_DIR")
    path = subprocess.run([python, "-c", "import sys; print('\\n'.join(sys.path))"], capture_output=True, text=True,
                          check=True, env=CLEAN_ENV).stdout.split("\n")
    assert folder in path, f"{folder} is not on a fresh environment's sys.path: {path}"
    stage = tmp_path / "stage"
    subprocess.run(["cmake", "--install", BUILD, "--component", "Unspecified"],
                   env={**os.environ, "DESTDIR": str(stage)}, check=True, capture_output=True)
    staged = str(stage) + folder
    assert any(f.startswith("keli") and f.endswith(".so") for f in os.listdir(staged))
    r = subprocess.run([python, "-c", f"import sys; sys.path.insert(0, {staged!r}); " + USE], capture_output=True,
                       text=True, cwd=tmp_path, env=CLEAN_ENV)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith(staged)


def test_pip_install_from_the_checkout(tmp_path):
    python = fresh_env(tmp_path)
    r = subprocess.run([python, "-m", "pip", "install", "--no-build-isolation", "--no-index", "--no-deps", ROOT],
                       capture_output=True, text=True, env={**CLEAN_ENV, "KELI_BUILD_DIR": BUILD})
    assert r.returncode == 0, r.stdout + r.stderr
    r = subprocess.run([python, "-c", USE], capture_output=True, text=True, cwd=tmp_path, env=CLEAN_ENV)
    assert r.returncode == 0, r.stderr
    assert str(tmp_path / "venv") in r.stdout and r.stdout.strip().endswith(" 1")
