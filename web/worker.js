// The computer players' Web Worker: its own copy of the rules engine follows the page's game
// by its steps and answers which legal move the seat's player (random, mcts...) picks, so a long
// search never stops the page from answering.
'use strict';

let pg = null;
const pending = [];

var Module = {
  onRuntimeInitialized() {
    pg = new Module.Playground();
    while (pending.length) handle(pending.shift());
  },
};
importScripts('keli.js');

function handle(msg) {
  if (msg.load) {
    Module.Playground.write(msg.load.path, msg.load.text);
    pg.load(msg.load.path);
    return;
  }
  if (msg.think) {
    const t = msg.think;
    let r = JSON.parse(pg.sync(t.from, t.steps));
    if (r.ok) r = JSON.parse(pg.think(t.spec, t.seed));
    postMessage({ think: { ...r, generation: t.generation } });
  }
}

onmessage = (e) => {
  if (pg) handle(e.data);
  else pending.push(e.data);
};
