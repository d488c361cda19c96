#!/usr/bin/env python3
# The playground in a real browser (docs/web.md): serves build-web's site on localhost, opens it
# in Debian's headless Chromium (through chromedriver) and, for each seed game, plays a whole
# game by clicking its legal moves on the board (a bounded number of clicks; then the computer
# plays every seat to the end), taps pieces and holes that cannot move and reads the reason ("why
# not?", as `keli step` gives it) and follows it to the rules pane (the rulebook `keli rules`
# prints), checks that a broken file typed into the editor shows the diagnostic `keli validate`
# gives, with its line and column, and steps through a trace in the viewer. Screenshots of the boards and the page are written to OUT/screenshots/.
import argparse
import functools
import html.parser
import http.server
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from webdriver import ELEMENT, Browser, free_port  # noqa: E402

# Each seed game and how many of its decisions are clicked through WebDriver (None: every one);
# the rest of a game are clicked by the in-page clicker (CLICKER).
SEED_GAMES = {"games/raja_pasu.keli": None, "games/pahada_keliya.keli": None,
              "games/pagade_kayi_ata_4_players.keli": 300}
MAX_DECISIONS = 40000   # a game clicked to its end within this many decisions (Pagade: about 14,000)
BOARD_SHOT_AFTER = 10   # the board's screenshot is taken after this many moves clicked on it
STEP_TIMEOUT_S = 60     # one step of the page (a load, a move, a check)


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def serve(site):
    handler = functools.partial(QuietHandler, directory=site)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def wait_settled(b):
    """Waits until the page waits for a person or the game is over."""
    return b.wait("const s = document.body.dataset.status; return (s === 'human' || s === 'over' || "
                  "s === 'error' || s === 'broken') && s", STEP_TIMEOUT_S, "the page to settle")


def set_seats(b, spec):
    b.js("for (const s of document.querySelectorAll('#seats select')) { s.value = arguments[0]; "
         "s.dispatchEvent(new Event('change')); }", spec)


# Installed in the page once: what a person sees at their turn, in one round trip. It waits
# (inside the page) until the page waits for a person or the game is over, then returns the
# moves offered with their sites and the board's elements for those sites, and the history
# from step `from` on (to check what a click played).
LOOK = """
const done = arguments[arguments.length - 1], deadline = Date.now() + arguments[0] * 1000, from = arguments[1];
const settled = (s) => s === 'human' || s === 'over' || s === 'error' || s === 'broken';
const look = () => {
  const s = document.body.dataset.status;
  if (!settled(s)) {
    if (Date.now() > deadline) return done({status: s, timeout: true});
    return setTimeout(look, 1);
  }
  const v = Keli.page.view;
  const out = {status: s, steps: v ? v.steps : 0, since: v ? v.history.slice(Math.max(0, from - v.history_from)) : [], moves: [], sites: {}};
  if (s !== 'human') return done(out);
  const board = document.getElementById('board');
  document.querySelectorAll('#moves button.move').forEach((m, k) => {
    const sites = m.dataset.sites.split(' ').filter((x) => x !== '').map(Number);
    out.moves.push({text: m.textContent, sites, button: m});
    for (const site of sites) if (!(site in out.sites)) out.sites[site] = board.querySelector(`[data-site='${site}']`);
  });
  done(out);
};
look();
"""


def look(b, since=0):
    v = b.js_async(LOOK, STEP_TIMEOUT_S, since)
    if v.get("timeout"):
        raise AssertionError(f"timed out after {STEP_TIMEOUT_S} s waiting for the page to settle: {v}")
    return v


def click_site(b, el):
    """A click at the centre of the site's element, as the browser's own mouse input (WebDriver
    actions): it lands on whatever is drawn there, as a person's click would."""
    b.pointer_click(el[ELEMENT])


