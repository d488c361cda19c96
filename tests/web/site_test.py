#!/usr/bin/env python3
# The game site with its real parts (docs/serve.md): `keli serve` on a loopback port with a
# temporary SQLite database and the page built by tools/web/build.sh, played by two headless
# Chromium sessions through Selenium (python3-selenium), one the size of a phone (390x844) and one
# of a desktop (1400x900), as two people in one room reached by its shared link. Raja Pasu is
# played to its end by clicking (the board's sites, or the move buttons); one page is reloaded
# mid-game and resumes its seat; the server is stopped and started again mid-game and both pages
# reconnect and go on; the finished game's steps are read back from SQLite, match the history the
# pages show and replay with `keli replay --moves`. Pahada Keliya is played by two people and two
# computer players; a rematch is asked for and both people are seated in it again. Pagade Kayi Ata
# is played to its end by two people and fourteen greedy computer players, the people's taps made
# inside the pages (AUTOPLAY: its thousand moves through WebDriver would take minutes more), and
# its records checked the same way. On the phone no page is wider than the screen and every
# control is a 44 px target. Screenshots of each seed game at both sizes go to --shots (docs/img
# when made for the docs).
import argparse
import json
import os
import random
import sqlite3
import subprocess
import sys
import tempfile
import time

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "serve"))
from keli_serve import KeliServe  # noqa: E402

PHONE, DESKTOP = (390, 844), (1400, 900)
RELOAD_AT, RESTART_AT = 40, 90  # the steps at which a page is reloaded and the server restarted
MAX_PERSON_MOVES = 3000         # a game whose people have made this many moves without an end fails
WAIT_S = 60                     # the longest wait for one thing the page should do
TAP_MIN = 44                    # px: the least height of a control one taps
GAMES = ["raja_pasu", "pahada_keliya", "pagade_kayi_ata"]  # the seed games' rooms, played in this order


def browser(size, profile):
    o = webdriver.ChromeOptions()
    o.binary_location = "/usr/bin/chromium"
    for flag in ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", f"--user-data-dir={profile}",
                 f"--window-size={size[0]},{size[1]}"]:
        o.add_argument(flag)
    d = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=o)
    # The window's inner size is what a phone shows: set the viewport exactly.
    d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": size[0], "height": size[1],
                                                             "deviceScaleFactor": 1, "mobile": size == PHONE})
    return d


def wait(d, what, check, timeout=WAIT_S):
    end = time.time() + timeout
    while time.time() < end:
        try:
            v = check()
            if v:
                return v
        except (StaleElementReferenceException, WebDriverException):
            pass
        time.sleep(0.05)
    errors = d.execute_script("return window.keliErrors")
    raise AssertionError(f"timed out waiting for {what}; page errors {errors}; status "
                         f"{d.execute_script('return document.body.dataset.status')}; "
                         f"{d.find_element(By.ID, 'status').text!r}")


def js(d, script, *args):
    return d.execute_script(script, *args)


def view(d):
    """The page's newest view of its room, without the picture (one round trip, a small answer)."""
    return js(d, "const v = KeliOnline.state.view; return v && {room: v.room, you: v.you, steps: v.steps, "
                 "over: v.over, chance: v.chance, mover: v.mover, choices: v.choices, rematch: v.rematch}")


def open_site(d, server, link=""):
    d.get(link or server.url())
    wait(d, "the page to connect to keli serve", lambda: js(d, "return document.body.dataset.online") == "connected")


def make_room(d, game, seats):
    d.find_element(By.ID, "tab-online").click()
    wait(d, "the library", lambda: js(d, "return document.getElementById('online-game').options.length") > 0)
    js(d, "const s = document.getElementById('online-game'); s.value = arguments[0];"
          "s.dispatchEvent(new Event('change'))", game)
    count = js(d, "return document.querySelectorAll('#online-seats select').length")
    for i in range(count):  # seats not listed are computer players
        kind = seats[i] if i < len(seats) else "random"
        js(d, "document.getElementById('online-seat-' + arguments[0]).value = arguments[1]", i, kind)
    d.find_element(By.ID, "online-create").click()
    v = wait(d, "the new room's view", lambda: view(d))
    return v["room"], d.find_element(By.ID, "room-link").get_attribute("value")


