// How the play pane shows what happens: dice drawn as dice (those already played dimmed and struck
// through), the sites a move would change outlined while it is pointed at, each step's pieces slid
// along their track site by site, then its changed sites lit one after another (counters sown pit
// by pit), at the speed chosen, and what happened since this player's last move. Motion follows the
// reader's setting: none with prefers-reduced-motion.
'use strict';

const KeliLook = (() => {
  const SPEEDS = { off: 0, fast: 60, normal: 140, slow: 320 };  // ms a site: a piece's slide, a site lit
  const LIT_MS = 700;                                          // a lit site's glow (style.css, .site.lit)
  const PIPS = {  // a die's pips on a 3x3 grid (0-8, row by row)
    1: [4], 2: [0, 8], 3: [0, 4, 8], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8],
  };
  const reduced = window.matchMedia ? window.matchMedia('(prefers-reduced-motion: reduce)') : { matches: false };
  // The motion of the last step drawn: its slides and lights, each at a time from `start`; it goes
  // on across a redraw that moved nothing (the throw after a move), and a new step's motion ends it.
  let motion = null;
  let timers = [], running = [];

  function speed() {
    if (reduced.matches) return 0;
    const el = document.getElementById('speed');
    return SPEEDS[el ? el.value : 'normal'] ?? SPEEDS.normal;
  }

  // The throw as dice: pips for 1 to 6, the number on the face otherwise (cowries, sticks); a die
  // already played (used[k]) dimmed and struck through.
  function dice(box, values, used) {
    box.textContent = '';
    if (!values || !values.length) return box.setAttribute('aria-label', 'the last throw');
    const isUsed = (k) => !!(used && used[k]);
    const spent = values.filter((v, k) => isUsed(k));
    box.setAttribute('aria-label', `the last throw: ${values.join(' and ')}`
      + (spent.length ? `; used: ${spent.join(' and ')}` : ''));
    values.forEach((v, k) => {
      const die = document.createElement('span');
      die.className = 'die';
      die.dataset.value = v;
      die.setAttribute('role', 'img');
      die.setAttribute('aria-label', isUsed(k) ? `${v}, used` : `${v}`);
      if (isUsed(k)) die.classList.add('used');
      if (PIPS[v]) {
        for (let p = 0; p < 9; p++) {
          const pip = document.createElement('i');
          if (PIPS[v].includes(p)) pip.className = 'pip';
          die.append(pip);
        }
      } else {
        die.classList.add('number');
        die.textContent = v;
      }
      box.append(die);
    });
  }

  // Outlines the sites a move names (or changes) while its button is pointed at or focused.
  function preview(board, sites) {
    for (const el of board.querySelectorAll('.site.preview')) el.classList.remove('preview');
    for (const s of sites) board.querySelector(`.site[data-site="${s}"]`)?.classList.add('preview');
  }

  // Each site a legal move names says, on hover (an SVG title), the moves it takes part in, as the
  // moves list writes them: the board's pictures and the notation meet there.
  function label(board, choices) {
    const bySite = new Map();
    for (const c of choices) for (const s of c.sites) bySite.set(s, [...(bySite.get(s) || []), c.text]);
    for (const [s, texts] of bySite) {
      const el = board.querySelector(`.site[data-site="${s}"]`);
      if (!el) continue;
      let t = el.querySelector('title');  // the site's own name, when the picture gives one, first
      if (!t) el.prepend(t = document.createElementNS('http://www.w3.org/2000/svg', 'title'));
      t.textContent = [t.textContent, ...texts].filter((x) => x).join('\n');
    }
  }

  // The changed sites in the order a sowing or a move passes them: by number, starting after the
  // widest gap between two of them (a run of pits sown round the board is one run, wherever it
  // starts).
  function order(changed, sites) {
    const c = [...changed].sort((a, b) => a - b);
    if (c.length < 3) return c;
    let start = 0, widest = -1;
    for (let i = 0; i < c.length; i++) {
      const gap = (c[i] - c[(i + c.length - 1) % c.length] + sites) % sites;
      if (gap > widest) { widest = gap; start = i; }
    }
    return c.slice(start).concat(c.slice(0, start));
  }

  // The centre of an element's box in the user space of `frame` (an ancestor, or the element's parent).
  function centre(el, frame) {
    const b = el.getBBox(), from = el.getCTM(), to = frame.getCTM();
    if (!from || !to) return null;  // not drawn (the pane hidden)
    return new DOMPoint(b.x + b.width / 2, b.y + b.height / 2).matrixTransform(to.inverse().multiply(from));
  }

  // The keyframes of a piece's slide: its transform translated so that its centre stands on each
  // site of the path in turn, then where it is drawn now (translate 0).
  function slideFrames(board, el, path) {
    const frame = el.parentNode, here = centre(el, frame);
    const own = el.transform?.baseVal?.consolidate()?.matrix;  // kept under the translation
    const base = own ? ` matrix(${own.a}, ${own.b}, ${own.c}, ${own.d}, ${own.e}, ${own.f})` : '';
    const frames = [];
    let last = null;
    for (const s of path) {
      const site = board.querySelector(`.site[data-site="${s}"]`);
      const c = site && centre(site, frame);
      if (!c || !here) continue;
      last = site.getBBox();
      const dx = c.x - here.x, dy = c.y - here.y;
      frames.push({ transform: `translate(${dx}px, ${dy}px)${base}`, dx, dy });
    }
    // The last site of the path is usually where the piece stands: it ends there, not twice.
    const end = frames[frames.length - 1];
    if (end && Math.hypot(end.dx, end.dy) < Math.min(last.width, last.height) / 2) frames.pop();
    if (!frames.length) return [];
    frames.push({ transform: `translate(0px, 0px)${base}` });
    return frames.map(({ transform }) => ({ transform }));
  }

  // What the step of `after` moves and lights, each at its time (ms from the start): its pieces one
  // after another (those on the same path together), then its changed sites one by one.
  function plan(before, after, ms, board) {
    const slides = [], lights = [];
    let at = 0;
    const slots = new Map();
    for (const s of after.slides || []) {
      if (!s || !Array.isArray(s.path) || !s.path.length) continue;
      const key = s.path.join(' ');
      if (!slots.has(key)) {
        slots.set(key, at);
        at += s.path.length * ms;  // a site a slot, and the step from the last one to its place
      }
      slides.push({ piece: s.piece, path: s.path, at: slots.get(key) });
    }
    if (after.changed && after.steps === before.steps + 1) {
      const count = board.querySelectorAll('.site').length;
      order(after.changed, count).forEach((site, k) => lights.push({ site, at: at + k * ms }));
    }
    if (!slides.length && !lights.length) return null;
    return { start: performance.now(), ms, slides, lights, end: at + lights.length * ms + LIT_MS };
  }

  // Plays a motion on the board drawn now, from the time it has reached.
  function play(board, m) {
    const elapsed = performance.now() - m.start, moved = new Set();
    for (const s of m.slides) {
      // A disc is a stack: data-piece its first piece, data-pieces all of them.
      const el = board.querySelector(`[data-piece="${s.piece}"], [data-pieces~="${s.piece}"]`);
      if (!el || moved.has(el)) continue;  // taken off the board, or already moving with its stack
      moved.add(el);
      const frames = slideFrames(board, el, s.path);
      if (frames.length < 2) continue;
      const a = el.animate(frames, { duration: (frames.length - 1) * m.ms, delay: s.at, fill: 'backwards' });
      a.currentTime = elapsed;
      running.push(a);
    }
    for (const { site, at } of m.lights) {
      if (at < elapsed) continue;
      const el = board.querySelector(`.site[data-site="${site}"]`);
      if (!el) continue;
      el.classList.add('waiting');
      timers.push(setTimeout(() => { el.classList.remove('waiting'); el.classList.add('lit'); }, at - elapsed));
    }
  }

  // Draws `after` (by calling draw), then moves its step's pieces along their paths and lights the
  // sites it changed. A new view ends the motion running (the board always shows the latest and
  // input is never held): a view whose step moved nothing (a throw) lets it run on.
  function animate(before, after, draw) {
    for (const t of timers) clearTimeout(t);
    for (const a of running) a.cancel();
    timers = [];
    running = [];
    draw();
    const ms = speed();
    if (!before || !ms || after.steps <= before.steps) { motion = null; return; }
    const board = document.getElementById('board');
    const still = after.steps === before.steps + 1 && !(after.slides || []).length && !(after.changed || []).length;
    if (!still || !motion || performance.now() - motion.start > motion.end) motion = plan(before, after, ms, board);
    if (motion) play(board, motion);
  }

  // The time (ms) until the motion running now ends: 0 when nothing moves.
  function remaining() {
    return motion && running.length + timers.length ? Math.max(0, motion.start + motion.end - performance.now()) : 0;
  }

  // What happened since this player last moved (or, watching, the last few steps), in words.
  function summary(box, v) {
    box.textContent = '';
    if (!v.by || !v.history.length) return;
    let from = v.history.length - 1;
    if (v.you >= 0) {
      from = v.by.lastIndexOf(v.you) + 1;
      if (from <= 0 || from >= v.history.length) return;
    }
    const names = v.seats.map((s) => s.name);
    const lines = [];
    for (let i = Math.max(from, v.history.length - 12); i < v.history.length; i++)
      lines.push(v.by[i] < 0 ? v.history[i] : `${names[v.by[i]]}: ${v.history[i]}`);
    box.append(v.you >= 0 ? 'Since your last move: ' : 'Last step: ', lines.join('; '));
  }

  return { dice, preview, animate, remaining, summary, order, label };
})();
