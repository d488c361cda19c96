#!/usr/bin/env python3
# keli serve with its real parts (docs/serve.md): the server process on a loopback port with a
# temporary SQLite database, reached over HTTP and WebSocket (wsclient.py, a raw RFC 6455 client).
# Two people play a whole game of Raja Pasu in one room; on the way, moves out of turn, for
# another seat and illegal, malformed, binary and oversized messages and a flood are each refused
# with the game unaffected; the server is restarted mid-game and both seats resume by token; at
# the end the database holds every step, in order, and the room's trace replays with keli replay.
# The page's files are served with a Content-Security-Policy, and no path leaves the site folder.
import argparse
import os
import random
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from keli_serve import KeliServe  # noqa: E402
from wsclient import OP_BINARY, Client, Closed  # noqa: E402

RESTART_AT = 150  # the step at which the server is stopped and started again
ATTACK_AT = 60    # the step at which the refused messages are sent
MAX_STEPS = 5000  # a game that has not ended by then fails
MOVE_GAP_S = 0.075  # the least time between two moves of one seat (13 a second, under the flood limit)


def http(port, request):
    """The status and the whole answer to one raw request (the target exactly as written)."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        s.sendall(request.encode())
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    text = data.decode(errors="replace")
    return int(text.split(" ", 2)[1]), text


def check_http(port, site):
    status, text = http(port, "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    if status != 200 or "the page's index" not in text or "Content-Security-Policy: default-src 'self'" not in text:
        raise AssertionError(f"GET / answered {status}: {text[:400]}")
    for target in ["/../serve_test.sqlite", "//etc/passwd", "/secret", "/%2e%2e/serve_test.sqlite",
                   "/index.html/../../serve_test.sqlite", "/nothing.js"]:
        status, text = http(port, f"GET {target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        if status != 404:
            raise AssertionError(f"GET {target} answered {status}, not 404: {text[:300]}")
    status, _ = http(port, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
    if status != 405:
        raise AssertionError(f"POST / answered {status}, not 405")
    print("http: the page is served with its CSP; 6 targets outside the site are 404, POST is 405")


class Seat:
    """A person at a seat: the connection, the token and the newest view it has read."""

    def __init__(self, port, room=None, token=None):
        self.c = Client(port)
        self.room, self.token, self.view, self.last = room, token, None, 0.0
        if room:
            self.c.send({"t": "join", "room": room, **({"token": token} if token else {})})
            self.view = self.c.until(lambda m: m["t"] == "view", "view after join")

    def move(self, room, text):
        """Sends a move, no faster than a person could: the flood limit allows 20 messages a second."""
        wait = self.last + MOVE_GAP_S - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        self.c.send({"t": "move", "room": room, "move": text})
        self.last = time.monotonic()

    def catch_up(self, steps):
        """Reads views until the one after `steps` steps."""
        if self.view and self.view["steps"] >= steps:
            return self.view
        self.view = self.c.until(lambda m: m["t"] == "view" and m["steps"] >= steps, f"view at step {steps}")
        return self.view

    def refused(self, message, code):
        self.c.send(message)
        m = self.c.until(lambda m: m["t"] == "error", f"the refusal {code}")
        if m["code"] != code:
            raise AssertionError(f"{message} was refused as {m['code']}, not {code}: {m}")


def attack(port, seats, view):
    """Each message is refused; the game is as it was."""
    mover, other = seats[view["mover"]], seats[1 - view["mover"]]
    room = view["room"]
    other.refused({"t": "move", "room": room, "move": view["moves"][0]}, "out_of_turn")
    mover.refused({"t": "move", "room": room, "move": "sow hole 99 (0)"}, "illegal")
    spectator = Seat(port, room)
    spectator.refused({"t": "move", "room": room, "move": view["moves"][0]}, "not_your_seat")
    spectator.refused("{not json", "bad_request")
    spectator.refused({"t": "sit", "room": room, "seat": 0}, "seat_taken")
    spectator.c.frame(OP_BINARY, b"\x00\x01")
    spectator.c.until(lambda m: m["t"] == "error" and m["code"] == "bad_request", "the binary frame's refusal")
    for _ in range(60):
        spectator.c.send({"t": "games"})
    floods = 0
    for _ in range(60):
        m = spectator.c.recv()
        floods += m.get("code") == "flood"
    if floods == 0:
        raise AssertionError("60 messages at once: none was refused as a flood")
    big = Client(port)
    big.send('{"t":"games","pad":"' + "x" * 70000 + '"}')
    try:
        big.recv()
        raise AssertionError("a 70 kB message was answered")
    except (Closed, OSError):
        pass
    mover.c.send({"t": "join", "room": room, "token": mover.token})
    after = mover.c.until(lambda m: m["t"] == "view", "the view after the refusals")
    # A join's view has the whole game; the news of a step, its last steps from history_from on.
    if after["steps"] != view["steps"] or after["history"][view["history_from"]:] != view["history"]:
        raise AssertionError("the refused messages changed the game")
    print(f"refused at step {view['steps']}: out of turn, illegal, another seat, not JSON, a taken seat, binary, "
          f"{floods} of 60 flooding messages, a 70 kB message (closed); the game unchanged")


def check_computer(port):
    """A computer seat answers a person's move by itself (on the server's referee threads)."""
    me = Seat(port)
    me.c.send({"t": "create", "game": "kalah", "seats": ["person", "random"]})
    room = me.c.until(lambda m: m["t"] == "created", "created")["room"]
    view = me.c.until(lambda m: m["t"] == "view", "the first view")
    me.c.send({"t": "move", "room": room, "move": view["moves"][0]})
    after = me.c.until(lambda m: m["t"] == "view" and m["steps"] >= 2 and (m["mover"] == 0 or m["over"]),
                       "the computer's answer")
    print(f"computer: Kalah, after South's {view['moves'][0]} the random player made "
          f"{', '.join(after['history'][1:])}")
    me.c.close()


def play(server, rng):
    port = server.port
    a = Seat(port)
    a.c.send({"t": "create", "game": "raja_pasu", "seats": ["person", "open"], "name": "Ann <b>"})
    made = a.c.until(lambda m: m["t"] == "created", "created")
    room, a.room, a.token = made["room"], made["room"], made["token"]
    a.view = a.c.until(lambda m: m["t"] == "view", "the first view")
    b = Seat(port, room)
    b.c.send({"t": "sit", "room": room, "seat": 1, "name": "Bo"})
    b.token = b.c.until(lambda m: m["t"] == "seated", "seated")["token"]
    seats = [a, b]
    steps = 0
    while steps < MAX_STEPS:
        view = seats[0].catch_up(steps)
        if view["over"]:
            break
        if steps == ATTACK_AT:
            attack(port, seats, view)
        if steps == RESTART_AT:
            server.stop()
            server.start()  # on the same port
            seats = [Seat(port, room, s.token) for s in seats]
            print(f"restarted at step {steps}: both seats resumed by token")
            view = seats[0].view
        mover = seats[view["mover"]]
        mover.catch_up(steps)
        mover.move(room, rng.choice(mover.view["moves"]))
        steps += 1
    view = seats[0].catch_up(steps)
    if not view["over"]:
        raise AssertionError(f"no result after {MAX_STEPS} steps")
    return room, seats[0], view


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--keli", required=True)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="keli-serve-test-")
    site = os.path.join(work, "site")
    os.makedirs(site)
    with open(os.path.join(site, "index.html"), "w") as f:
        f.write("<!doctype html><title>the page's index</title>\n")
    os.symlink("/etc/hostname", os.path.join(site, "secret"))  # a link out of the site: never served
    db = os.path.join(work, "serve_test.sqlite")
    server = KeliServe(a.keli, db, site).start()
    try:
        check_http(server.port, site)
        check_computer(server.port)
        room, seat, view = play(server, random.Random(a.seed))
        seat.c.send({"t": "trace", "room": room})
        trace = seat.c.until(lambda m: m["t"] == "trace", "the trace")["trace"]
        seat.c.send({"t": "join", "room": room})  # the whole history (a step's news has its last few)
        whole = seat.c.until(lambda m: m["t"] == "view", "the whole view")
        if whole["history_from"] != 0 or whole["history"][view["history_from"]:] != view["history"]:
            raise AssertionError("the last step's news and the whole view differ")
        view = whole
    finally:
        if server.running():
            server.stop()
    rows = sqlite3.connect(db).execute("SELECT text FROM steps WHERE room = ? ORDER BY n", (room,)).fetchall()
    if [r[0] for r in rows] != view["history"]:
        raise AssertionError(f"the database holds {len(rows)} steps; the game had {len(view['history'])}")
    path = os.path.join(work, "room.jsonl")
    with open(path, "w") as f:
        f.write(trace)
    r = subprocess.run([a.keli, "replay", path], capture_output=True, text=True)
    if r.returncode != 0:
        raise AssertionError(f"keli replay of the room's trace: {r.stdout}{r.stderr}")
    print(f"Raja Pasu played to the end by two people over WebSocket: {view['steps']} steps, places "
          f"{view['places']}; every step in SQLite in order; the trace replays")


if __name__ == "__main__":
    main()
