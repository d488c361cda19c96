// Online play, when the page is served by `keli serve` (docs/serve.md): the lobby, rooms made with
// people, open seats and computer players, a link to share, seats held by a token kept in this
// browser (so a reload or a dropped network resumes the seat), rematch. The server is the
// referee: this page only draws its views and sends the moves tapped; nothing is decided here.
'use strict';

const KeliOnline = (() => {
  const $ = (id) => document.getElementById(id);
  const SEAT_KINDS = [['person', 'you'], ['open', 'a friend (open seat)'], ['random', 'computer: random'],
                      ['greedy', 'computer: greedy'], ['mcts:time=1', 'computer: mcts 1 s'],
                      ['mcts:time=3', 'computer: mcts 3 s']];
  const RETRY_MS = [250, 500, 1000, 2000, 4000, 8000];  // the waits between attempts to reconnect
  const LOBBY_EVERY_MS = 5000;                             // the lobby's refresh while it is shown
  const WATCH_MS = 250;  // while others move, the board is drawn at most this often (and after the motion)
  const TOKEN_KEY = 'keli.seat.';                          // local storage: a room's seat and token
  const on = {
    ws: null, available: false, tries: 0, library: [], room: '', seat: -1, view: null, pending: null,
    lobbyTimer: 0, rulesFor: '', traceWanted: '', followSeat: null, rejoining: false,
    latest: null, echo: null, frame: 0, timer: 0, drawnAt: 0,  // views come, and when they are to be drawn
  };

  function storeSeat(room, seat, token) {
    try { localStorage.setItem(TOKEN_KEY + room, JSON.stringify({ seat, token })); } catch (e) { /* private mode */ }
  }
  function storedSeat(room) {
    try { return JSON.parse(localStorage.getItem(TOKEN_KEY + room) || 'null'); } catch (e) { return null; }
  }

  function send(msg) {
    if (on.ws && on.ws.readyState === WebSocket.OPEN) on.ws.send(JSON.stringify(msg));
  }

  // The room and a seat token given in the address (#room=ID, #room=ID&seat=TOKEN). A token is
  // moved to local storage and taken out of the address, so that a link copied later gives no seat away.
  function fromAddress() {
    const h = new URLSearchParams(location.hash.replace(/^#/, ''));
    const room = h.get('room') || '';
    if (room && h.get('seat')) {
      storeSeat(room, -1, h.get('seat'));
      history.replaceState(null, '', `#room=${encodeURIComponent(room)}`);
    }
    return room;
  }

  function connect() {
    const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
    let ws;
    try { ws = new WebSocket(url); } catch (e) { return unavailable(); }
    on.ws = ws;
    ws.onopen = () => {
      on.available = true;
      on.tries = 0;
      document.body.dataset.online = 'connected';
      $('tab-online').hidden = false;
      send({ t: 'games' });
      send({ t: 'lobby' });
      const room = on.room || fromAddress();
      if (room) join(room);
    };
    ws.onmessage = (e) => receive(JSON.parse(e.data));
    ws.onclose = () => {
      on.ws = null;
      if (!on.available) return unavailable();  // never reached: a page served without keli serve
      document.body.dataset.online = 'reconnecting';
      if (on.room) Keli.status('connection lost: reconnecting...');
      setTimeout(connect, RETRY_MS[Math.min(on.tries++, RETRY_MS.length - 1)]);
    };
  }

  function unavailable() {
    document.body.dataset.online = 'off';
    $('online-note').textContent = 'Online play needs the page to be served by keli serve (docs/serve.md).';
  }

  // Watches a room, holding its seat again when this browser keeps the room's token.
  function join(room) {
    const kept = storedSeat(room);
    send(kept ? { t: 'join', room, token: kept.token } : { t: 'join', room });
  }

  const handlers = {
    games(m) { on.library = m.library || m.games.map((g) => ({ game: g, title: g, seats: [] })); makeForm(); },
    lobby(m) { showLobby(m); },
    created(m) { entered(m.room, m.seat, m.token); },
    joined(m) { entered(m.room, m.seat, null); },
    seated(m) { storeSeat(m.room, m.seat, m.token); on.seat = m.seat; },
    view(m) { if (m.room === on.room) received(m); },
    moved() {},
    rules(m) { if (m.room === on.room) { on.rulesFor = m.room; Keli.showRulesHtml(m.html); } },
    why(m) { if (m.room === on.room) Keli.showWhy(m.site, { ok: true, message: m.message, failed: m.failed }); },
    trace(m) { gotTrace(m); },
    error(m) { refused(m); },
  };

  function receive(m) {
    const h = handlers[m.t];
    if (h) h(m);
  }

  function refused(m) {
    // A token this browser kept that holds no seat (the room was remade): watch as a spectator.
    const asked = on.pending || on.room;
    if (m.code === 'not_your_seat' && m.request === 'join' && asked) {
      try { localStorage.removeItem(TOKEN_KEY + asked); } catch (e) { /* private mode */ }
      send({ t: 'join', room: asked });
      return;
    }
    if (m.code === 'no_room' && m.request === 'join') {
      on.room = '';
      history.replaceState(null, '', location.pathname);
    }
    $('online-error').textContent = m.error;
    Keli.status(`refused: ${m.error}`);
    if (on.room && on.view) setTurnState(on.view);
  }

  function entered(room, seat, token) {
    const again = room === on.room;  // a reconnection, or the whole view asked for again
    if (token) storeSeat(room, seat, token);
    const kept = storedSeat(room);
    on.room = room;
    on.pending = null;
    on.seat = seat >= 0 ? seat : -1;
    if (kept && seat >= 0 && kept.seat !== seat) storeSeat(room, seat, kept.token);
    on.rulesFor = '';
    Keli.page.generation++;  // the local game's computer players stop: their answers are dropped
    Keli.page.online = { room };
    document.body.classList.add('in-room');
    history.replaceState(null, '', `#room=${encodeURIComponent(room)}`);
    $('room-link').value = `${location.origin}${location.pathname}#room=${room}`;
    $('online-error').textContent = '';
    if (!again) Keli.tab('play');
  }

  function leave() {
    on.room = '';
    on.view = on.latest = on.echo = null;
    Keli.page.online = null;
    document.body.classList.remove('in-room');
    history.replaceState(null, '', location.pathname);
    Keli.newGame();
    Keli.tab('online');
  }

  function setTurnState(v) {
    if (v.over) Keli.setState('over');
    else if (!v.chance && v.you === v.mover) Keli.setState('human');
    else Keli.setState('waiting');
  }

  // Views are drawn at a frame, the newest of those come by then: at once when this page's person
  // is to move or the game is over, and the step this page's person made (its echo) before those
  // that follow it; others' steps (computer players' come many a second) at most every WATCH_MS,
  // and not before the motion running ends. So a page never falls behind the server, and input
  // never waits for a motion.
  function received(m) {
    const v = whole(m);
    if (!v) return;
    if (document.body.dataset.status === 'sending' && !on.echo) on.echo = v;
    on.latest = v;
    schedule();
  }

  function schedule() {
    const v = on.latest;
    if (on.frame || !v || v === on.view || v.room !== on.room) return;  // a frame asked for draws the newest
    if (on.echo || !on.view || on.view.room !== v.room || v.over || (v.you === v.mover && !v.chance)) {
      clearTimeout(on.timer);
      on.timer = 0;
      return frame();
    }
    if (on.timer) return;
    const wait = Math.max(on.drawnAt + WATCH_MS - performance.now(), KeliLook.remaining());
    if (wait <= 0) return frame();
    on.timer = setTimeout(() => { on.timer = 0; frame(); }, wait);
  }

  function frame() {
    on.frame = requestAnimationFrame(() => {
      on.frame = 0;
      on.drawnAt = performance.now();
      const v = on.echo || on.latest;
      on.echo = null;
      if (v && v.room === on.room) showView(v);
      schedule();  // the views come after the one drawn
    });
  }

  // The server's view of the room: drawn by the play pane, with the room's bar (seats, link,
  // rematch) above it. A rematch made by another player is followed to the same seat.
  function showView(v) {
    const first = !on.view || on.view.room !== v.room;
    const before = on.view && !first ? on.view : null;
    on.view = v;
    on.seat = v.you;
    Keli.page.players = v.seats.map((s) => s.name);
    KeliLook.animate(before, v, () => {
      Keli.show(v);
      setTurnState(v);
      Keli.status(`${v.title}, room ${v.room}${v.you >= 0 ? `: you play ${v.seats[v.you].name}` : ': watching'}`);
      showSeats(v);
      KeliLook.summary($('since'), v);
    });
    if (v.rematch && v.you >= 0 && (!on.followSeat || on.followSeat.room !== v.rematch)) followRematch(v);
  }

  // A view carries the steps from history_from on (the server sends the last few with each step):
  // they are joined to the history this page has. When some are missing (a view lost), the whole
  // view is asked for again (join), once, and the partial views are skipped until it comes.
  function whole(v) {
    const from = v.history_from || 0;
    if (!from) {
      on.rejoining = false;
      return v;
    }
    const had = on.latest && on.latest.room === v.room ? on.latest : null;
    if (!had || had.history.length < from) {
      if (!on.rejoining) {
        on.rejoining = true;
        join(v.room);
      }
      return null;
    }
    return Object.assign({}, v, { history: had.history.slice(0, from).concat(v.history),
                                  by: had.by.slice(0, from).concat(v.by), history_from: 0 });
  }

  // The seat held here is taken in the rematch as soon as its view shows it open.
  function followRematch(v) {
    on.followSeat = { room: v.rematch, seat: v.you };
    on.pending = v.rematch;
    send({ t: 'join', room: v.rematch });
  }

  function showSeats(v) {
    const box = $('room-seats');
    box.textContent = '';
    v.seats.forEach((s, i) => {
      const li = document.createElement('li');
      li.textContent = `${s.name}: ${s.kind === 'open' ? 'open' : s.kind === 'computer' ? s.player
        : (s.player || 'a person')}${v.you === i ? ' (you)' : ''}`;
      if (s.kind === 'open' && v.you < 0 && !v.over) {
        const b = document.createElement('button');
        b.textContent = 'Sit here';
        b.className = 'sit';
        b.dataset.seat = i;
        b.addEventListener('click', () => send({ t: 'sit', room: v.room, seat: i, name: $('online-name').value }));
        li.append(' ', b);
      }
      box.append(li);
    });
    // Following a rematch: the seat held before is taken as soon as it shows open.
    const f = on.followSeat;
    if (f && f.room === v.room && v.you < 0 && v.seats[f.seat] && v.seats[f.seat].kind === 'open') {
      on.followSeat = null;
      send({ t: 'sit', room: v.room, seat: f.seat, name: $('online-name').value });
    }
    $('rematch').hidden = !(v.over && v.you >= 0);
  }

  function move(text) {
    Keli.setState('sending');  // no second tap until the server answers
    send({ t: 'move', room: on.room, move: text });
  }

  function why(site) { send({ t: 'why', room: on.room, site }); }

  function rules() {
    if (on.rulesFor === on.room) return;
    send({ t: 'rules', room: on.room });
  }

  function gotTrace(m) {
    const name = `${m.room}.trace.jsonl`;
    if (on.traceWanted === 'view') {
      Keli.tab('trace');
      KeliTrace.open(name, m.trace);
    } else {
      const a = document.createElement('a');
      a.href = URL.createObjectURL(new Blob([m.trace], { type: 'application/jsonl' }));
      a.download = name;
      a.click();
      setTimeout(() => URL.revokeObjectURL(a.href), 10000);
    }
  }

  // The form that makes a room: a game of the server's library, then each of its seats.
  function makeForm() {
    const sel = $('online-game');
    sel.textContent = '';
    for (const g of on.library) sel.add(new Option(g.title === g.game ? g.game : `${g.title} (${g.game})`, g.game));
    if (on.library.some((g) => g.game === 'raja_pasu')) sel.value = 'raja_pasu';
    makeSeatChoices();
  }

  function makeSeatChoices() {
    const g = on.library.find((x) => x.game === $('online-game').value);
    const box = $('online-seats');
    box.textContent = '';
    (g ? g.seats : []).forEach((name, i) => {
      const s = document.createElement('select');
      s.id = `online-seat-${i}`;
      for (const [spec, label] of SEAT_KINDS) s.add(new Option(label, spec));
      s.value = i === 0 ? 'person' : 'open';
      const label = document.createElement('label');
      label.append(`${name} `, s);
      box.append(label);
    });
  }

  function create() {
    const seats = [...$('online-seats').querySelectorAll('select')].map((s) => s.value);
    $('online-error').textContent = '';
    send({ t: 'create', game: $('online-game').value, seats, name: $('online-name').value });
  }

  function showLobby(m) {
    for (const [id, rooms, verb] of [['lobby-open', m.open, 'Join'], ['lobby-playing', m.playing, 'Watch']]) {
      const list = $(id);
      list.textContent = '';
      for (const r of rooms) {
        const li = document.createElement('li');
        const b = document.createElement('button');
        b.textContent = verb;
        b.dataset.room = r.room;
        b.addEventListener('click', () => { on.pending = r.room; join(r.room); });
        li.append(`${r.game} (room ${r.room}, ${r.steps} steps) `, b);
        list.append(li);
      }
      if (!rooms.length) list.append('none now');
    }
  }

  function init() {
    if (!/^https?:$/.test(location.protocol)) return unavailable();
    $('online-game').addEventListener('change', makeSeatChoices);
    $('online-create').addEventListener('click', create);
    $('online-refresh').addEventListener('click', () => send({ t: 'lobby' }));
    $('room-leave').addEventListener('click', leave);
    $('room-copy').addEventListener('click', () => {
      $('room-link').select();
      navigator.clipboard?.writeText($('room-link').value).catch(() => {});
    });
    $('rematch').addEventListener('click', () => send({ t: 'rematch', room: on.room }));
    $('room-trace').addEventListener('click', () => { on.traceWanted = 'save'; send({ t: 'trace', room: on.room }); });
    $('room-replay').addEventListener('click', () => { on.traceWanted = 'view'; send({ t: 'trace', room: on.room }); });
    try { $('online-name').value = localStorage.getItem('keli.name') || ''; } catch (e) { /* private mode */ }
    $('online-name').addEventListener('change', () => {
      try { localStorage.setItem('keli.name', $('online-name').value); } catch (e) { /* private mode */ }
    });
    on.lobbyTimer = setInterval(() => { if (!$('pane-online').hidden) send({ t: 'lobby' }); }, LOBBY_EVERY_MS);
    window.addEventListener('hashchange', () => {
      const room = fromAddress();
      if (room && room !== on.room) { on.pending = room; join(room); }
    });
    on.pending = fromAddress() || null;
    connect();
  }

  return { init, move, why, rules, state: on };
})();
