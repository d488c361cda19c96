#!/usr/bin/env python3
# The game site with its real parts (docs/serve.md): `keli serve` on a loopback port with a
# temporary SQLite database and the page built by tools/web/build.sh, played by two headless
# Chromium sessions through Selenium (python3-selenium), one the size of a phone (390x844) and one
# of a desktop (1400x900), as two people in one room reached by its shared link. Raja Pasu is
# played to its end by clicking (the board's sites, or the move buttons); one page is reloaded
# mid-game and resumes its seat; the server is stopped and started again mid-game and both pages
# reconnect and go on; the finished game's steps are read back from SQLite, match the history the
# pages show and replay with `keli replay --moves`. Pahada Keliya is played by two people and two
# computer players; a rematch is asked for and both people are seated in it again. On the phone
# no page is wider than the screen and every control is a 44 px target. Screenshots of each seed
# game at both sizes go to --shots (docs/img when made for the docs).
import argparse
import json
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

PHONE, DESKTOP = (390, 844), (1400, 900)
RELOAD_AT, RESTART_AT = 40, 90  # the steps at which a page is reloaded and the server restarted
MAX_PERSON_MOVES = 3000         # a game whose people have made this many moves without an end fails
WAIT_S = 60                     # the longest wait for one thing the page should do
TAP_MIN = 44                    # px: the least height of a control one taps


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """keli serve on a fixed loopback port (the same after a restart, so the pages find it again)."""

    def __init__(self, keli, db, site):
        self.keli, self.db, self.site, self.port, self.p = keli, db, site, free_port(), None

    def start(self):
        self.p = subprocess.Popen([self.keli, "serve", "--port", str(self.port), "--db", self.db, "--site", self.site,
                                   "--engine", "interp"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.p.stdout.readline()
        if "listening on http://127.0.0.1:" not in line:
            self.p.kill()
            raise AssertionError(f"keli serve did not start: {line!r} {self.p.stderr.read()}")

    def stop(self):
        self.p.send_signal(signal.SIGTERM)
        if self.p.wait(timeout=30) != 0:
            raise AssertionError(f"keli serve stopped with status {self.p.returncode}: {self.p.stderr.read()}")

    def url(self, path=""):
        return f"http://127.0.0.1:{self.port}/{path}"


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


def pagade(server, phone, desk, shots):
    """Pagade Kayi Ata, the third seed: a room is made and drawn at both sizes (shots)."""
    open_site(desk, server)
    make_room(desk, "pagade_kayi_ata", ["person"])
    link = desk.find_element(By.ID, "room-link").get_attribute("value")
    open_site(phone, server, link)
    wait(phone, "the board", lambda: view(phone))
    check_phone(phone, "pagade kayi ata, watching")
    shot(desk, shots, "site_pagade_kayi_ata-desktop.png")
    shot(phone, shots, "site_pagade_kayi_ata-phone.png")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--keli", required=True)
    ap.add_argument("--site", required=True)
    ap.add_argument("--shots", default="")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(os.path.abspath(args.keli), os.path.join(tmp, "site.sqlite"), args.site)
        server.start()
        pages = []
        try:
            desk = browser(DESKTOP, os.path.join(tmp, "desk"))
            pages.append(desk)
            phone = browser(PHONE, os.path.join(tmp, "phone"))
            pages.append(phone)
            raja_pasu(server, phone, desk, args.keli, tmp, args.shots, rng)
            pahada(server, phone, desk, args.keli, tmp, args.shots, rng)
            pagade(server, phone, desk, args.shots)
            for d in pages:
                errors = js(d, "return window.keliErrors")
                if errors:
                    raise AssertionError(f"the page's scripts failed: {errors}")
        finally:
            for d in pages:
                d.quit()
            if server.p.poll() is None:
                server.stop()
    print("web.site: passed")


if __name__ == "__main__":
    main()