def sit(d, seat):
    wait(d, "an open seat", lambda: d.find_element(By.CSS_SELECTOR, f"button.sit[data-seat='{seat}']")).click()
    wait(d, "the seat taken", lambda: (view(d) or {}).get("you") == seat)


def waiting(d, before):
    """Whether the page still waits for this person's move in the position of `before` steps."""
    return js(d, "return document.body.dataset.status") == "human" and (view(d) or {}).get("steps") == before


def tap(d, site):
    js(d, "const el = document.querySelector(`#board .site[data-site='${arguments[0]}']`);"
          "if (el) el.dispatchEvent(new MouseEvent('click', {bubbles: true}))", site)


def play_one(d, rng):
    """One move by clicking: half the time the board's sites (then the die or the move by name when
    the taps leave a choice), else the move's button in the list."""
    v = view(d)
    before, choices = v["steps"], v["choices"]
    k = rng.randrange(len(choices))
    if choices[k]["sites"] and rng.random() < 0.5:
        for site in choices[k]["sites"]:
            tap(d, site)
            if not waiting(d, before):
                break
        if waiting(d, before):  # the taps leave a choice: taken by its name
            js(d, "const b = [...document.querySelectorAll('#pick button')].find((x) => x.textContent === arguments[0]);"
                  "if (b) b.click()", choices[k]["text"])
    if waiting(d, before):
        js(d, "Keli.page.selected = [];"
              "document.querySelector(`#moves button.move[data-index='${arguments[0]}']`)?.click()", k)
    wait(d, "the move's echo", lambda: not waiting(d, before)
         and js(d, "return document.body.dataset.status") != "sending")


def check_phone(d, label):
    """No page wider than the screen; each visible control at least TAP_MIN px high; the turn in view."""
    width = js(d, "return document.documentElement.scrollWidth")
    inner = js(d, "return window.innerWidth")
    if width > inner:
        raise AssertionError(f"{label}: the page is {width} px wide on a {inner} px screen")
    small = js(d, """return [...document.querySelectorAll('button, select, input:not([type=file])')]
        .filter((e) => e.offsetParent && e.getBoundingClientRect().height < arguments[0])
        .map((e) => (e.id || e.textContent) + ' ' + e.getBoundingClientRect().height)""", TAP_MIN)
    if small:
        raise AssertionError(f"{label}: controls under {TAP_MIN} px: {small[:8]}")


def check_why(d):
    """A tap on a site no offered move names: the server says why, in words, under the dice."""
    wait(d, "the first move", lambda: js(d, "return document.body.dataset.status") == "human")
    site = js(d, "const named = new Set(KeliOnline.state.view.choices.flatMap((c) => c.sites));"
                 "return [...document.querySelectorAll('#board .site')].map((e) => Number(e.dataset.site))"
                 ".find((x) => !named.has(x))")
    tap(d, site)
    text = wait(d, "why not", lambda: js(d, "const w = document.getElementById('why');"
                                          "return !w.hidden && w.textContent"))
    print(f"why not at site {site}: {text[:100]!r}")


def shot(d, shots, name):
    if shots:
        os.makedirs(shots, exist_ok=True)
        d.save_screenshot(os.path.join(shots, name))


