// plateau studio's numbers panel: the designer's numbers on the page. The game's parameters and
// the data values in force (from --set, --set-file's overlay, a save or this page), editable, put
// in force by the server with the command line's own code (POST /api/numbers: the same values
// are refused with the same messages as --set), then a new game or a simulation from them in one
// click. Also a saved tune result (plateau tune --format json) shown as its knobs, targets,
// candidates and verdict, whose tuned values can be put in force the same way. Loaded after
// studio.js, whose helpers ($, el, api, say, runSimulation) it uses.
'use strict';

let numbers = null;  // /api/numbers: the values in force
let shownTune = null;  // the tune result on the page

// A value as --set takes it: strings bare, the rest as JSON.
const setText = (v) => (typeof v === 'string' ? v : JSON.stringify(v));

async function refreshNumbers() {
  try {
    numbers = await api('/api/numbers');
  } catch (e) {
    say(e.message, true);
    return;
  }
  drawNumbers();
}

function drawNumbers() {
  const n = numbers;
  const box = $('numbers-body');
  box.replaceChildren();
  // The overlay: said plainly whether its values are the ones in force.
  const ov = $('numbers-overlay');
  ov.hidden = !n.overlay;
  if (n.overlay) {
    const names = Object.keys(n.overlay.values);
    ov.className = 'overlay ' + (n.overlay.active ? 'active' : 'replaced');
    ov.textContent = n.overlay.active
      ? `overlay active: ${n.overlay.file} (--set-file) sets ${names.map((k) => `${k}=${setText(n.overlay.values[k])}`).join(', ') || 'nothing'}`
      : `overlay ${n.overlay.file} no longer in force: the values below were changed on the page or by a save`;
  }
  const params = el('table', { id: 'numbers-params', class: 'numbers' },
    el('tr', {}, ...['parameter', 'value', 'default', 'allowed', 'set by'].map((h) => el('th', { text: h }))));
  for (const p of n.params) {
    const allowed = p.choices ? p.choices.join(' | ') : p.type === 'boolean' ? 'true | false'
      : `${p.type}${p.minimum != null || p.maximum != null ? ` ${p.minimum ?? '…'}..${p.maximum ?? '…'}` : ''}`;
    const input = el('input', { type: 'text', size: 10, value: setText(p.value), 'data-param': p.name, 'data-default': setText(p.default) });
    const row = el('tr', { class: p.set_by ? 'set' : '', title: p.doc || '' },
      el('td', { text: p.name }), el('td', {}, input), el('td', { text: setText(p.default) }), el('td', { text: allowed }),
      el('td', { class: 'set-by', text: p.set_by || '' }));
    params.append(row);
  }
  if (!n.params.length) params.append(el('tr', {}, el('td', { colspan: 5, text: 'this game has no parameters' })));
  const data = el('table', { id: 'numbers-data', class: 'numbers' },
    el('tr', {}, ...['data value (<data>.<path>)', 'value', "the data's own", 'set by', ''].map((h) => el('th', { text: h }))));
  for (const d of n.data) {
    const row = el('tr', { class: 'set', 'data-path': d.path },
      el('td', { text: d.path }), el('td', {}, el('input', { type: 'text', size: 10, value: setText(d.value), 'data-data': d.path })),
      el('td', { text: d.original == null ? '' : setText(d.original) }), el('td', { class: 'set-by', text: d.set_by || '' }),
      el('td', {}, el('button', { class: 'small', text: 'remove', title: "back to the data's own value", onclick: () => { row.remove(); } })));
    data.append(row);
  }
  data.append(el('tr', { class: 'add' },
    el('td', {}, el('input', { id: 'numbers-add-path', type: 'text', size: 28, placeholder: 'add: e.g. chenilles.market_size' })),
    el('td', {}, el('input', { id: 'numbers-add-value', type: 'text', size: 10, placeholder: 'value' })), el('td'), el('td'), el('td')));
  box.append(params, data);
}

