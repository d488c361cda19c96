#!/usr/bin/env python3
# The playground in a real browser (docs/web.md): serves build-web's site on localhost, opens it
# in Debian's headless Chromium (through chromedriver) and, for each seed game, plays a whole
# game by clicking its legal moves on the board (a bounded number of clicks; then the computer
# plays every seat to the end), checks that a broken file typed into the editor shows the
# diagnostic `keli validate` gives, with its line and column, and steps through a trace in the
# viewer. Screenshots of the boards and the page are written to OUT/screenshots/.
import argparse
import functools
import http.server
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from webdriver import ELEMENT, Browser, WebDriverError, free_port  # noqa: E402

SEED_GAMES = ["games/raja_pasu.keli", "games/pahada_keliya.keli", "games/pagade_kayi_ata_4_players.keli"]
BOARD_MOVES = 10        # moves each game has played by clicks on the board, every seat a person's
MAX_CLICKED = 120       # decisions clicked at most (throws and passes are clicked on the list)
GAME_TIMEOUT_S = 600    # the rest of one game, computers at every seat
STEP_TIMEOUT_S = 60     # one step of the page (a load, a move, a check)


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def serve(site):
    handler = functools.partial(QuietHandler, directory=site)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


STATE = "return {status: document.body.dataset.status, ply: Keli.page.view && Keli.page.view.ply, " \
        "steps: Keli.page.view && Keli.page.view.steps}"


def state(b):
    return b.js(STATE)


def wait_settled(b):
    """Waits until the page waits for a person or the game is over."""
    return b.wait("const s = document.body.dataset.status; return (s === 'human' || s === 'over' || "
                  "s === 'error' || s === 'broken') && s", STEP_TIMEOUT_S, "the page to settle")


def set_seats(b, spec):
    b.js("for (const s of document.querySelectorAll('#seats select')) { s.value = arguments[0]; "
         "s.dispatchEvent(new Event('change')); }", spec)


covered = [0]  # clicks on sites that WebDriver found covered


def click_move(b, k):
    """Plays legal move k by clicking its sites on the board (then a die, if asked); the list's
    button when the board cannot tell it. Returns 'board' or 'list'."""
    before = state(b)["steps"]
    move = b.js("const m = document.querySelectorAll('#moves button.move')[arguments[0]]; "
                "return {text: m.textContent, sites: m.dataset.sites.split(' ').filter(x => x !== '')}", k)
    for site in move["sites"]:
        el = b.find(f"#board [data-site='{site}']")
        try:
            b.click(el)
        except WebDriverError as e:  # covered by a piece drawn over it: the click reaches the site anyway
            covered[0] += 1
            if covered[0] == 1:
                print(f"(a site's centre is covered, clicked by an event instead: {str(e)[:200]})")
            b.js("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", {ELEMENT: el})
        if state(b)["steps"] != before:
            return "board"
        pick = b.js("const p = [...document.querySelectorAll('#pick button')]"
                    ".find(x => x.textContent === arguments[0]); return p || null", move["text"])
        if pick:
            b.click(pick[ELEMENT])
            return "board"
    b.click(b.find(f"#moves li:nth-child({k + 1}) button"))
    return "list"


def play_game(b, game, shots):
    b.js("const s = document.getElementById('game-select'); s.value = arguments[0]; "
         "s.dispatchEvent(new Event('change'));", game)
    set_seats(b, "human")
    b.click(b.find("#new-game"))
    counts = {"board": 0, "list": 0}
    for i in range(MAX_CLICKED):
        if wait_settled(b) != "human" or counts["board"] >= BOARD_MOVES:
            break
        # A move the board can show (one naming or changing sites), when there is one; else a listed
        # one (a throw, a pass).
        on_board = b.js("return [...document.querySelectorAll('#moves button.move')].map((m, k) => "
                        "m.dataset.sites ? k : -1).filter(k => k >= 0)")
        n = b.js("return document.querySelectorAll('#moves button.move').length")
        counts[click_move(b, on_board[(i * 7) % len(on_board)] if on_board else (i * 7) % n)] += 1
    wait_settled(b)
    name = os.path.splitext(os.path.basename(game))[0]
    b.screenshot(b.find("#board svg"), os.path.join(shots, f"{name}.png"))
    b.screenshot(None, os.path.join(shots, f"{name}_page.png"))
    set_seats(b, "random")
    start = time.time()
    b.wait("return document.body.dataset.status === 'over' || document.body.dataset.status === 'error'",
           GAME_TIMEOUT_S, f"{game} to end")
    result = b.js("return document.getElementById('result').textContent")
    st = state(b)
    if st["status"] != "over" or not result.startswith("Result:"):
        raise AssertionError(f"{game}: the game did not end well: {st}, {result!r}")
    b.screenshot(b.find("#board svg"), os.path.join(shots, f"{name}_end.png"))
    if counts["board"] == 0:
        raise AssertionError(f"{game}: no move could be played by clicking the board: {counts}")
    print(f"{game}: {counts['board']} moves by clicks on the board, {counts['list']} from the list, "
          f"then {st['steps']} steps in all in {time.time() - start:.1f} s; {result}")