def click_move(b, seen, k):
    """Plays legal move k of the position `seen` (look's answer) as a person would: by clicking
    its sites on the board, in order, then its die when the page asks which; a move that names
    no site (a throw, a pass) from the list. The page's rule for a click (app.js, clickSite) is
    mirrored here, so a click that already plays the move is the last one. Returns 'board' or
    'list'."""
    moves, move = seen["moves"], seen["moves"][k]
    if not move["sites"]:
        b.click(move["button"][ELEMENT])
        return "list"
    selected = []
    for site in move["sites"]:
        if site in selected:
            continue
        click_site(b, seen["sites"][str(site)])
        selected.append(site)
        cands = [m for m in moves if all(s in m["sites"] for s in selected)]
        if all(m["text"] == cands[0]["text"] for m in cands):
            return "board"  # one move left (or alike ones): the page played it
        complete = [m for m in cands if all(s in selected for s in m["sites"])]
        if move in complete and (len(complete) > 1 or len(cands) > 1):
            pick = b.js("return [...document.querySelectorAll('#pick button')].find(x => x.textContent === arguments[0]) "
                        "|| null", move["text"])
            if not pick:
                raise AssertionError(f"the page did not ask which move after clicking {selected}: {move['text']}")
            b.click(pick[ELEMENT])
            return "board"
    raise AssertionError(f"clicking the sites {move['sites']} of {move['text']!r} left several moves open")


# The same choices and clicks made inside the page, for the rest of a game too long to click
# through WebDriver (Pagade Kayi Ata: some 14,000 decisions; WebDriver takes about 0.1 s each).
# Each decision still goes through the page's own click handlers (a click event on the site's
# element, the pick or the list's button), with the rule click_move mirrors, and each step played
# is checked against the history. Runs for up to arguments[1] ms, then reports.
CLICKER = """
const done = arguments[arguments.length - 1], seedIn = arguments[0], until = Date.now() + arguments[1];
const ch = new MessageChannel(), waiting = [];
ch.port1.onmessage = () => waiting.shift()();
const tick = () => new Promise((r) => { waiting.push(r); ch.port2.postMessage(0); });
let seed = seedIn >>> 0;
const rand = (n) => {  // mulberry32
  seed = (seed + 0x6D2B79F5) >>> 0;
  let t = seed; t = Math.imul(t ^ (t >>> 15), t | 1); t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return (((t ^ (t >>> 14)) >>> 0) % n);
};
const settled = (s) => s === 'human' || s === 'over' || s === 'error' || s === 'broken';
const click = (el) => el.dispatchEvent(new MouseEvent('click', {bubbles: true}));
(async () => {
  const counts = {board: 0, list: 0};
  const board = document.getElementById('board');
  for (;;) {
    while (!settled(document.body.dataset.status)) await tick();
    const status = document.body.dataset.status;
    if (status !== 'human' || Date.now() > until) return done({status, counts, seed});
    const moves = [...document.querySelectorAll('#moves button.move')].map((m) => ({
      text: m.textContent, button: m, sites: m.dataset.sites.split(' ').filter((x) => x !== '').map(Number)}));
    const wanted = moves.filter((m) => m.text !== 'pass'), from = wanted.length ? wanted : moves;
    const move = from[rand(from.length)], before = Keli.page.view.steps;
    if (!move.sites.length) { click(move.button); counts.list++; }
    else {
      const selected = [];
      let played = false;
      for (const site of move.sites) {
        if (selected.includes(site)) continue;
        click(board.querySelector(`[data-site='${site}']`));
        selected.push(site);
        const cands = moves.filter((m) => selected.every((x) => m.sites.includes(x)));
        if (cands.every((m) => m.text === cands[0].text)) { played = true; break; }
        const complete = cands.filter((m) => m.sites.every((x) => selected.includes(x)));
        if (complete.includes(move) && (complete.length > 1 || cands.length > 1)) {
          const pick = [...document.querySelectorAll('#pick button')].find((x) => x.textContent === move.text);
          if (!pick) return done({error: `the page did not ask which move after clicking ${selected}: ${move.text}`});
          click(pick); played = true; break;
        }
      }
      if (!played) return done({error: `clicking the sites ${move.sites} of ${move.text} left several moves open`});
      counts.board++;
    }
    while (!settled(document.body.dataset.status)) await tick();
    const v = Keli.page.view, h = v.history[before - v.history_from] || '';
    if (!h.endsWith(': ' + move.text)) return done({error: `clicking ${move.text} played ${h}`});
  }
})();
"""
CLICKER_SLICE_MS = 20000  # one script call of the in-page clicker (WebDriver's script timeout is 120 s)