// The form's values as --set arguments: a parameter at its default is left out (the game's own
// value), every data value listed is kept.
function numbersSets() {
  const sets = [];
  for (const input of document.querySelectorAll('#numbers-params input[data-param]')) {
    const text = input.value.trim();
    if (text !== input.dataset.default) sets.push(`${input.dataset.param}=${text}`);
  }
  for (const input of document.querySelectorAll('#numbers-data input[data-data]')) sets.push(`${input.dataset.data}=${input.value.trim()}`);
  const path = $('numbers-add-path') ? $('numbers-add-path').value.trim() : '';
  if (path) sets.push(`${path}=${$('numbers-add-value').value.trim()}`);
  return sets;
}

// Puts the values in force and starts a new game with them; false (the message shown) when the
// server refused them.
async function applyNumbers(sets) {
  try {
    await api('/api/numbers', { sets, players: Number($('players').value) || 0, seed: Number($('seed').value) || 0 });
  } catch (e) {
    say(e.message, true);
    $('numbers-panel').dataset.applied = 'refused';
    return false;
  }
  viewing = -1;
  await refreshNumbers();
  await refresh();
  $('numbers-panel').dataset.applied = sets.join(' ');
  return true;
}

$('numbers-new').addEventListener('click', async () => {
  if (await applyNumbers(numbersSets())) say(`a new game with ${numbersSets().join(', ') || "the game's own values"}`);
});
$('numbers-simulate').addEventListener('click', async () => {
  if (await applyNumbers(numbersSets())) runSimulation(false);
});
$('numbers-defaults').addEventListener('click', async () => {
  if (await applyNumbers([])) say("a new game with the game's own values (no --set in force)");
});

// ---- a tune result -------------------------------------------------------------------------

const fmtNum = (v) => (typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toFixed(3)) : v == null ? '' : setText(v));