def play_to_end(people, server, rng, events=True, shots=None, game=""):
    """The people play by clicking until the game ends; a reload and a restart on the way."""
    reloaded = restarted = False
    moves = 0
    while True:
        v = view(people[0][0])
        if v and v["over"]:
            return moves
        acted = False
        for d, seat in people:
            v = view(d)
            if v and not v["over"] and not v["chance"] and v["mover"] == seat and \
                    js(d, "return document.body.dataset.status") == "human":
                play_one(d, rng)
                moves += 1
                acted = True
                if moves == 6:
                    for dd, _ in people:
                        shot(dd, shots, f"site_{game}-{'phone' if dd.get_window_size()['width'] < 800 else 'desktop'}.png")
        steps = view(people[0][0])["steps"]
        if events and not reloaded and steps >= RELOAD_AT:
            reloaded = True
            d, seat = people[1]
            d.refresh()
            wait(d, "the reloaded page's seat", lambda: (view(d) or {}).get("you") == seat)
            print(f"  step {steps}: page reloaded, seat {seat} resumed")
        if events and not restarted and steps >= RESTART_AT:
            restarted = True
            server.stop()
            server.start()
            for d, seat in people:
                wait(d, "the page to reconnect", lambda: js(d, "return document.body.dataset.online") == "connected"
                     and (view(d) or {}).get("you") == seat and view(d)["steps"] >= steps)
            print(f"  step {steps}: server restarted; both pages reconnected to their seats")
        if moves > MAX_PERSON_MOVES:
            raise AssertionError(f"{moves} moves and the game has not ended")
        if not acted:
            time.sleep(0.05)


def check_records(server, room, pages, keli, game, tmp):
    """The database's steps: those the pages list, and a moves file that keli replay plays."""
    with sqlite3.connect(server.db) as db:
        rows = db.execute("SELECT n, action, text, seat FROM steps WHERE room = ? ORDER BY n", (room,)).fetchall()
        finished = db.execute("SELECT finished FROM rooms WHERE id = ?", (room,)).fetchone()[0]
    if [r[0] for r in rows] != list(range(len(rows))) or not finished:
        raise AssertionError(f"room {room}: steps numbered {[r[0] for r in rows][:10]}..., finished {finished}")
    for d in pages:
        shown = js(d, "return [...document.querySelectorAll('#history li')].map((li) => li.textContent)")
        if shown != [r[2] for r in rows]:
            raise AssertionError(f"the page's history ({len(shown)} steps) differs from the database's ({len(rows)})")
    moves = os.path.join(tmp, f"{room}.moves")
    with open(moves, "w") as f:
        for _, action, _, seat in rows:
            f.write(json.dumps({"move": action} if seat >= 0 else {"outcome": action}) + "\n")
    r = subprocess.run([keli, "replay", f"games/{game}.keli", "--moves", moves, "--quiet"], capture_output=True,
                       text=True, timeout=300)
    if r.returncode != 0:
        raise AssertionError(f"keli replay of the database's {len(rows)} steps: {r.stdout[-500:]} {r.stderr[-500:]}")
    return len(rows)


def raja_pasu(server, phone, desk, keli, tmp, shots, rng):
    open_site(desk, server)
    room, link = make_room(desk, "raja_pasu", ["person", "open"])
    open_site(phone, server, link)
    sit(phone, 1)
    check_phone(phone, "raja pasu, seated")
    check_why(desk)
    moves = play_to_end([(desk, 0), (phone, 1)], server, rng, shots=shots, game="raja_pasu")
    steps = check_records(server, room, [desk, phone], keli, "raja_pasu", tmp)
    print(f"raja pasu: {moves} moves clicked by two people, {steps} steps; the database replays")
    return room


def pahada(server, phone, desk, keli, tmp, shots, rng):
    desk.get(server.url())
    open_site(desk, server)
    room, link = make_room(desk, "pahada_keliya", ["person", "random", "open", "random"])
    open_site(phone, server, link)
    sit(phone, 2)
    check_phone(phone, "pahada keliya, seated")
    moves = play_to_end([(desk, 0), (phone, 2)], server, rng, events=False, shots=shots, game="pahada_keliya")
    steps = check_records(server, room, [desk, phone], keli, "pahada_keliya", tmp)
    print(f"pahada keliya: two people and two computers, {moves} moves clicked, {steps} steps")
    # A rematch: asked on the desktop; the phone follows to its seat.
    desk.find_element(By.ID, "rematch").click()
    wait(desk, "the rematch", lambda: (view(desk) or {}).get("room") not in (None, room) and view(desk)["you"] == 0)
    wait(phone, "the phone in the rematch", lambda: (view(phone) or {}).get("room") == view(desk)["room"]
         and view(phone)["you"] == 2)
    print(f"rematch: room {view(desk)['room']}, both people at their seats again")


