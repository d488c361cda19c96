// The playground's editor pane: the game file's text; as the author types (debounced), the text
// is written to the page's file system and checked, and validate's diagnostics are listed with
// line:col, message and hint. "Play this file" plays the edited game.
'use strict';

const KeliEditor = (() => {
  const $ = (id) => document.getElementById(id);
  const DEBOUNCE_MS = 300;  // the check runs this long after the last key
  let path = '';
  let timer = 0;
  let checker = null;  // a Playground of its own, so checking never disturbs the game in play

  function show(p, text, diagnostics) {
    path = p;
    $('edit-path').textContent = p;
    if ($('editor').value !== text) $('editor').value = text;
    list(diagnostics);
  }

  function list(diagnostics) {
    const ul = $('diagnostics');
    ul.textContent = '';
    let errors = 0, warnings = 0;
    for (const d of diagnostics) {
      if (d.severity === 'error') errors++; else warnings++;
      const li = document.createElement('li');
      li.className = `diagnostic ${d.severity}`;
      li.dataset.line = d.line;
      li.dataset.column = d.column;
      const where = d.line ? `${d.file}:${d.line}:${d.column}` : d.file || '';
      const summary = document.createElement('div');
      summary.className = 'summary';
      summary.textContent = `${where}: ${d.severity}: ${d.message} [${d.code}]`;
      li.append(summary);
      if (d.hint) {
        const hint = document.createElement('div');
        hint.className = 'hint';
        hint.textContent = `hint: ${d.hint}`;
        li.append(hint);
      }
      const pre = document.createElement('pre');
      pre.textContent = d.rendered;
      li.append(pre);
      li.addEventListener('click', () => go(d.line, d.column));
      ul.append(li);
    }
    $('diag-summary').textContent = `${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`;
    document.body.dataset.checked = String(Date.now());
  }

  // Puts the cursor at line:col of the textarea.
  function go(line, col) {
    const ed = $('editor');
    const lines = ed.value.split('\n');
    let at = 0;
    for (let i = 0; i < line - 1 && i < lines.length; i++) at += lines[i].length + 1;
    at += Math.max(0, col - 1);
    ed.focus();
    ed.setSelectionRange(at, at);
  }

  function check() {
    if (!path) return;
    Module.Playground.write(path, $('editor').value);
    checker = checker || new Module.Playground();
    const r = JSON.parse(checker.load(path));
    list(r.diagnostics);
  }

  document.addEventListener('DOMContentLoaded', () => {
    $('editor').addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(check, DEBOUNCE_MS);
    });
    $('edit-play').addEventListener('click', () => {
      clearTimeout(timer);
      Keli.openText(path, $('editor').value);
    });
  });

  return { show, check };
})();