def choose(rng, moves):
    """The move a person playing on purpose might pick: any but passing, when there is another
    (Pagade Kayi Ata offers a pass beside every throw; passing at random doubles a game)."""
    wanted = [k for k, m in enumerate(moves) if m["text"] != "pass"]
    return rng.choice(wanted) if wanted else rng.randrange(len(moves))


def select_game(b, game):
    """Loads a packed game with every seat a person; a game that does not compile fails at once
    with the diagnostic the page shows."""
    b.js("const s = document.getElementById('game-select'); s.value = arguments[0]; "
         "s.dispatchEvent(new Event('change'));", game)
    if b.js("return document.body.dataset.status") == "broken":
        diag = b.js("return [...document.querySelectorAll('#diagnostics li.error')].map(li => "
                    "`${li.dataset.line}:${li.dataset.column}: ${li.querySelector('.summary').textContent}`)")
        raise AssertionError(f"{game} does not compile in the page: {diag[:3]}")
    set_seats(b, "human")
    b.click(b.find("#new-game"))


def play_game(b, game, shots, seed, by_driver):
    """Plays one whole game, every seat a person, by clicking every decision: a random legal
    move each time (seeded), from the board when it names sites. Each move played is checked
    against the history the page then shows. The first `by_driver` decisions (None: all) are
    clicked through WebDriver, the rest by the in-page clicker."""
    select_game(b, game)
    rng = random.Random(seed)
    counts = {"board": 0, "list": 0}
    name = os.path.splitext(os.path.basename(game))[0]
    start = time.time()
    seen = look(b)
    while seen["status"] == "human" and (by_driver is None or counts["board"] + counts["list"] < by_driver):
        if counts["board"] + counts["list"] >= MAX_DECISIONS:
            raise AssertionError(f"{game}: no result after {MAX_DECISIONS} decisions")
        k = choose(rng, seen["moves"])
        text = seen["moves"][k]["text"]
        counts[click_move(b, seen, k)] += 1
        after = look(b, seen["steps"])
        # The step after the click is the move chosen, said by its seat (throws may follow).
        if not after["since"] or not after["since"][0].endswith(": " + text):
            raise AssertionError(f"{game}: clicking {text!r} played {after['since'][:1]}")
        if counts["board"] == BOARD_SHOT_AFTER:
            b.screenshot(b.find("#board svg"), os.path.join(shots, f"{name}.png"))
            b.screenshot(None, os.path.join(shots, f"{name}_page.png"))
        seen = after
    in_page = {"board": 0, "list": 0}
    js_seed = seed
    while seen["status"] == "human":
        r = b.js_async(CLICKER, js_seed, CLICKER_SLICE_MS)
        if "error" in r:
            raise AssertionError(f"{game}: {r['error']}")
        js_seed = r["seed"]
        print(f"  ... {sum(in_page.values()) + sum(r['counts'].values()) + sum(counts.values())} decisions, "
              f"{time.time() - start:.0f} s", flush=True)
        for key in in_page:
            in_page[key] += r["counts"][key]
        if sum(in_page.values()) + sum(counts.values()) >= MAX_DECISIONS:
            raise AssertionError(f"{game}: no result after {MAX_DECISIONS} decisions")
        seen = look(b)
    result = b.js("return document.getElementById('result').textContent")
    if seen["status"] != "over" or not result.startswith("Result:"):
        raise AssertionError(f"{game}: the game did not end well: {seen['status']}, {result!r}")
    b.screenshot(b.find("#board svg"), os.path.join(shots, f"{name}_end.png"))
    if counts["board"] == 0:
        raise AssertionError(f"{game}: no move could be played by clicking the board: {counts}")
    rest = f"; then in the page {in_page['board']} on the board and {in_page['list']} from the list" \
        if sum(in_page.values()) else ""
    print(f"{game}: the whole game clicked, through WebDriver {counts['board']} moves on the board and "
          f"{counts['list']} from the list{rest}; {seen['steps']} steps in all, in {time.time() - start:.1f} s; "
          f"{result}", flush=True)