# A person playing in the page itself, for a game too long to click through WebDriver (Pagade Kayi
# Ata: some 560 decisions a seat; WebDriver's round trips take some 0.2 s a move). Installed in a
# page, it runs until the game is over: at its seat's turn it taps the sites of the move chosen
# (click events on the board's elements, through the page's own handlers), then the move by its
# name when the page asks which, else the move's button; it waits for the server's echo and checks
# that the step made is that move, by its seat. The move chosen advances furthest: the most steps
# ("(N)"), or entering with the highest die, never a pass when another move is legal. No two moves
# of one page come within arguments[0] ms (the server's flood limit is 20 messages a second).
AUTOPLAY = """
const gap = arguments[0];
const A = window.keliAuto = {moves: 0, board: 0, list: 0, refused: 0, error: '', done: false};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const status = () => document.body.dataset.status;
const now = () => KeliOnline.state.view;
const mine = () => { const v = now(); return v && !v.over && !v.chance && v.you === v.mover && status() === 'human'; };
const score = (t) => {
  if (t === 'pass') return -1;
  const m = /\((\d+)\)$/.exec(t) || /with (\d+)$/.exec(t);
  return m ? Number(m[1]) : 0;
};
const click = (el) => el && el.dispatchEvent(new MouseEvent('click', {bubbles: true}));
(async () => {
  let last = -1e9;
  try {
    for (;;) {
      const v = now();
      if (v && v.over) break;
      if (!mine()) { await sleep(3); continue; }
      if (last + gap > performance.now()) { await sleep(last + gap - performance.now()); continue; }
      const before = v.steps, choices = v.choices;
      let k = 0;
      choices.forEach((c, i) => { if (score(c.text) > score(choices[k].text)) k = i; });
      const c = choices[k], sent = () => status() !== 'human' || now().steps !== before;
      let how = 'board';
      last = performance.now();
      for (const site of c.sites) {
        click(document.querySelector(`#board .site[data-site='${site}']`));
        if (sent()) break;
      }
      if (!sent()) click([...document.querySelectorAll('#pick button')].find((b) => b.textContent === c.text));
      if (!sent()) {
        how = 'list';
        Keli.page.selected = [];
        click(document.querySelector(`#moves button.move[data-index='${k}']`));
      }
      if (!sent()) throw new Error(`${c.text} could not be played by tapping`);
      const t0 = performance.now();
      while (now().steps === before && status() === 'sending') {
        if (performance.now() - t0 > 60000) throw new Error(`no answer to ${c.text} in 60 s`);
        await sleep(2);
      }
      if (now().steps === before) { A.refused++; continue; }  // refused (a flood): tried again
      const w = now();
      if (w.history[before] !== c.text || w.by[before] !== w.you)
        throw new Error(`tapped ${c.text}; step ${before} is ${w.history[before]} by seat ${w.by[before]}`);
      A.moves++;
      A[how]++;
    }
  } catch (e) { A.error = String(e); }
  A.done = true;
})();
"""
AUTOPLAY_GAP_MS = 50      # at most 20 moves a second from one page: the flood limit
PAGADE_TIMEOUT_S = 900    # the whole game of Pagade Kayi Ata, or the test fails


