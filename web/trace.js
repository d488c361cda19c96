// The playground's trace viewer: a trace file (keli run --trace, keli play's save) dropped in,
// re-run and verified by Keli's trace reader, then stepped or scrubbed through, the board drawn
// at each step with what the step changed outlined.
'use strict';

const KeliTrace = (() => {
  const $ = (id) => document.getElementById(id);
  let view = null;
  let steps = 0;

  function show(k) {
    const r = JSON.parse(view.at(k));
    if (!r.ok) return;
    $('trace-board').innerHTML = r.svg;
    $('trace-scrub').value = r.ply;
    $('trace-step').textContent = `step ${r.ply} of ${r.steps}: ${r.text}`;
    document.body.dataset.traceStep = r.ply;
  }

  // Opens a trace given as text: for the game in play when it is the trace's, else the packed
  // game the trace names.
  function open(name, text) {
    Module.Playground.write('/tmp/trace.jsonl', text);
    view = view || new Module.TraceView();
    let r = JSON.parse(view.open('/tmp/trace.jsonl', Keli.page.path));
    if (!r.ok) r = JSON.parse(view.open('/tmp/trace.jsonl', ''));
    if (!r.ok) {
      $('trace-info').textContent = r.error;
      $('trace-board').textContent = '';
      document.body.dataset.traceStep = 'error';
      return false;
    }
    steps = r.steps;
    $('trace-info').textContent = `${name}: ${r.game}, ${r.steps} steps${r.finished ? ', to the result' : ''}, every step verified`;
    $('trace-scrub').max = steps;
    show(0);
    return true;
  }

  function at() { return Number($('trace-scrub').value); }

  function init() {
    $('trace-file').addEventListener('change', async (e) => {
      const f = e.target.files[0];
      if (f) open(f.name, await f.text());
    });
    $('trace-first').addEventListener('click', () => view && show(0));
    $('trace-prev').addEventListener('click', () => view && show(at() - 1));
    $('trace-next').addEventListener('click', () => view && show(at() + 1));
    $('trace-last').addEventListener('click', () => view && show(steps));
    $('trace-scrub').addEventListener('input', () => view && show(at()));
    document.addEventListener('keydown', (e) => {
      if ($('pane-trace').hidden || !view) return;
      if (e.key === 'ArrowRight') show(at() + 1);
      if (e.key === 'ArrowLeft') show(at() - 1);
    });
  }

  return { init, open };
})();