def check_editor(b, keli, work):
    """A broken file typed into the editor shows the diagnostic keli validate gives."""
    good = open("games/raja_pasu.keli").read()
    broken = good.replace("counters[h] = seeds", "counters[h] = seedz", 1)  # a name misspelt
    if broken == good:
        raise AssertionError("games/raja_pasu.keli no longer has the line the editor check breaks")
    path = os.path.join(work, "raja_pasu.keli")
    with open(path, "w") as f:
        f.write(broken)
    out = subprocess.run([keli, "validate", "--json", "--no-tests", path], capture_output=True, text=True)
    want = [d for d in json.loads(out.stdout) if d["severity"] == "error"][0]
    b.js("const s = document.getElementById('game-select'); s.value = 'games/raja_pasu.keli'; "
         "s.dispatchEvent(new Event('change'));")
    b.click(b.find("#tab-edit"))
    ed = b.find("#editor")
    b.js("document.body.dataset.checked = ''")
    # Typed for real, in two parts: the text, then the last key that the debounced check follows.
    b.js("arguments[0].value = arguments[1]", {ELEMENT: ed}, broken[:-1])
    b.send_keys(ed, broken[-1])
    got = b.wait("return document.body.dataset.checked && [...document.querySelectorAll('#diagnostics li.error')]"
                 ".map(li => ({line: +li.dataset.line, column: +li.dataset.column, "
                 "text: li.querySelector('.summary').textContent, hint: (li.querySelector('.hint') || {}).textContent}))",
                 STEP_TIMEOUT_S, "the editor's diagnostics")
    first = got[0]
    if (first["line"], first["column"]) != (want["line"], want["column"]) or want["message"] not in first["text"]:
        raise AssertionError(f"editor: got {first}, keli validate says {want}")
    print(f"editor: {first['text']} ({first['hint']})")
    # Mended, the file checks clean again and plays.
    b.js("document.body.dataset.checked = ''; arguments[0].value = arguments[1]", {ELEMENT: ed}, good[:-1])
    b.send_keys(ed, good[-1])
    summary = b.wait("return document.body.dataset.checked && document.getElementById('diag-summary').textContent",
                     STEP_TIMEOUT_S, "the mended file's check")
    if not summary.startswith("0 errors"):
        raise AssertionError(f"editor: the mended file still has errors: {summary}")
    set_seats(b, "human")
    b.click(b.find("#edit-play"))
    if wait_settled(b) != "human" or not b.js("return !document.getElementById('pane-play').hidden"):
        raise AssertionError("editor: 'Play this file' did not start the game")


def check_trace(b, keli, work, shots):
    trace = os.path.join(work, "raja_pasu_seed3.jsonl")
    subprocess.run([keli, "run", "games/raja_pasu.keli", "--seed", "3", "--trace", trace], check=True,
                   capture_output=True)
    steps = sum(1 for _ in open(trace)) - 2  # the header and the result
    b.click(b.find("#tab-trace"))
    b.send_keys(b.find("#trace-file"), os.path.abspath(trace))
    b.wait("return document.body.dataset.traceStep === '0'", STEP_TIMEOUT_S, "the trace to open")
    info = b.js("return document.getElementById('trace-info').textContent")
    if f"{steps} steps" not in info:
        raise AssertionError(f"trace: the viewer says {info!r}, the trace has {steps} steps")
    for k in range(1, 4):
        b.click(b.find("#trace-next"))
        b.wait(f"return document.body.dataset.traceStep === '{k}'", STEP_TIMEOUT_S, f"step {k}")
    b.click(b.find("#trace-last"))
    b.wait(f"return document.body.dataset.traceStep === '{steps}'", STEP_TIMEOUT_S, "the last step")
    b.screenshot(b.find("#trace-board svg"), os.path.join(shots, "trace_last.png"))
    last = b.js("return document.getElementById('trace-step').textContent")
    print(f"trace: {info}; stepped 1-3 and to step {steps}: {last}")


def main():
    # A CTest timeout's SIGTERM still closes the browser (the finally below).
    signal.signal(signal.SIGTERM, lambda *a: sys.exit("terminated"))
    ap = argparse.ArgumentParser()
    ap.add_argument("--site", required=True)
    ap.add_argument("--keli", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    ap.add_argument("--chromedriver", default=shutil.which("chromedriver") or "/usr/bin/chromedriver")
    ap.add_argument("--games", nargs="*", default=SEED_GAMES)
    a = ap.parse_args()
    shots = os.path.join(a.out, "screenshots")
    os.makedirs(shots, exist_ok=True)
    server = serve(a.site)
    work = tempfile.mkdtemp(prefix="keli-web-test-")
    b = Browser(a.chromedriver, a.chromium, os.path.join(work, "profile"), os.path.join(a.out, "chromedriver.log"))
    try:
        b.go(f"http://127.0.0.1:{server.server_address[1]}/index.html")
        wait_settled(b)
        for g in a.games:
            play_game(b, g, shots)
        check_editor(b, a.keli, work)
        check_trace(b, a.keli, work, shots)
        errors = b.js("return window.keliErrors || []")
        if errors:
            raise AssertionError(f"the page reported errors: {errors}")
    finally:
        b.close()
        server.shutdown()
        shutil.rmtree(work, ignore_errors=True)
    print(f"screenshots in {shots}")


if __name__ == "__main__":
    main()
