// The playground's play pane: the game chosen or dropped, the board drawn by Keli's SVG renderer,
// moves picked by clicking a piece then a cell (a die when there is a choice) or from the list,
// "why not?" for a tapped piece or cell that cannot move, dice thrown, undo, the result; the rules
// pane (the rulebook in words); computer seats think in a Web Worker (worker.js).
'use strict';

var Module = { onRuntimeInitialized: () => Keli.ready() };
// Errors of the page's scripts are kept where the browser test reads them (and shown).
window.keliErrors = [];
window.addEventListener('error', (e) => window.keliErrors.push(String(e.message)));
window.addEventListener('unhandledrejection', (e) => window.keliErrors.push(String(e.reason)));

const Keli = (() => {
  const $ = (id) => document.getElementById(id);
  const SEATS = [['human', 'person'], ['random', 'random'], ['mcts:time=1', 'mcts 1 s'], ['mcts:time=3', 'mcts 3 s']];
  const RENDER_EVERY_MS = 250;  // while only computers move, the board is redrawn this often
  const page = {
    pg: null, path: '', text: '', players: [], seats: [], view: null, selected: [], online: null,
    drawn: null, listed: null,  // the view drawn last (its motion goes from it), the history it listed
    worker: null, thinking: false, lastDraw: 0, generation: 0, synced: 0, loads: 0, rulesShown: -1,
  };

  // Runs fn after the events waiting now (a message to itself: setTimeout would wait 4 ms each time).
  const channel = new MessageChannel();
  const queue = [];
  channel.port1.onmessage = () => queue.shift()();
  function soon(fn) { queue.push(fn); channel.port2.postMessage(0); }

  function status(text) { $('status').textContent = text; }
  function setState(s) { document.body.dataset.status = s; }
  function call(method, ...args) { return JSON.parse(page.pg[method](...args)); }

  function ordinal(n) {
    const s = ['th', 'st', 'nd', 'rd'], v = n % 100;
    return n + (s[(v - 20) % 10] || s[v] || s[0]);
  }

  // Loads a file of the page's file system (a packed game, or one written there): true when it
  // compiled; its diagnostics go to the editor pane either way.
  function load(path) {
    page.path = path;
    page.text = Module.Playground.read(path);
    const r = call('load', path);
    page.loads++;  // the rules pane shows this file's rules when next opened (or now, when open)
    if (!$('pane-rules').hidden) showRules();
    KeliEditor.show(path, page.text, r.diagnostics);
    if (!r.ok) {
      status(`${path}: does not compile; see the Edit tab`);
      page.view = null;
      $('board').textContent = '';
      setState('broken');
      return false;
    }
    page.players = r.players;
    makeSeats();
    page.worker.postMessage({ load: { path, text: page.text } });
    status(`${r.game} (${path})`);
    newGame();
    return true;
  }

  function makeSeats() {
    const box = $('seats');
    const old = page.seats.slice();
    box.textContent = '';
    page.seats = page.players.map((name, i) => {
      const sel = document.createElement('select');
      sel.id = `seat-${i}`;
      for (const [spec, label] of SEATS) sel.add(new Option(label, spec));
      sel.value = old[i] || (i === 0 ? 'human' : 'random');
      sel.addEventListener('change', () => { page.seats[i] = sel.value; advance(); });
      const label = document.createElement('label');
      label.append(`${name} `, sel);
      box.append(label);
      return sel.value;
    });
  }

  function newGame() {
    hideWhy();
    page.generation++;
    page.synced = 0;
    page.thinking = false;
    page.drawn = null;
    call('restart');
    page.selected = [];
    draw();
    advance();
  }

  // Whose step it is decides what happens next: a throw is made, a computer asked, or a person
  // waits for. Each step redraws (throttled while only computers move).
  function advance() {
    if (!page.view || page.thinking || page.online) return;
    const v = page.view;
    if (v.over) { setState('over'); return; }
    if (v.chance) {
      setState('rolling');
      const r = call('roll', Number($('seed').value) || 0);
      if (!r.ok) return fault(r.error);
      return stepped();
    }
    const spec = page.seats[v.mover];
    if (spec === 'human') { setState('human'); draw(true); return; }
    setState('thinking');
    page.thinking = true;
    status(`${page.players[v.mover]} (${spec}) is thinking...`);
    // The worker is sent the steps it has not seen (it keeps the first page.synced).
    const from = page.synced;
    page.synced = v.steps;
    page.worker.postMessage({ think: { from, steps: page.pg.steps(from), spec, seed: Number($('seed').value) || 0,
                                       generation: page.generation } });
  }

  function thought(msg) {
    // An answer for a game since replaced (or left for a room of the game site).
    if (msg.generation !== page.generation || page.online) return;
    page.thinking = false;
    if (!msg.ok) return fault(msg.error);
    const r = call('playLegal', msg.legal);
    if (!r.ok) return fault(r.error);
    stepped();
  }

  // After a step: `own` is a person's move here of a piece or a hole, drawn at once (its pieces
  // seen sliding, its pits sown) even when a throw or a computer follows.
  function stepped(own = false) {
    setState('busy');  // until advance() says whose step is next
    page.selected = [];
    hideWhy();
    // A person's turn is drawn by advance(); computers' steps at most every RENDER_EVERY_MS, and
    // not while a motion runs.
    const quick = performance.now() - page.lastDraw < RENDER_EVERY_MS || KeliLook.remaining() > 0;
    draw(own || !quick, false);
    // Computers' steps follow each other through the event loop, so the page keeps answering.
    soon(advance);
  }

  function fault(text) {
    status('error');
    $('result').textContent = text;
    setState('error');
  }

  // Reads the position; draws the board and the lists when `full`, and at the end (and at a
  // person's turn unless `atTurn` is false: advance() then draws it).
  function draw(full = true, atTurn = true) {
    if (page.online) return;  // the server's views are drawn as they come (online.js)
    const st = call('status');
    const turn = st.ok && !st.over && !st.chance && page.seats[st.mover] === 'human';
    if (st.ok && !st.over && (turn ? !atTurn : !full)) { page.view = st; return; }
    const v = call('view');
    if (!v.ok) { page.view = v; return fault(v.error); }
    KeliLook.animate(page.drawn, v, () => show(v));
  }

  // Whether the position drawn waits for this page's person: a local seat set to "person", or
  // online the seat this page holds.
  function myTurn(v = page.view) {
    if (!v || v.over || v.chance) return false;
    return page.online ? v.you === v.mover : page.seats[v.mover] === 'human';
  }

  function seatName(i) { return page.players[i] ?? `seat ${i}`; }

  // Who holds a seat, in words: "you", a computer's spec, or (online) a person's name.
  function holder(v, i) {
    if (!page.online) return page.seats[i] === 'human' ? 'you' : page.seats[i];
    if (v.you === i) return 'you';
    const s = v.seats[i];
    return s.kind === 'open' ? 'open seat' : s.kind === 'computer' ? s.player : (s.player || 'a person');
  }

  // Draws a view (the page's own engine's, or the server's): board, dice, whose turn, result,
  // history and the moves, each a button that lists the sites a tap picks it by.
  function show(v) {
    page.view = page.drawn = v;
    const human = myTurn(v);
    $('board').innerHTML = v.svg;
    KeliLook.dice($('dice'), v.dice, v.dice_used);
    const who = v.over ? '' : v.chance ? 'Throwing...' : `${seatName(v.mover)} to move (${holder(v, v.mover)})`;
    $('turn').textContent = v.over ? 'The game is over.' : who;
    $('turn').classList.toggle('yours', human);
    $('result').textContent = v.over ? 'Result: ' + v.places.map((p, i) =>
      `${seatName(i)} ${p > 0 ? ordinal(p) : 'unplaced'}`).join(', ')
      + (v.points ? '; points ' + v.points.map((n, i) => `${seatName(i)} ${n}`).join(', ') : '') : '';
    showHistory(v);
    const moves = $('moves');
    moves.textContent = '';
    v.choices.forEach((c, i) => {
      const b = document.createElement('button');
      b.className = 'move';
      b.textContent = c.text;
      b.dataset.index = i;
      b.dataset.sites = c.sites.join(' ');
      if (c.call) b.title = c.call;
      b.disabled = !human;
      b.addEventListener('click', () => choose(i));
      b.addEventListener('mouseenter', () => KeliLook.preview($('board'), c.sites));
      b.addEventListener('mouseleave', () => KeliLook.preview($('board'), []));
      const li = document.createElement('li');
      li.append(b);
      moves.append(li);
    });
    KeliLook.label($('board'), v.choices);
    mark();
    // The history's own box scrolls (the turn, dice and moves stay in view): to its end, once all
    // is drawn, so that the page is laid out once.
    $('history').scrollTop = $('history').scrollHeight;
    page.lastDraw = performance.now();  // from the end: a slow drawing does not make the next come sooner
  }

  // The history: the steps not listed yet are added when the list shown begins the view's (a view
  // comes at every step, and a long game's history is thousands of steps); else listed anew.
  function showHistory(v) {
    const hist = $('history'), from = v.history_from || 0, had = page.listed;
    const grows = had && had.from === from && had.items.length <= v.history.length
      && had.items.every((h, i) => h === v.history[i]);
    if (!grows) hist.textContent = '';
    const frag = document.createDocumentFragment();
    for (let i = grows ? had.items.length : 0; i < v.history.length; i++) {
      const li = document.createElement('li');
      li.textContent = v.history[i];
      frag.append(li);
    }
    hist.append(frag);
    page.listed = { from, items: v.history };
    hist.start = from + 1;  // the view may hold the last steps only
  }

  // The choices still possible after the sites clicked so far.
  function candidates() {
    return page.view.choices.map((c, i) => ({ c, i })).filter(({ c }) => page.selected.every((s) => c.sites.includes(s)));
  }

  // Outlines the sites a click may pick: the legal moves' sites, then those that go with the
  // selection; offers the dice when the clicked sites leave more than one move.
  function mark() {
    const board = $('board');
    const cands = myTurn() ? candidates() : [];
    const open = new Set();
    for (const { c } of cands) for (const s of c.sites) if (!page.selected.includes(s)) open.add(s);
    for (const el of board.querySelectorAll('[data-site]')) {
      const s = Number(el.dataset.site);
      el.classList.toggle('selected', page.selected.includes(s));
      el.classList.toggle(page.selected.length ? 'target' : 'legal', open.has(s));
      el.classList.toggle(page.selected.length ? 'legal' : 'target', false);
    }
    // The moves whose every site is clicked are offered by name when a click cannot tell them
    // apart: alike in sites but not in text, or one move whose sites are part of another's.
    const pick = $('pick');
    pick.textContent = '';
    const complete = cands.filter(({ c }) => c.sites.every((s) => page.selected.includes(s)));
    if (page.selected.length && complete.length && (complete.length > 1 || cands.length > 1)) {
      pick.append('Which? ');
      for (const { c, i } of complete) {
        const b = document.createElement('button');
        b.className = 'pick';
        b.textContent = c.text;
        b.addEventListener('click', () => choose(i));
        pick.append(b);
      }
    }
  }

  function clickSite(site) {
    if (document.body.dataset.status !== 'human') return;
    hideWhy();
    if (page.selected.includes(site)) { page.selected = page.selected.filter((s) => s !== site); return mark(); }
    page.selected.push(site);
    let cands = candidates();
    if (!cands.length) { page.selected = [site]; cands = candidates(); }
    // No offered move names the site: the rules say why nothing starts there.
    if (!cands.length) { page.selected = []; mark(); return whyNot(site); }
    // One move left, or several that read the same (alike pieces): it is played.
    if (cands.every(({ c }) => c.text === cands[0].c.text)) return choose(cands[0].i);
    mark();
  }

  // "Why not?" for a tapped site: the engine's answer in words, one paragraph a reason, and a link
  // to each rule it cites in the rules pane.
  function whyNot(site) {
    if (page.online) return KeliOnline.why(site);  // asked of the server; answered by showWhy
    showWhy(site, call('why', site));
  }

  function showWhy(site, r) {
    const box = $('why');
    box.textContent = '';
    box.dataset.site = site;
    box.hidden = false;
    if (!r.ok) return box.append(r.error);
    for (const line of r.message.split('\n')) {
      const p = document.createElement('p');
      p.textContent = line;
      box.append(p);
    }
    const cited = new Map(r.failed.filter((f) => f.anchor).map((f) => [f.anchor, f.rule]));
    for (const [anchor, rule] of cited) {
      const a = document.createElement('a');
      a.href = `#rules-${anchor}`;
      a.className = 'cite';
      a.textContent = `The rule "${rule.replace(/_/g, ' ')}" in the rules`;
      a.addEventListener('click', (e) => { e.preventDefault(); showRule(anchor); });
      const p = document.createElement('p');
      p.append(a);
      box.append(p);
    }
  }

  function hideWhy() { $('why').hidden = true; $('why').textContent = ''; }

  // The rules pane: the loaded game's rulebook (the same text as keli rules), its ids prefixed so
  // they cannot clash with the page's. Made again only when another file has been loaded.
  function showRules() {
    if (page.online) return KeliOnline.rules();  // the room's game as the server sets it
    if (page.rulesShown === page.loads) return;
    page.rulesShown = page.loads;
    const html = page.pg.rules();
    if (!html) {
      $('rules').textContent = `${page.path} does not compile: its rules cannot be shown (see the Edit tab).`;
      return;
    }
    showRulesHtml(html);
  }

  function showRulesHtml(html) {
    const box = $('rules');
    box.textContent = '';
    const doc = new DOMParser().parseFromString(html, 'text/html');
    for (const el of doc.body.querySelectorAll('[id]')) el.id = `rules-${el.id}`;
    box.append(...doc.body.childNodes);
  }

  // Opens the rules pane at one rule (a "why not?" link), marked until another is cited.
  function showRule(anchor) {
    tab('rules');
    for (const el of $('rules').querySelectorAll('.cited')) el.classList.remove('cited');
    const heading = document.getElementById(`rules-${anchor}`);
    if (!heading) return;
    heading.classList.add('cited');
    heading.scrollIntoView({ block: 'start' });
  }

  function choose(i) {
    if (document.body.dataset.status !== 'human') return;  // a list drawn for an earlier position
    if (page.online) return KeliOnline.move(page.view.choices[i].text);
    const moves = page.view.choices[i].sites.length > 0;  // a piece or a hole: drawn at once
    const r = call('choose', i);
    if (!r.ok) return fault(r.error);
    stepped(moves);
  }

  function undo() {
    hideWhy();
    page.generation++;
    page.thinking = false;
    // Back to the last position where a person was to decide (throws and computers' steps undone).
    do {
      if (!call('undo').ok) break;
      draw(false);
    } while (page.view.chance || page.seats[page.view.mover] !== 'human');
    page.synced = Math.min(page.synced, page.view.steps);
    draw();
    advance();
  }

  function ready() {
    page.pg = new Module.Playground();
    page.worker = new Worker('worker.js');
    page.worker.onmessage = (e) => { if (e.data.think) thought(e.data.think); };
    const games = JSON.parse(Module.Playground.games());
    const sel = $('game-select');
    for (const g of games) sel.add(new Option(g.replace('games/', ''), g));
    sel.value = games.includes('games/raja_pasu.keli') ? 'games/raja_pasu.keli' : games[0];
    sel.addEventListener('change', () => load(sel.value));
    $('new-game').addEventListener('click', newGame);
    $('undo').addEventListener('click', undo);
    $('board').addEventListener('click', (e) => {
      const el = e.target.closest('[data-site]');
      if (el) clickSite(Number(el.dataset.site));
    });
    // Keyboard play: the digits 1 to 9 take the listed moves (the list itself is buttons, read
    // by a screen reader and reached with Tab).
    document.addEventListener('keydown', (e) => {
      if (e.target.closest('input, select, textarea') || e.ctrlKey || e.metaKey || e.altKey) return;
      const n = Number(e.key);
      if (n >= 1 && n <= 9 && page.view?.choices && n <= page.view.choices.length) choose(n - 1);
    });
    $('game-file').addEventListener('change', async (e) => {
      const f = e.target.files[0];
      if (f) openText(`games/${f.name}`, await f.text());
    });
    for (const b of document.querySelectorAll('nav button')) b.addEventListener('click', () => tab(b.dataset.pane));
    KeliTrace.init(page);
    load(sel.value);
    KeliOnline.init();
  }

  // A game file given as text (dropped, or the editor's): written to the page's file system,
  // where its imports of stdlib/ and games/ resolve, then loaded.
  function openText(path, text) {
    Module.Playground.write(path, text);
    const ok = load(path);
    tab(ok ? 'play' : 'edit');
    return ok;
  }

  function tab(name) {
    for (const b of document.querySelectorAll('nav button')) b.setAttribute('aria-selected', b.dataset.pane === name);
    for (const p of document.querySelectorAll('.pane')) p.hidden = p.id !== `pane-${name}`;
    if (name === 'rules') showRules();
  }

  return { ready, openText, tab, page, load, call, showRule, show, showWhy, showRulesHtml, hideWhy, setState, status,
           newGame };
})();