function drawTune(t, name) {
  shownTune = t;
  const box = $('tune-box');
  box.hidden = false;
  box.replaceChildren();
  const v = t.verdict || {};
  const knobs = (t.knobs || []).map((k) => `${k.name} ${fmtNum(k.lo)}..${fmtNum(k.hi)}${k.step ? `:${k.step}` : ''} (from ${fmtNum(k.start)})`);
  box.append(el('h3', { text: `tune result ${name}: ${t.game}, ${t.games_per_candidate} games per candidate, bots ${t.bots}` }));
  box.append(el('div', { class: 'tune-knobs', text: `knobs: ${knobs.join('; ')}${(t.fixed_sets || []).length ? ` · fixed: ${t.fixed_sets.join(', ')}` : ''}` }));
  // The verdict, as the CLI's text says it.
  const verdict = el('div', { id: 'tune-verdict', class: 'tune-verdict ' + (v.all_met ? 'met' : 'missed') });
  verdict.append(el('b', { text: v.all_met ? 'every target met' : `targets missed: ${(v.missed || []).join(', ')}` }),
    ` · ${v.status || ''} · ${v.candidates_searched} candidates in ${fmtNum(v.seconds)} s${v.out_of_budget ? ' (out of budget)' : ''}`);
  if ((v.within_noise || []).length) verdict.append(el('div', { text: `within the games' noise: ${v.within_noise.join(', ')}` }));
  for (const nm of v.never_met || []) verdict.append(el('div', { text: `never met: ${nm.target}; closest ${Object.entries(nm.closest.values).map(([k, x]) => `${k}=${fmtNum(x)}`).join(', ')}` }));
  for (const c of v.conflicts || []) verdict.append(el('div', { text: `conflict: ${c[0]} against ${c[1]}` }));
  box.append(verdict);
  // The tuned values and the confirmation run's measures against the targets.
  const best = Object.entries(t.best || {});
  const use = el('button', { id: 'tune-use', text: 'New game with these values', title: 'put the tuned values in force over the present ones (as --set-file with the overlay tune --write makes)' });
  use.addEventListener('click', async () => {
    const sets = numbersSets().filter((s) => !best.some(([k]) => s.startsWith(`${k}=`)));
    for (const [k, x] of best) sets.push(`${k}=${setText(x)}`);
    if (await applyNumbers(sets)) say(`a new game with the tuned values ${best.map(([k, x]) => `${k}=${setText(x)}`).join(', ')}`);
  });
  box.append(el('div', { class: 'tune-best' }, el('b', { text: 'tuned values: ' }), best.map(([k, x]) => `${k}=${setText(x)}`).join(', ') || 'none', ' ', use));
  const targets = el('table', { id: 'tune-targets', class: 'numbers' },
    el('tr', {}, ...['target', 'confirmed value', '± se', 'verdict'].map((h) => el('th', { text: h }))));
  const conf = t.confirmation || {};
  for (const tg of t.targets || []) {
    const m = (conf.measures || []).find((x) => x.target === tg.target) || {};
    targets.append(el('tr', { class: 'verdict-' + String(m.verdict || 'none').replace(/\W+/g, '-') },
      el('td', { text: tg.target }), el('td', { text: fmtNum(m.value) }), el('td', { text: fmtNum(m.se) }), el('td', { text: m.verdict || (conf.failure ? `failed: ${conf.failure}` : '') })));
  }
  box.append(el('h3', { text: `targets (confirmation run: ${conf.games ?? '?'} games on other seeds)` }), targets);
  // Every candidate searched, in the search's order, the targets' measures on each.
  const names = (t.knobs || []).map((k) => k.name);
  const cands = el('table', { id: 'tune-candidates', class: 'numbers' },
    el('tr', {}, el('th', { text: '#' }), el('th', { text: 'phase' }), ...names.map((k) => el('th', { text: k })),
      ...(t.targets || []).map((tg) => el('th', { text: tg.target })), el('th', { text: 'distance' })));
  (t.candidates || []).forEach((c, i) => {
    const row = el('tr', { class: c.failed || c.failure ? 'failed' : c.distance === 0 ? 'all-met' : '' },
      el('td', { text: String(i + 1) }), el('td', { text: c.phase }), ...names.map((k) => el('td', { text: fmtNum(c.values[k]) })));
    if (c.failure) row.append(el('td', { colspan: (t.targets || []).length + 1, text: `failed: ${c.failure}` }));
    else {
      for (const tg of t.targets || []) {
        const m = (c.measures || []).find((x) => x.target === tg.target) || {};
        row.append(el('td', { class: 'verdict-' + String(m.verdict || '').replace(/\W+/g, '-'), text: fmtNum(m.value), title: m.verdict || '' }));
      }
      row.append(el('td', { text: fmtNum(c.distance) }));
    }
    cands.append(row);
  });
  box.append(el('details', { open: '' }, el('summary', { text: `candidates (${(t.candidates || []).length})` }), cands));
  box.dataset.file = name;
}

$('tune-show').addEventListener('click', async () => {
  try {
    const r = await api('/api/tune', { path: $('tune-path').value.trim() });
    drawTune(r.tune, r.name);
    say('');
  } catch (e) {
    say(e.message, true);
  }
});

// The table's bots as the simulation's default: each human seat played by the table's bot
// (a simulation has no human), until the designer types their own.
function defaultSimBots() {
  const field = $('sim-bots');
  if (field.dataset.edited || !table) return;
  const specs = table.seats.slice(0, table.state.player_count).map((s) => s.controller);
  const all = table.seats.map((s) => s.controller);
  const bot = [...specs].reverse().find((s) => s !== 'human') || [...all].reverse().find((s) => s !== 'human') || 'random';
  field.value = specs.map((s) => (s === 'human' ? bot : s)).join(',');
}
$('sim-bots').addEventListener('input', () => { $('sim-bots').dataset.edited = '1'; });
document.addEventListener('studio-table', defaultSimBots);
// The values in force change with a new set of numbers, a loaded save and a reload.
document.addEventListener('studio-event', (e) => {
  if (['numbers', 'load', 'reload'].includes(e.detail.kind)) refreshNumbers();
});
refreshNumbers();