# Sites tapped that no offered move names, and what the reason must say: a hole of the other row
# (Raja Pasu, South to move: North's hole, site 9) and another seat's piece (Pahada Keliya: East's
# E1 on site 35, South to move after the first throw).
WHY_NOT_TAPS = [("games/raja_pasu.keli", 9, "sow cannot start at 9: h must be one of the mover's row",
                 "move-sowing-sow"),
                ("games/pahada_keliya.keli", 35, "here the owner of pc is East and the mover is South",
                 "move-moving-step")]


class Rulebook(html.parser.HTMLParser):
    """A rulebook in HTML as keli rules writes it: its words (white space collapsed) and its
    section and rule headings as [id, text]."""

    def __init__(self, page):
        super().__init__()
        self.parts, self.headings, self.body, self.open = [], [], False, None
        self.feed(page)
        self.words = " ".join("".join(self.parts).split())

    def handle_starttag(self, tag, attrs):
        self.body = self.body or tag == "body"
        if tag in ("h2", "h3"):
            self.open = [dict(attrs).get("id", ""), ""]

    def handle_data(self, data):
        if self.body:
            self.parts.append(data)
        if self.open is not None:
            self.open[1] += data

    def handle_endtag(self, tag):
        if tag in ("h2", "h3") and self.open is not None:
            self.headings.append(self.open)
            self.open = None


def check_why_not(b, keli, shots):
    """Taps a piece or hole that cannot move: the page gives the reason the step protocol gives for
    that site, with its file:line, and its link opens the rules pane at the rule, whose rulebook is
    the one keli rules prints."""
    for game, site, want, anchor in WHY_NOT_TAPS:
        select_game(b, game)
        seen = look(b)
        if seen["status"] != "human" or str(site) in seen["sites"]:
            raise AssertionError(f"{game}: site {site} should be one no offered move names: {seen['status']}")
        click_site(b, {ELEMENT: b.find(f"#board [data-site='{site}']")})
        said = b.wait("const w = document.getElementById('why'); return !w.hidden && "
                      "[...w.querySelectorAll('p')].map(p => p.textContent)", STEP_TIMEOUT_S, "the reason")
        # The same position for keli step: the page's throws by their values, its moves as written.
        steps = json.loads(b.js("return Keli.page.pg.steps(0)"))
        history = b.js("return Keli.page.view.history")
        label = len(steps)
        requests = [json.dumps({"cmd": "throw", "values": x["r"]}) if "r" in x
                    else json.dumps({"cmd": "apply", "move": history[k].split(": ", 1)[1]})
                    for k, x in enumerate(steps)] + [json.dumps({"cmd": "why", "site": str(site)})]
        out = subprocess.run([keli, "step", game], input="\n".join(requests) + "\n", capture_output=True, text=True)
        reply = json.loads(out.stdout.splitlines()[-1])
        if not reply.get("ok") or said[0] != reply["message"].split("\n")[0] or want not in said[0]:
            raise AssertionError(f"{game}: tapping site {site} after {label} steps said {said}; keli step says {reply}")
        if f"{os.path.basename(game)}:" not in said[0]:
            raise AssertionError(f"{game}: the reason names no file:line: {said[0]}")
        b.screenshot(None, os.path.join(shots, f"why_not_{os.path.splitext(os.path.basename(game))[0]}.png"))
        # The reason's link opens the rules pane at the rule it cites.
        b.click(b.find("#why a.cite"))
        cited = b.wait("return !document.getElementById('pane-rules').hidden && "
                       "[...document.querySelectorAll('#rules .cited')].map(e => e.id)", STEP_TIMEOUT_S, "the rule")
        if cited != [f"rules-{anchor}"]:
            raise AssertionError(f"{game}: the reason's link marked {cited}, not rules-{anchor}")
        page = b.js("return [...document.querySelectorAll('#rules h2, #rules h3')].map(h => [h.id, h.textContent])")
        book = Rulebook(subprocess.run([keli, "rules", game, "--format", "html"], capture_output=True, text=True,
                                       check=True).stdout)
        want_headings = [[f"rules-{i}", t] for i, t in book.headings]
        if page != want_headings:
            k = next((i for i, (x, y) in enumerate(zip(page, want_headings)) if x != y), min(len(page), len(want_headings)))
            raise AssertionError(f"{game}: the rules pane's headings differ from keli rules' from heading {k}: "
                                 f"{page[k:k + 3]} / {want_headings[k:k + 3]}")
        shown = b.js("return document.getElementById('rules').textContent.split(/\\s+/).join(' ').trim()")
        if shown != book.words:
            raise AssertionError(f"{game}: the rules pane's text is not keli rules' ({len(shown)} / "
                                 f"{len(book.words)} characters)")
        b.click(b.find("#tab-play"))
        print(f"why not: {game} site {site}: {said[0]}; the rules pane opened at {anchor}, the same "
              f"{len(shown)} characters as keli rules")


