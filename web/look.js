// How the play pane shows what happens: dice drawn as dice, the sites a move would change outlined
// while it is pointed at, each step's changed sites lit one after another (counters sown pit by
// pit, a piece leaving and arriving) at the speed chosen, and what happened since this player's
// last move. Motion follows the reader's setting: none with prefers-reduced-motion.
'use strict';

const KeliLook = (() => {
  const SPEEDS = { off: 0, fast: 60, normal: 140, slow: 320 };  // ms between two sites lit
  const PIPS = {  // a die's pips on a 3x3 grid (0-8, row by row)
    1: [4], 2: [0, 8], 3: [0, 4, 8], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8],
  };
  const reduced = window.matchMedia ? window.matchMedia('(prefers-reduced-motion: reduce)') : { matches: false };
  let timers = [];

  function speed() {
    if (reduced.matches) return 0;
    const el = document.getElementById('speed');
    return SPEEDS[el ? el.value : 'normal'] ?? SPEEDS.normal;
  }

  // The throw as dice: pips for 1 to 6, the number on the face otherwise (cowries, sticks).
  function dice(box, values) {
    box.textContent = '';
    if (!values || !values.length) return;
    box.setAttribute('aria-label', `the last throw: ${values.join(' and ')}`);
    for (const v of values) {
      const die = document.createElement('span');
      die.className = 'die';
      die.dataset.value = v;
      if (PIPS[v]) {
        for (let k = 0; k < 9; k++) {
          const pip = document.createElement('i');
          if (PIPS[v].includes(k)) pip.className = 'pip';
          die.append(pip);
        }
      } else {
        die.classList.add('number');
        die.textContent = v;
      }
      box.append(die);
    }
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

  // Draws `after` (by calling draw), then lights the sites the step changed one by one. Views
  // that come faster than the animation cut it short: the board always shows the latest.
  function animate(before, after, draw) {
    for (const t of timers) clearTimeout(t);
    timers = [];
    draw();
    const ms = speed();
    if (!before || !ms || !after.changed || after.steps !== before.steps + 1) return;
    const board = document.getElementById('board');
    const count = board.querySelectorAll('.site').length;
    order(after.changed, count).forEach((s, k) => {
      const el = board.querySelector(`.site[data-site="${s}"]`);
      if (!el) return;
      el.classList.add('waiting');
      timers.push(setTimeout(() => { el.classList.remove('waiting'); el.classList.add('lit'); }, k * ms));
    });
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

  return { dice, preview, animate, summary, order, label };
})();