def autoplay(people, label, every=None):
    """Both people play in their pages (AUTOPLAY) to the end; every(steps) is called on the way."""
    for d, _ in people:
        js(d, AUTOPLAY, AUTOPLAY_GAP_MS)
    start = shown = time.time()
    while True:
        states = [js(d, "return window.keliAuto") for d, _ in people]
        for st in states:
            if st["error"]:
                raise AssertionError(f"{label}: {st['error']}")
        v = view(people[0][0])
        if all(st["done"] for st in states) and v["over"]:
            return states
        if every:
            every(v["steps"])
        if time.time() - start > PAGADE_TIMEOUT_S:
            pages = [js(d, "const o = KeliOnline.state; return {status: document.body.dataset.status, "
                           "online: document.body.dataset.online, steps: o.view && o.view.steps, "
                           "mover: o.view && o.view.mover, latest: o.latest && o.latest.steps, "
                           "errors: window.keliErrors}") for d, _ in people]
            raise AssertionError(f"{label}: not over after {PAGADE_TIMEOUT_S} s: the pages {pages}, {states}")
        if time.time() - shown > 30:
            shown = time.time()
            print(f"  {label}: {v['steps']} steps, {[st['moves'] for st in states]} moves tapped, "
                  f"{time.time() - start:.0f} s", flush=True)
        time.sleep(0.5)


def pagade(server, phone, desk, keli, tmp, shots):
    """Pagade Kayi Ata, the sixteen-handed seed: the desktop's person at P1, the phone's at P9, the
    other fourteen seats greedy computer players; played to its end by tapping in the pages."""
    start = time.time()
    open_site(desk, server)
    seats = ["greedy"] * 16
    seats[0], seats[8] = "person", "open"
    room, link = make_room(desk, "pagade_kayi_ata", seats)
    open_site(phone, server, link)
    sit(phone, 8)
    check_phone(phone, "pagade kayi ata, seated")
    done = set()

    def on_the_way(steps):
        if steps >= 400 and "shots" not in done:
            done.add("shots")
            check_phone(phone, f"pagade kayi ata, step {steps}")
            shot(desk, shots, "site_pagade_kayi_ata-desktop.png")
            shot(phone, shots, "site_pagade_kayi_ata-phone.png")

    states = autoplay([(desk, 0), (phone, 8)], "pagade kayi ata", on_the_way)
    check_phone(phone, "pagade kayi ata, over")
    steps = check_records(server, room, [desk, phone], keli, "pagade_kayi_ata", tmp)
    result = js(desk, "return document.getElementById('result').textContent")
    print(f"pagade kayi ata: two people and fourteen computers, {steps} steps; the people tapped "
          f"{sum(s['moves'] for s in states)} moves ({sum(s['board'] for s in states)} on the board, "
          f"{sum(s['list'] for s in states)} from the list, {sum(s['refused'] for s in states)} refused and "
          f"tapped again) in {time.time() - start:.0f} s; {result}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--keli", required=True)
    ap.add_argument("--site", required=True)
    ap.add_argument("--shots", default="")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", nargs="*", default=GAMES, choices=GAMES, help="the rooms played (default: all)")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        server = KeliServe(os.path.abspath(args.keli), os.path.join(tmp, "site.sqlite"), args.site).start()
        pages = []
        try:
            desk = browser(DESKTOP, os.path.join(tmp, "desk"))
            pages.append(desk)
            phone = browser(PHONE, os.path.join(tmp, "phone"))
            pages.append(phone)
            if "raja_pasu" in args.games:
                raja_pasu(server, phone, desk, args.keli, tmp, args.shots, rng)
            if "pahada_keliya" in args.games:
                pahada(server, phone, desk, args.keli, tmp, args.shots, rng)
            if "pagade_kayi_ata" in args.games:
                pagade(server, phone, desk, args.keli, tmp, args.shots)
            for d in pages:
                errors = js(d, "return window.keliErrors")
                if errors:
                    raise AssertionError(f"the page's scripts failed: {errors}")
        finally:
            for d in pages:
                d.quit()
            if server.running():
                server.stop()
    print("web.site: passed")


if __name__ == "__main__":
    main()