# Motion and dice (docs/web.md, "Seeing each step"): the piece a move moves slides along its track
# (a Web Animation of its element, data-piece, through each site of the view's `slides` path), and
# a die played is drawn used. Pahada Keliya at the slow speed, its first move clicked on the board.
PIECE_ANIMATIONS = """return document.getAnimations().filter((a) => a.effect && a.effect.target
  && a.effect.target.matches('#board [data-piece]')).map((a) => ({piece: a.effect.target.dataset.piece,
  frames: a.effect.getKeyframes().length, state: a.playState}))"""
DICE = """return {mover: Keli.page.view.mover, dice: [...document.querySelectorAll('#dice .die')].map((d) =>
  ({value: d.dataset.value, used: d.classList.contains('used'), label: d.getAttribute('aria-label')}))}"""


def check_motion(b, shots):
    """Pahada Keliya, slow: after South's first move, clicked on the board, a piece's slide is
    running; South moves again with the other die, which is drawn unused beside the used one."""
    select_game(b, "games/pahada_keliya.keli")
    b.js("document.getElementById('speed').value = 'slow'")
    try:
        seen = look(b)
        before = b.js(DICE)
        k = next((i for i, m in enumerate(seen["moves"]) if m["sites"] and m["text"].endswith(")")), None)
        if k is None or len(before["dice"]) != 2 or any(d["used"] for d in before["dice"]):
            raise AssertionError(f"motion: the first position has no move of a piece or not two fresh dice: "
                                 f"{[m['text'] for m in seen['moves']]}, {before}")
        click_move(b, seen, k)
        after = look(b, seen["steps"])
        sliding = b.js(PIECE_ANIMATIONS)
        if not sliding or not any(a["state"] == "running" and a["frames"] >= 2 for a in sliding):
            raise AssertionError(f"motion: no piece slides after {seen['moves'][k]['text']}: {sliding}; "
                                 f"the view's slides {b.js('return Keli.page.view.slides')}")
        b.screenshot(None, os.path.join(shots, "pahada_keliya_sliding.png"))
        dice = b.js(DICE)
        used = [d for d in dice["dice"] if d["used"]]
        if dice["mover"] != before["mover"] or len(dice["dice"]) != 2 or len(used) != 1 \
                or not used[0]["label"].endswith("used") or after["status"] != "human":
            raise AssertionError(f"motion: after one of two dice is played, {dice} (before: {before})")
        print(f"motion: {seen['moves'][k]['text']} slid piece {sliding[0]['piece']} through "
              f"{sliding[0]['frames']} places; the dice then {[(d['value'], d['used']) for d in dice['dice']]}")
    finally:
        b.js("document.getElementById('speed').value = 'normal'")


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
    ap.add_argument("--games", nargs="*", default=list(SEED_GAMES))
    ap.add_argument("--driver-clicks", type=int, default=None,
                    help="decisions of a game not among the seed games clicked through WebDriver (default: all)")
    ap.add_argument("--seed", type=int, default=1, help="seeds the moves chosen (the page's dice have their own)")
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
            play_game(b, g, shots, a.seed, SEED_GAMES.get(g, a.driver_clicks))
        check_motion(b, shots)
        check_why_not(b, a.keli, shots)
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
