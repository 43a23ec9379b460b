// plateau studio's page script: draws the host's state JSON generically (grids of cards, tile
// maps, region maps from data coordinates, zones, counters, tracks), the score table, the
// moves of the human seats, the log with a slider over the game's history, the reload banner,
// and the simulation's plots (Chart.js). No game-specific code: a game declares its look in its
// data (data/look.json, schemas/look.schema.json: card faces, seat colours, tokens on cells,
// corners, regions and scale buckets, counters with caps, values, boards, tracks), and this
// script draws that description for every game alike.
'use strict';

const TOKEN = new URLSearchParams(location.search).get('token') || '';
const $ = (id) => document.getElementById(id);
const el = (tag, attrs = {}, ...children) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of children) if (c != null) e.append(c);
  return e;
};
const SVG = 'http://www.w3.org/2000/svg';
const svg = (tag, attrs = {}) => {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
};

function url(path, params = {}) {
  const q = new URLSearchParams({ token: TOKEN, ...params });
  return `${path}?${q}`;
}
async function api(path, body, params) {
  const opts = body === undefined ? {} : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) };
  const res = await fetch(url(path, params), opts);
  let data;
  try { data = await res.json(); } catch (e) { data = { error: `HTTP ${res.status}` }; }
  if (!res.ok) throw new Error(data.error || `HTTP ${res.status}`);
  // A later action that succeeds clears an error still on screen (its caller may say more).
  if (body !== undefined && $('message').classList.contains('error')) say('');
  return data;
}
function say(text, isError) {
  const m = $('message');
  m.hidden = !text;
  m.textContent = text || '';
  m.className = 'message' + (isError ? ' error' : '');
}

// Colours: a card's face (the look), its own (the game's data), else one derived from its id.
function colourOf(id) {
  if (faces[id] && faces[id].colour) return faces[id].colour;
  const card = game && game.cards[id];
  if (card && (card.color || card.colour)) return card.color || card.colour;
  let h = 0;
  for (const ch of String(id)) h = (h * 31 + ch.charCodeAt(0)) % 360;
  return `hsl(${h}, 55%, 78%)`;
}
const SEAT_COLOURS = ['#d9534f', '#337ab7', '#5cb85c', '#f0ad4e', '#9b59b6', '#1abc9c', '#7f8c8d', '#e67e22'];
// A seat's colour (seats counted from 0): the look's seat_colours, else the page's.
function seatColour(s) {
  const own = look().seat_colours;
  const k = Math.max(0, Number(s) || 0);
  return own && own.length ? own[k % own.length] : SEAT_COLOURS[k % 8];
}
function cardName(id) {
  if (faces[id] && faces[id].title) return faces[id].title;
  const card = game && game.cards[id];
  if (!card) return id;
  const n = card.name;
  return typeof n === 'object' && n ? (n.en || n.fr || id) : (n || id);
}

// ---- the look: a game's data/look.json, checked by the host when the game loads -------------

const look = () => (game && game.data && game.data.look) || {};
// A field of an entry: "name", "a.b", "regions.length".
function fieldOf(entry, path) {
  let at = entry;
  for (const part of String(path).split('.')) {
    if (at == null) return undefined;
    at = part === 'length' && (Array.isArray(at) || typeof at === 'string') ? at.length
      : part === 'length' && typeof at === 'object' ? Object.keys(at).length : at[part];
  }
  return at;
}
// A value in words: a name object in English, a list joined, an object as "key value, ...".
function words(v) {
  if (v == null) return '';
  if (Array.isArray(v)) return v.map(words).join(', ');
  if (typeof v === 'object') return v.en || v.fr || Object.entries(v).map(([k, x]) => `${k} ${words(x)}`).join(', ');
  return String(v);
}
// A look's template: {field} from the entry (or from `extra`).
function fill(template, entry, extra = {}) {
  return String(template || '').replace(/\{([^}]+)\}/g, (_, f) => words(f in extra ? extra[f] : fieldOf(entry, f)));
}
const pretty = (id) => String(id).replace(/_/g, ' ');
// A value of state.data by a key or a path ("revealed/pieces").
function stateAt(path) {
  let at = table && table.state.data;
  for (const part of String(path).split('/')) at = at == null ? undefined : at[part];
  return at;
}

// Card faces by card id, from the look's "cards": each entry of a data list with its title,
// cost, text, icon and colour taken from its own fields (a modder's new card shows its text).
let faces = {};
function buildFaces() {
  faces = {};
  for (const spec of look().cards || []) {
    const list = dataAt(spec.from);
    const entries = Array.isArray(list) ? list : list && typeof list === 'object' ? Object.entries(list).map(([id, e]) => ({ id, ...e })) : [];
    for (const e of entries) {
      if (!e || typeof e !== 'object' || e.id == null) continue;
      const title = spec.title ? fill(spec.title, e) : words(e.name);
      faces[e.id] = {
        id: e.id,
        title: !title || title === String(e.id) ? pretty(e.id) : title,
        cost: spec.cost ? fill(spec.cost, e) : '',
        text: spec.text ? fill(spec.text, e) : '',
        icon: (spec.icons && spec.icons[e.id]) || (spec.icon ? fill(spec.icon, e) : '') || e.icon || '',
        colour: (spec.colour_field && e[spec.colour_field]) || (spec.colour_by && spec.colours && spec.colours[e[spec.colour_by]]) || spec.colour || e.colour || e.color || null,
      };
    }
  }
}
const iconOf = (id) => (faces[id] && faces[id].icon) || (game.cards[id] && game.cards[id].icon) || '';
// A card's face: icon and title, its cost in the corner, its rules text below.
function faceEl(id, cls = 'face') {
  const f = faces[id] || {};
  const d = el('div', { class: cls, 'data-card': id },
    el('div', { class: 'face-title' }, iconOf(id) ? el('span', { class: 'face-icon', text: iconOf(id) }) : null, el('span', { text: cardName(id) }),
      f.cost ? el('span', { class: 'face-cost', text: f.cost }) : null),
    f.text ? el('div', { class: 'face-text', text: f.text }) : null);
  d.style.background = colourOf(id);
  d.title = `${cardName(id)}${f.text ? '\n' + f.text : ''}`;
  return d;
}

let game = null;       // /api/game
let table = null;      // /api/state
let viewing = -1;      // -1: the live table; else the move number shown
let prevScores = null; // scores before the latest change, to highlight what moved
let pickCell = null;   // a clicked cell whose several moves are listed
// The seat whose view the table shows ('' : the designer's, everything), as the page's URL may
// give it (&seat=2) and the "view as" list sets it.
let viewAs = new URLSearchParams(location.search).get('seat') || '';

async function loadGame() {
  game = await api('/api/game');
  $('title').textContent = game.name;
  $('game-info').textContent = `${game.folder} · ${game.min_players}–${game.max_players} players · rules ${game.fingerprint}`;
  // The print-and-play sheets (plateau print), drawn by the server with the numbers in force.
  for (const paper of ['a4', 'letter'])
    $(`print-${paper}`).href = `/api/print?${new URLSearchParams({ token: TOKEN, paper })}`;
  $('sim-n').max = game.max_sim_games;
  buildFaces();
}

let shownError = null;  // the server's last background failure, once said
function show(next) {
  // An answer computed before a change the events already showed (a refresh that crossed a
  // bot's move on the way) is older than the table on the page: kept out.
  if (table && next.revision < table.revision) return;
  if (next.background_error && next.background_error !== shownError) say(shownError = next.background_error, true);
  if (table && next.version !== table.version) pickCell = null;  // a cell's choices belong to the table they were listed on
  if (table && viewing < 0 && next.version !== table.version) prevScores = table.scores;
  table = next;
  draw();
}
async function refresh() {
  // The answer is for the view asked for: one that comes back after the view changed (a seat,
  // the history) is not this view's.
  const at = viewing, seat = viewAs;
  try {
    const next = await api('/api/state', undefined, { ...(at >= 0 ? { at } : {}), ...(seat ? { seat } : {}) });
    if (at === viewing && seat === viewAs) show(next);
  } catch (e) {
    say(e.message, true);
    // A seat that is not at the table (a URL's seat, or a new game with fewer players): the
    // message stays, and the table is shown as the designer sees it.
    if (viewAs) {
      viewAs = '';
      await refresh();
    }
  }
}

// ---- the table ---------------------------------------------------------------------------

function seatName(s) { return table.state.seats[s] ? table.state.seats[s].name : `seat ${s + 1}`; }

// Points a seat scores for a card id, when the game's score categories are card ids.
function pointsFor(seat, id) {
  const line = table.scores[seat];
  if (!line || !(id in line.breakdown)) return '';
  return `\n${line.name}'s ${cardName(id)}: ${line.breakdown[id]} points`;
}

// The legal moves of the human seats, each with the seat.
function humanMoves() {
  const out = [];
  for (const l of table.legal) for (const m of l.moves) out.push({ seat: l.seat, move: m });
  return out;
}

// Which grid a seat's placement lands on: the seat's own grid, else the only one.
function gridOfSeat(seat) {
  const grids = table.state.grids;
  const own = grids.filter((g) => g.key.endsWith(':' + (seat + 1)));
  if (own.length === 1) return own[0].key;
  return grids.length === 1 ? grids[0].key : null;
}

function cellMoves(kind, name, r, c) {
  return humanMoves().filter(({ seat, move }) => {
    if (!move.cell || move.cell[0] !== r || move.cell[1] !== c) return false;
    if (kind === 'grid') return gridOfSeat(seat) === name;
    return kind === 'tiles' && Object.keys(table.state.tile_maps || {}).length === 1 && atRotationShown(move);
  });
}

function clickCell(kind, name, r, c) {
  const moves = cellMoves(kind, name, r, c);
  if (moves.length === 1) return play(moves[0].seat, moves[0].move.i);
  pickCell = { kind, name, r, c };
  drawMoves();
}

function ownerLabel(key) {
  const [name, seat] = key.split(':');
  return seat ? `${seatName(Number(seat) - 1)} · ${name}` : name;
}

function drawGrid(g) {
  const seat = g.key.includes(':') ? Number(g.key.split(':')[1]) - 1 : -1;
  const cells = new Map();
  let minR = Infinity, maxR = -Infinity, minC = Infinity, maxC = -Infinity;
  const see = (r, c) => { minR = Math.min(minR, r); maxR = Math.max(maxR, r); minC = Math.min(minC, c); maxC = Math.max(maxC, c); };
  for (const cell of g.cells) { cells.set(`${cell[0]},${cell[1]}`, cell); see(cell[0], cell[1]); }
  const targets = new Set();
  if (viewing < 0)
    for (const { seat: s, move } of humanMoves())
      if (move.cell && gridOfSeat(s) === g.key) { targets.add(`${move.cell[0]},${move.cell[1]}`); see(move.cell[0], move.cell[1]); }
  const box = el('div', { class: 'component grid-box' }, el('h3', { text: ownerLabel(g.key) }));
  if (!isFinite(minR)) { box.append(el('div', { class: 'empty', text: '(empty)' })); return box; }
  const grid = el('div', { class: 'grid', 'data-grid': g.key });
  // Cards whose faces carry a text (the look's) take wider cells.
  const texts = g.cells.some((cell) => faces[cell[2]] && faces[cell[2]].text);
  grid.style.gridTemplateColumns = `repeat(${maxC - minC + 1}, ${texts ? 6.2 : 4.6}em)`;
  for (let r = minR; r <= maxR; r++)
    for (let c = minC; c <= maxC; c++) {
      const cell = cells.get(`${r},${c}`);
      const key = `${r},${c}`;
      const d = el('div', { class: 'cell', 'data-cell': key });
      if (cell) {
        const id = cell[2];
        const faceDown = cell.length > 3 && cell[3];
        d.classList.add('card');
        d.style.background = faceDown ? '#999' : colourOf(id);
        d.dataset.card = id;
        if (faceDown) d.textContent = `(${cardName(id)})`;
        else d.append(faceEl(id, 'face mini'));
        d.title = `${cardName(id)} at (${r}, ${c})${faceDown ? ', face down' : ''}${faces[id] && faces[id].text ? '\n' + faces[id].text : ''}${seat >= 0 ? pointsFor(seat, id) : ''}`;
      } else if (targets.has(key)) {
        d.classList.add('target');
        d.title = `play here (${r}, ${c})`;
        d.textContent = '+';
      }
      if (targets.has(key)) {
        d.classList.add('target');
        d.addEventListener('click', () => clickCell('grid', g.key, r, c));
      }
      grid.append(d);
    }
  box.append(grid);
  return box;
}

// Tile maps: each tile a square whose four edges take their kind's colour (turned by the
// tile's rotation), with the pieces on it. Each edge belongs to a segment of the tile, and the
// segment to a feature of the map (the host's feature graph): hovering it lights the whole
// feature and tells its kind, animals or other tally, pieces, and its points when the score
// gives them (a list in the score's extra whose entries name a `feature` and its `points`).
const EDGE_COLOURS = { savanna: '#c9dd8b', trail: '#c8a165', bush: '#3f7d3a', field: '#e8d47a', road: '#bbb', city: '#b5651d', water: '#5dade2' };
const SIDES = 'NESW';
// A tile's corners as fractions of its width and height.
const CORNERS = { NW: [0, 0], NE: [1, 0], SE: [1, 1], SW: [0, 1] };

// Points per feature id from the score's extra: every list of {feature, points, ...} entries.
function featurePoints() {
  const out = {};
  for (const [key, list] of Object.entries(table.extra || {}))
    if (Array.isArray(list))
      for (const e of list)
        if (e && typeof e === 'object' && e.feature != null && typeof e.points === 'number')
          (out[e.feature] = out[e.feature] || []).push({ ...e, list: key });
  return out;
}

function featureText(fid, f, points) {
  if (!f) return '';
  const tally = Object.entries(f.tally || {}).map(([k, n]) => (n > 1 ? `${cardName(k)} x${n}` : cardName(k))).join(', ');
  const pieces = (f.pieces || []).map(([owner, n]) => `${seatName(owner)}${n > 1 ? ' x' + n : ''}`).join(', ');
  let text = `${f.kind} ${fid}: ${f.complete ? 'complete' : `open (${f.open_edges} open edge(s)${f.open_ends ? `, ${f.open_ends} open end(s)` : ''})`}, ${f.tiles} tile(s)` +
    (tally ? `\n${tally}` : '') + `\npieces: ${pieces || 'none'}`;
  const pts = points[fid] || [];
  if (pts.length)
    for (const e of pts) {
      const who = Array.isArray(e.players) ? e.players.map((p) => seatName(p - 1)).join(', ') : '';
      text += `\nscore (${e.list}): ${e.points} points${who ? ' for ' + who : ''}${e.why ? ' (' + e.why + ')' : ''}`;
    }
  else text += '\nscore: no points for it in the score breakdown now';
  return text;
}

// The colour of an edge or segment kind: the look's tiles.kinds, else the page's defaults.
const kindColour = (kind) => ((look().tiles || {}).kinds || {})[kind] || EDGE_COLOURS[kind] || colourOf(kind);
// Where a side's middle is on a tile of size S (N, E, S, W), and a segment's place: the middle
// of its sides, or the centre for a segment with none.
const SIDE_AT = (S) => [[S / 2, S * 0.2], [S * 0.8, S / 2], [S / 2, S * 0.8], [S * 0.2, S / 2]];
// The rotation the tile in hand is shown at (and the placements offered at), turned by its button.
let handRotation = 0;

// One tile of size S: its edges coloured by kind (turned by its rotation), a disc for a segment
// with no side, the animals of each segment (the look's segment_icons) and an icon per property
// (a baobab). `featureShape(shape, k)` may tie segment k's shapes to the map's feature graph.
function tileGroup(def, rot, S, featureShape = (shape) => shape) {
  const g = svg('g');
  g.append(svg('rect', { width: S, height: S, fill: kindColour('savanna'), stroke: '#555', 'stroke-width': 0.5 }));
  const h = S / 2;
  const tri = [`0,0 ${S},0 ${h},${h}`, `${S},0 ${S},${S} ${h},${h}`, `${S},${S} 0,${S} ${h},${h}`, `0,${S} 0,0 ${h},${h}`];
  const turn = Math.round((rot || 0) / 90) % 4;
  const segments = def.segments || [];
  const lt = look().tiles || {};
  for (let side = 0; side < 4; side++) {
    const dataSide = (side - turn + 4) % 4;
    const kind = (def.edges || [])[dataSide];
    const shape = svg('polygon', { points: tri[side], fill: kindColour(kind), opacity: kind === 'savanna' || kind == null ? 0 : 0.9 });
    const k = segments.findIndex((sg) => (sg.sides || []).includes(SIDES[dataSide]));
    g.append(k >= 0 ? featureShape(shape, k) : shape);
  }
  segments.forEach((sg, k) => {
    if ((sg.sides || []).length === 0) g.append(featureShape(svg('circle', { cx: h, cy: h, r: S / 7, fill: kindColour(sg.kind) }), k));
  });
  // Each segment's animals, at the middle of its sides as the tile is turned.
  const at = SIDE_AT(S);
  segments.forEach((sg) => {
    const icons = Object.entries(sg.tally || {}).flatMap(([sp, n]) => Array(Math.min(n, 4)).fill((lt.segment_icons || {})[sp] || iconOf(sp) || sp[0].toUpperCase()));
    if (!icons.length) return;
    const sides = (sg.sides || []).map((sd) => (SIDES.indexOf(sd) + turn) % 4);
    const x = sides.length ? sides.reduce((a, sd) => a + at[sd][0], 0) / sides.length : h;
    const y = sides.length ? sides.reduce((a, sd) => a + at[sd][1], 0) / sides.length : h;
    const t = svg('text', { x, y: y + S * 0.06, 'font-size': S * 0.17, 'text-anchor': 'middle', 'pointer-events': 'none', class: 'animal' });
    t.textContent = icons.join('');
    g.append(t);
  });
  for (const [prop, icon] of Object.entries(lt.properties || {}))
    if (def.properties && def.properties[prop]) {
      const t = svg('text', { x: S * 0.22, y: S * 0.3, 'font-size': S * 0.22, 'text-anchor': 'middle', 'pointer-events': 'none', class: 'property', 'data-property': prop });
      t.textContent = icon;
      g.append(t);
    }
  return g;
}

// The tokens the look places on a kind of spot ("cell", "corner", "edge", "region", "bucket"):
// each {spec, entry, at, seat} read from state.data (a seat view has no state.data: none).
function tokensOn(kind, mapName) {
  const out = [];
  for (const spec of look().tokens || []) {
    if (spec.on !== kind || (spec.map && mapName && spec.map !== mapName)) continue;
    const src = stateAt(spec.data);
    if (src == null || typeof src !== 'object') continue;
    const each = spec.each || 'item';
    const items = each === 'key' ? Object.keys(src).map((k) => [k, src[k]])
      : each === 'seat_list' ? (Array.isArray(src) ? src : []).flatMap((l, s) => (Array.isArray(l) ? l : []).map((e) => [e, e, s]))
      : (Array.isArray(src) ? src : Object.values(src)).map((e) => [e, e]);
    for (const [where, entry, seatIndex] of items) {
      const at = each === 'key' ? String(where).split(',').map(Number) : spec.at ? fieldOf(entry, spec.at) : entry;
      if (at == null) continue;
      const seat = seatIndex != null ? seatIndex : spec.seat ? Number(fieldOf(entry, spec.seat)) - 1 : -1;
      out.push({ spec, entry, at, seat });
    }
  }
  return out;
}
const tokenColour = (t) => (t.spec.colour === 'seat' ? seatColour(t.seat) : t.spec.colour || '#333');
const tokenTitle = (t) => fill(t.spec.title || t.spec.name || 'token', t.entry, { seat_name: t.seat >= 0 ? seatName(t.seat) : '' });
// A token in an SVG at (x, y), of radius r.
function tokenSvg(t, x, y, r) {
  const g = svg('g', { class: 'token', 'data-token': t.spec.name || t.spec.data, 'data-seat': t.seat, 'pointer-events': 'bounding-box' });
  const c = tokenColour(t);
  const shape = t.spec.shape || 'disc';
  if (shape === 'square') g.append(svg('rect', { x: x - r, y: y - r, width: 2 * r, height: 2 * r, fill: c, stroke: '#000', 'stroke-width': r / 6 }));
  else if (shape === 'diamond') g.append(svg('polygon', { points: `${x},${y - r} ${x + r},${y} ${x},${y + r} ${x - r},${y}`, fill: c, stroke: '#000', 'stroke-width': r / 6 }));
  else if (shape === 'ring') g.append(svg('circle', { cx: x, cy: y, r, fill: t.spec.label ? '#fff' : 'none', 'fill-opacity': 0.85, stroke: c, 'stroke-width': t.spec.label ? r / 2.5 : r / 5 }));
  else if (shape === 'disc') g.append(svg('circle', { cx: x, cy: y, r, fill: c, stroke: '#000', 'stroke-width': r / 6 }));
  const text = shape === 'icon' ? t.spec.icon || '●' : t.spec.label ? fill(t.spec.label, t.entry) : t.spec.icon || '';
  if (text) {
    const tx = svg('text', { x, y: y + r * 0.4, 'font-size': shape === 'icon' ? r * 1.8 : r * 1.1, 'text-anchor': 'middle', fill: shape === 'disc' || shape === 'square' ? '#fff' : '#000' });
    tx.textContent = text;
    g.append(tx);
  }
  if (shape === 'icon' && t.spec.label) {
    const lb = svg('text', { x: x + r, y: y + r, 'font-size': r, fill: '#000' });
    lb.textContent = fill(t.spec.label, t.entry);
    g.append(lb);
  }
  const title = svg('title');
  title.textContent = tokenTitle(t);
  g.append(title);
  return g;
}

// Whether a move is offered at the rotation the tile in hand is shown at (a move with no
// rotation always is).
const atRotationShown = (move) => !(look().tiles || {}).in_hand || !(move.args && typeof move.args.rotation === 'number') || move.args.rotation === handRotation;
// The rotations the tile in hand may be placed at, in order.
const handRotations = (moves) => [...new Set(moves.map(({ move }) => move.args && move.args.rotation).filter((x) => typeof x === 'number'))].sort((a, b) => a - b);
// The moves that place the tile in hand at the rotation shown, when its placements carry one.
function atHandRotation(moves) {
  if (!(look().tiles || {}).in_hand) return moves;
  const turned = moves.filter(({ move }) => move.args && typeof move.args.rotation === 'number');
  if (!turned.length) return moves;
  const rotations = handRotations(moves);
  if (!rotations.includes(handRotation)) handRotation = rotations[0];
  return moves.filter(({ move }) => !(move.args && typeof move.args.rotation === 'number') || move.args.rotation === handRotation);
}

function drawTileMap(name, map) {
  const defs = {};
  const tiles = (game.data.tiles && game.data.tiles.tiles) || [];
  for (const t of tiles) defs[t.id] = t;
  // Moves that name a corner of a tile (a watering hole) are offered on that corner; the others
  // on their cell.
  const targets = new Map(), cornerTargets = new Map();
  if (viewing < 0)
    for (const hm of atHandRotation(humanMoves())) {
      const { move } = hm;
      if (!move.cell) continue;
      const named = moveArgs(move).corner;
      const corner = typeof named === 'string' && CORNERS[named] ? named : null;
      if (!corner) { targets.set(`${move.cell[0]},${move.cell[1]}`, move.cell); continue; }
      const key = `${move.cell[0]},${move.cell[1]},${corner}`;
      if (!cornerTargets.has(key)) cornerTargets.set(key, { cell: move.cell, corner, moves: [] });
      cornerTargets.get(key).moves.push(hm);
    }
  const cellTokens = tokensOn('cell', name), cornerTokens = tokensOn('corner', name), edgeTokens = tokensOn('edge', name);
  const all = map.tiles.map((t) => [t[0], t[1]]).concat([...targets.values()]);
  if (!all.length) return el('div', { class: 'component', text: `${name}: (empty)` });
  for (const t of cellTokens.concat(edgeTokens)) if (Array.isArray(t.at) && t.at.length >= 2) all.push([t.at[0], t.at[1]]);
  const rs = all.map((p) => p[0]), cs = all.map((p) => p[1]);
  const minR = Math.min(...rs), minC = Math.min(...cs), maxR = Math.max(...rs), maxC = Math.max(...cs);
  const S = 64;
  const W = (maxC - minC + 1) * S, H = (maxR - minR + 1) * S;
  const s = svg('svg', { width: Math.min(W, 900), viewBox: `0 0 ${W} ${H}`, class: 'tilemap', 'data-map': name });
  const tf = (table.tile_features || {})[name] || { tiles: [], features: {} };
  const points = featurePoints();
  // Pieces sit on a feature's root segment (its id - 1): drawn on the tile holding it.
  const pieces = {};
  for (const o of map.occupants || []) pieces[o[0] + 1] = (pieces[o[0] + 1] || []).concat([o]);
  const light = (fid, on) => s.querySelectorAll(`[data-feature="${fid}"]`).forEach((e) => e.classList.toggle('hl', on));
  const occupied = new Set();
  const last = map.tiles.length ? map.tiles[map.tiles.length - 1] : null;
  map.tiles.forEach((t, index) => {
    const [r, c, id, rot] = t;
    occupied.add(`${r},${c}`);
    const def = defs[id] || { edges: ['?', '?', '?', '?'] };
    const segs = tf.tiles[index] || [];
    // A feature's shape: the edges its segment touches, or a disc for a segment with none.
    const featureShape = (shape, k) => {
      const [, fid] = segs[k] || [];
      if (fid == null) return shape;
      shape.setAttribute('data-feature', fid);
      shape.classList.add('feature');
      const tt = svg('title');
      tt.textContent = featureText(fid, tf.features[fid], points) + `\n(tile ${id} at (${r}, ${c}))`;
      shape.append(tt);
      shape.addEventListener('mouseenter', () => light(fid, true));
      shape.addEventListener('mouseleave', () => light(fid, false));
      return shape;
    };
    const g = tileGroup(def, rot, S, featureShape);
    g.setAttribute('transform', `translate(${(c - minC) * S},${(r - minR) * S})`);
    g.setAttribute('data-tile', `${r},${c}`);
    g.setAttribute('data-tile-id', id);
    const title = svg('title');
    title.textContent = `${id} at (${r}, ${c}), turned ${rot}°\nedges ${(def.edges || []).join(', ')}`;
    g.prepend(title);
    if (t === last) g.append(svg('rect', { width: S, height: S, fill: 'none', stroke: '#d35400', 'stroke-width': 2, 'pointer-events': 'none', class: 'last-tile' }));
    segs.forEach(([seg]) => (pieces[seg] || []).forEach((p, k) => {
      g.append(svg('circle', { cx: S - 8 - 11 * k, cy: S - 8, r: 5.5, fill: seatColour(p[1]), stroke: '#000', 'pointer-events': 'none', class: 'piece', 'data-seat': p[1] }));
    }));
    s.append(g);
  });
  // Tokens the look places: on a cell (the lower right of it), a corner (the top-left corner of
  // the cell named, where four tiles meet) or an edge (the middle of the cell's side).
  const perCell = {};
  for (const t of cellTokens) {
    if (!Array.isArray(t.at)) continue;
    const key = `${t.at[0]},${t.at[1]}`;
    const k = (perCell[key] = (perCell[key] || 0) + 1) - 1;
    s.append(tokenSvg(t, (t.at[1] - minC) * S + S * 0.5 + (k % 3 - 1) * S * 0.3, (t.at[0] - minR) * S + S * 0.5 + Math.floor(k / 3) * S * 0.3, S * 0.13));
  }
  for (const t of cornerTokens)
    if (Array.isArray(t.at)) s.append(tokenSvg(t, (t.at[1] - minC) * S, (t.at[0] - minR) * S, S * 0.14));
  for (const t of edgeTokens)
    if (Array.isArray(t.at) && t.at.length >= 3) {
      const [x, y] = SIDE_AT(S)[typeof t.at[2] === 'string' ? SIDES.indexOf(t.at[2]) : t.at[2]] || [S / 2, S / 2];
      s.append(tokenSvg(t, (t.at[1] - minC) * S + x, (t.at[0] - minR) * S + y, S * 0.12));
    }
  // Placements on an empty cell fill it; a choice on a tile already there (a meeple on the
  // tile just placed) is a badge at the middle of its top edge (its corners are the corners'
  // badges), so the tile stays in sight.
  for (const [key, cell] of targets) {
    const [r, c] = cell;
    const x = (c - minC) * S, y = (r - minR) * S;
    const target = occupied.has(key)
      ? svg('circle', { cx: x + S / 2, cy: y + 7, r: 6, class: 'target badge', 'data-cell': key })
      : svg('rect', { x: x + 2, y: y + 2, width: S - 4, height: S - 4, class: 'target', 'data-cell': key });
    target.addEventListener('click', () => clickCell('tiles', name, r, c));
    s.append(target);
  }
  for (const [key, t] of cornerTargets) {
    const [fx, fy] = CORNERS[t.corner];
    const x = (t.cell[1] - minC) * S + 8 + fx * (S - 16), y = (t.cell[0] - minR) * S + 8 + fy * (S - 16);
    const badge = svg('circle', { cx: x, cy: y, r: 6, class: 'target badge corner', 'data-corner': key });
    const tt = svg('title');
    tt.textContent = t.moves.map(({ move }) => move.label).join('\n');
    badge.append(tt);
    badge.addEventListener('click', () => {
      if (t.moves.length === 1) return play(t.moves[0].seat, t.moves[0].move.i);
      pickCell = { corner: key, moves: t.moves };
      drawMoves();
    });
    s.append(badge);
  }
  const left = (look().tiles || {}).left ? stateAt(look().tiles.left) : null;
  const box = el('div', { class: 'component' }, el('h3', { text: `tile map ${name} (${map.tiles.length} tiles${Array.isArray(left) ? `, ${left.length} left` : ''})` }), s);
  return box;
}

// The tile in hand (the look's tiles.in_hand names it in state.data), drawn as it would be
// placed; its button turns it, and the map offers the placements at that rotation.
function drawTileInHand() {
  const lt = look().tiles || {};
  const id = lt.in_hand ? stateAt(lt.in_hand) : null;
  if (typeof id !== 'string' || !id) return null;
  const def = ((game.data.tiles && game.data.tiles.tiles) || []).find((t) => t.id === id);
  if (!def) return null;
  const S = 96;
  const pic = svg('svg', { width: S, height: S, viewBox: `0 0 ${S} ${S}`, class: 'tile-in-hand', 'data-tile-id': id, 'data-rotation': handRotation });
  pic.append(tileGroup(def, handRotation, S));
  // The button turns it to the next rotation some placement takes (every quarter turn when
  // none is to be placed now).
  atHandRotation(humanMoves());
  const rotations = handRotations(humanMoves());
  const next = () => {
    const all = rotations.length ? rotations : [0, 90, 180, 270];
    handRotation = all[(all.indexOf(handRotation) + 1) % all.length] ?? all[0];
    pickCell = null;
    draw();
  };
  const turn = el('button', { id: 'rotate-hand', class: 'small', text: `turn ↻ (${handRotation}°)`, onclick: next });
  const left = lt.left ? stateAt(lt.left) : null;
  return el('div', { class: 'component', 'data-hand-tile': id },
    el('h3', { text: `tile in hand${Array.isArray(left) ? ` · ${left.length} tiles left` : ''}` }), pic, el('div', {}, turn,
      el('span', { class: 'note', text: rotations.size ? ` placements at ${handRotation}°: ${atHandRotation(humanMoves()).filter(({ move }) => move.cell).length}` : '' })),
    el('div', { class: 'note', text: id }));
}

// Region maps: regions at their data coordinates (x, y on 0..100), borders as lines, the
// seats' marks as coloured dots; a region a legal move names is clickable.
function drawRegionMap(name, map) {
  const regions = (game.data.regions && game.data.regions.regions) || [];
  const at = {};
  for (const r of regions) at[r.id] = r;
  // x and y run 0..100 over an equirectangular map, twice as wide as it is high; drawn a little
  // taller, so that the regions' names have room between them.
  const Y = (y) => y * 0.6;
  const maxY = Y(Math.max(...regions.map((r) => r.y || 0), 100)) + 2;
  const s = svg('svg', { viewBox: `0 0 100 ${maxY}`, class: 'regionmap', 'data-map': name });
  for (const [a, b] of (game.data.regions && game.data.regions.borders) || []) {
    if (!at[a] || !at[b] || Math.abs(at[a].x - at[b].x) > 50) continue;  // no line across the map's seam
    s.append(svg('line', { x1: at[a].x, y1: Y(at[a].y), x2: at[b].x, y2: Y(at[b].y), stroke: '#ccc', 'stroke-width': 0.1 }));
  }
  const movesOf = {};
  if (viewing < 0)
    for (const hm of humanMoves()) {
      const text = JSON.stringify(hm.move.args || {});
      for (const r of regions) if (text.includes(`"${r.id}"`)) (movesOf[r.id] = movesOf[r.id] || []).push(hm);
    }
  // The look's labels (a template over the region's fields, or a short name) and fills per kind.
  const lk = (look().region_maps || {})[name] || {};
  const tokens = tokensOn('region', name);
  for (const r of regions) {
    const g = svg('g', { 'data-region': r.id });
    const title = svg('title');
    // A region map's marks name their seats from 0, as the host keeps them.
    const marks = (map.marks || {})[r.id] || [];
    const here = tokens.filter((t) => t.at === r.id);
    title.textContent = `${(r.name && (r.name.en || r.name.fr)) || r.id} (${r.kind}${r.group ? ', ' + r.group : ''})` +
      (marks.length ? `\npieces: ${marks.map((m) => seatName(m)).join(', ')}` : '') + here.map((t) => `\n${tokenTitle(t)}`).join('');
    g.append(title);
    const fillOf = (lk.colours || {})[r.kind] || (r.kind === 'sea' ? '#aed6f1' : '#d5e8b5');
    g.append(svg('circle', { cx: r.x, cy: Y(r.y), r: 1.1, fill: fillOf, stroke: movesOf[r.id] ? '#d35400' : '#777',
      'stroke-width': movesOf[r.id] ? 0.35 : 0.1, class: movesOf[r.id] ? 'target' : '' }));
    const label = (lk.short || {})[r.id] || (lk.label ? fill(lk.label, r) : '');
    if (label) {
      const t = svg('text', { x: r.x, y: Y(r.y) + 2.2, 'font-size': 0.9, 'text-anchor': 'middle', fill: '#333', 'pointer-events': 'none', class: 'region-label' });
      t.textContent = label;
      g.append(t);
    }
    marks.forEach((m, k) => g.append(svg('circle', { cx: r.x - 0.8 + k * 0.9, cy: Y(r.y) - 1.7, r: 0.45, fill: seatColour(m), stroke: '#000', 'stroke-width': 0.05,
      class: 'mark', 'data-seat': m })));
    // A ring with no label circles the region itself (an answer); other tokens stand beside it.
    here.filter((t) => t.spec.shape === 'ring' && !t.spec.label).forEach((t) => g.append(tokenSvg(t, r.x, Y(r.y), 1.6)));
    here.filter((t) => !(t.spec.shape === 'ring' && !t.spec.label)).forEach((t, k) => g.append(tokenSvg(t, r.x + 2 + (k % 3) * 1.7, Y(r.y) - 0.4 + Math.floor(k / 3) * 1.7, 0.8)));
    if (movesOf[r.id]) g.addEventListener('click', () => {
      if (movesOf[r.id].length === 1) return play(movesOf[r.id][0].seat, movesOf[r.id][0].move.i);
      pickCell = { region: r.id, moves: movesOf[r.id] };
      drawMoves();
    });
    s.append(g);
  }
  return el('div', { class: 'component' }, el('h3', { text: `region map ${name}` }), s);
}

// Scales (a "scales" data file: each scale's buckets with their labels), one row of buckets
// per scale. Pieces on a scale are read from state.data: any list there whose entries name a
// `scale`, a `bucket` (1-based) and a `seat` (1-based) — the host keeps no piece on a scale,
// the rules do. A bucket a legal move names (its args' scale and bucket) is clickable.
function scaleMarks(data) {
  const out = [];
  for (const list of Object.values(data || {}))
    if (Array.isArray(list))
      for (const m of list)
        if (m && typeof m === 'object' && typeof m.scale === 'string' && Number.isInteger(m.bucket) && Number.isInteger(m.seat)) out.push(m);
  return out;
}
function moveArgs(move) {
  const a = move.args || {};
  return a.args && typeof a.args === 'object' ? { ...a, ...a.args } : a;
}
function drawScales(scales) {
  const box = el('div', { class: 'component scales' }, el('h3', { text: 'scales' }));
  const marks = scaleMarks(table.state.data);
  const tokens = tokensOn('bucket');
  const moves = viewing < 0 ? humanMoves() : [];
  for (const sc of scales) {
    const name = (sc.name && typeof sc.name === 'object' ? sc.name.en || sc.name.fr : sc.name) || sc.id;
    const row = el('div', { class: 'scale', 'data-scale': sc.id }, el('span', { class: 'scale-name', text: `${name}${sc.unit ? ` (${sc.unit})` : ''}` }));
    (sc.buckets || []).forEach((bk, i) => {
      const here = marks.filter((m) => m.scale === sc.id && m.bucket === i + 1);
      const targets = moves.filter(({ move }) => { const a = moveArgs(move); return a.scale === sc.id && a.bucket === i + 1; });
      const cell = el('span', { class: 'bucket' + (targets.length ? ' target' : ''), 'data-bucket': i + 1,
        title: `${name}: ${bk.label || `bucket ${i + 1}`}` + (here.length ? `\npieces: ${here.map((m) => seatName(m.seat - 1)).join(', ')}` : '') +
          (targets.length ? '\nclick to play here' : '') }, el('span', { class: 'bucket-label', text: bk.label || String(i + 1) }));
      // Pieces on scales name their seats from 1, as the rules keep them.
      for (const m of here) {
        const dot = el('span', { class: 'mark', 'data-seat': m.seat - 1, title: seatName(m.seat - 1) });
        dot.style.background = seatColour(m.seat - 1);
        cell.append(dot);
      }
      for (const t of tokens.filter((x) => x.at && x.at.scale === sc.id && x.at.bucket === i + 1)) {
        const tk = el('span', { class: `token ${t.spec.shape || 'disc'}`, 'data-token': t.spec.name || t.spec.data, 'data-seat': t.seat, title: tokenTitle(t),
          text: t.spec.shape === 'icon' ? t.spec.icon || '●' : t.spec.label ? fill(t.spec.label, t.entry) : '' });
        if (t.spec.shape === 'ring') tk.style.borderColor = tokenColour(t);
        else if (t.spec.shape !== 'icon') tk.style.background = tokenColour(t);
        cell.append(tk);
      }
      if (targets.length) cell.addEventListener('click', () => {
        if (targets.length === 1) return play(targets[0].seat, targets[0].move.i);
        pickCell = { scale: sc.id, moves: targets };
        drawMoves();
      });
      row.append(cell);
    });
    box.append(row);
  }
  return box;
}

// A zone as the look shows it: faces (each card's face), chips (names, the text on hover) or a
// pile (a count). Without a look: a hidden zone is a pile, a small one faces, a big one chips.
// The designer sees a hidden zone's cards (the card in play before its reveal): it says so.
function drawZone(z) {
  const lz = (look().zones || {})[z.name] || {};
  const owner = z.owner >= 0 ? seatName(z.owner) + ' · ' : '';
  const hiddenFrom = z.hidden_from_viewer ? ` (hidden from ${seatName(table.viewer)})` : '';
  const secret = z.visibility === 'hidden' ? (z.cards.length ? ' (hidden from every seat)' : ' (hidden)') : hiddenFrom;
  const show = lz.show || (z.visibility === 'hidden' ? 'pile' : z.cards.length <= 12 ? 'faces' : 'chips');
  const name = lz.title ? fill(lz.title, {}) : z.name;
  const box = el('div', { class: `component zone show-${show}`, 'data-zone': `${z.name}:${z.owner}` },
    el('h3', { text: `${owner}${name} [${z.count}]${secret}` }));
  if (show === 'pile') return box;
  const list = el('div', { class: 'zone-cards' });
  for (const id of z.cards.slice(0, 60)) {
    if (show === 'faces') {
      const f = faceEl(id);
      if (z.owner >= 0) f.title += pointsFor(z.owner, id);
      list.append(f);
      continue;
    }
    const f = faces[id] || {};
    const c = el('span', { class: 'chip', 'data-card': id, text: `${iconOf(id) ? iconOf(id) + ' ' : ''}${cardName(id)}`,
      title: `${cardName(id)}${f.text ? '\n' + f.text : ''}${z.owner >= 0 ? pointsFor(z.owner, id) : ''}` });
    c.style.background = colourOf(id);
    list.append(c);
  }
  if (z.cards.length > 60) list.append(el('span', { text: ` … ${z.cards.length - 60} more` }));
  box.append(list);
  return box;
}

// ---- the rules' own numbers pictured (the look's records, counters, values, boards) ---------

const displayName = (x) => (x && typeof x === 'object' ? (x.name && typeof x.name === 'object' ? x.name.en || x.name.fr : x.name) || x.id : x);
// A data path "doc/a/b/{field}/c" looked up in the game's data documents; {field} indexes a
// list by the record's field (1-based, as the rules count) or names a key.
function dataAt(path, rec = {}) {
  const parts = path.split('/');
  let at = game.data[parts.shift()];
  for (const part of parts) {
    if (at == null) return undefined;
    const m = part.match(/^\{(.+)\}$/);
    const key = m ? rec[m[1]] : part;
    at = Array.isArray(at) && typeof key === 'number' && m ? at[key - 1] : Array.isArray(at) && !m ? at.find((x) => x && x.id === key) ?? at[key] : at[key];
  }
  return at;
}
// An entry's own facts for a tooltip: its scalar fields but the names.
const facts = (e) => (e && typeof e === 'object'
  ? Object.entries(e).filter(([k, v]) => k !== 'name' && k !== 'id' && k !== '$comment' && (typeof v !== 'object' || v === null || !Array.isArray(v))).map(([k, v]) => `${k} ${typeof v === 'object' ? JSON.stringify(v) : v}`).join(', ')
  : '');

// A record hint: {"data": "viv_{seat}", "size": 5, "fields": [...], "lookup": {field: the data
// list the field indexes, from 1 (a path may use another field: "doc/species/{species}/stages")},
// "label": "{species}: {stage}", "title": "{seat}'s caterpillars", "icon": "🐛"}: state.data's
// flat list cut in records of `size` numbers, each a chip named from the data.
function drawRecords(h) {
  const boxes = [];
  const seats = String(h.data).includes('{seat}') ? table.state.seats.map((_, i) => i + 1) : [null];
  for (const seat of seats) {
    const key = String(h.data).replace('{seat}', seat);
    const list = (table.state.data || {})[key];
    if (!Array.isArray(list)) continue;
    const size = h.size || (h.fields || []).length || 1;
    const n = Math.floor(list.length / size);
    const who = seat == null ? '' : seatName(seat - 1);
    const box = el('div', { class: 'component records', 'data-records': key },
      el('h3', { text: `${(h.title || key).replace('{seat}', who)} (${n})` }));
    const chips = el('div', { class: 'zone-cards' });
    for (let k = 0; k < n; k++) {
      const rec = {};
      (h.fields || []).forEach((f, i) => { rec[f] = list[k * size + i]; });
      const named = {}, entries = {};
      // A lookup names the list the field indexes (from 1), or a table the field is a key of.
      for (const [f, path] of Object.entries(h.lookup || {})) {
        const list = dataAt(path, rec);
        entries[f] = Array.isArray(list) ? list[rec[f] - 1] : list && typeof list === 'object' ? list[rec[f]] : undefined;
        named[f] = displayName(entries[f]) ?? rec[f];
      }
      const text = (h.label || (h.fields || []).map((f) => `{${f}}`).join(' ')).replace(/\{([^}]+)\}/g, (_, f) => (f in named ? named[f] : rec[f]));
      const title = (h.fields || []).map((f) => `${f}: ${f in named ? `${named[f]}${facts(entries[f]) ? ` (${facts(entries[f])})` : ''}` : rec[f]}`).join('\n');
      const chip = el('span', { class: 'chip record', text: (h.icon ? h.icon + ' ' : '') + text, title, 'data-record': k });
      const by = h.colour_by || Object.keys(h.lookup || {})[0];
      if (by && entries[by]) chip.style.background = colourOf(entries[by].id || String(named[by]));
      chips.append(chip);
    }
    box.append(chips);
    boxes.push(box);
  }
  return boxes;
}

// The seats a look's state key stands for: "p_{seat}" is one list per seat (from 1).
const seatsOf = (key) => (String(key).includes('{seat}') ? table.state.seats.map((_, i) => i) : [null]);
const keyFor = (key, seat) => String(key).replace('{seat}', seat == null ? '' : seat + 1);

// A counter hint: {"data": "p_{seat}", "at": 7, "names": "doc/resources", "cap": "cap"}: one
// number per entry of the names list, from position `at` (from 1), each with its cap.
function drawCounters(h) {
  const names = dataAt(h.names);
  if (!Array.isArray(names)) return [];
  return seatsOf(h.data).flatMap((seat) => {
    const key = keyFor(h.data, seat);
    const list = stateAt(key);
    if (!Array.isArray(list)) return [];
    const who = seat == null ? '' : seatName(seat);
    const box = el('div', { class: 'component counters', 'data-counters': key }, el('h3', { text: (h.title || key).replace('{seat}', who) }));
    if (seat != null) box.style.borderLeft = `4px solid ${seatColour(seat)}`;
    names.forEach((e, k) => {
      const v = list[h.at - 1 + k];
      const cap = h.cap && e ? e[h.cap] : undefined;
      const icon = (h.icons || {})[e && e.id] || '';
      const row = el('div', { class: 'counter-row', 'data-counter': e && e.id, title: `${displayName(e)}: ${v}${cap != null ? ` of at most ${cap}` : ''}` },
        el('span', { class: 'counter-name', text: `${icon} ${displayName(e)}` }), el('span', { class: 'counter-value', text: `${v}${cap != null ? ' / ' + cap : ''}` }));
      if (cap) {
        const bar = el('span', { class: 'counter-bar' }, el('span', {}));
        bar.firstChild.style.width = `${Math.max(0, Math.min(100, (100 * v) / cap))}%`;
        row.append(bar);
      }
      box.append(row);
    });
    return [box];
  });
}

// Value hints: single numbers of a flat list, each named; a lookup names the data list it
// indexes (from 1, 0: none), `names` the codes' names.
function drawValues(values) {
  const box = el('div', { class: 'component values' }, el('h3', { text: 'table' }));
  let n = 0;
  for (const h of values) {
    const list = stateAt(h.data);
    if (!Array.isArray(list)) continue;
    // One number per seat: a row per seat.
    if (h.each_seat) {
      list.forEach((v, seat) => {
        const row = el('div', { class: 'value-row', 'data-value': `${h.title}:${seat}` }, el('span', { class: 'value-name', text: `${h.title} (${seatName(seat)})` }),
          el('span', { class: 'value-text', text: words(v) }));
        row.firstChild.style.borderLeft = `4px solid ${seatColour(seat)}`;
        box.append(row);
        n++;
      });
      continue;
    }
    const v = list[h.at - 1];
    let text = String(v);
    let tip = '';
    if (h.lookup) {
      const entries = dataAt(h.lookup);
      const e = Array.isArray(entries) && v > 0 ? entries[v - 1] : null;
      text = e ? (faces[e.id] ? `${iconOf(e.id)} ${cardName(e.id)}`.trim() : displayName(e)) : 'none';
      tip = e ? (faces[e.id] && faces[e.id].text) || facts(e) : '';
    } else if (h.names) text = v > 0 && h.names[v - 1] ? pretty(h.names[v - 1]) : String(v);
    box.append(el('div', { class: 'value-row' + (h.lookup && text === 'none' ? ' none' : ''), 'data-value': h.title, title: tip },
      el('span', { class: 'value-name', text: h.title }), el('span', { class: 'value-text', text })));
    n++;
  }
  return n ? box : null;
}

// A board from the data: rows (a data list), columns (a list in each row), each cell a template
// over its entry; records of state.data (size numbers each) stand on the cell their row and
// column fields (from 1) name, in their seat's colour.
function drawBoard(h) {
  const rows = dataAt(h.rows);
  if (!Array.isArray(rows)) return null;
  const box = el('div', { class: 'component board', 'data-board': h.title || h.rows }, el('h3', { text: h.title || h.rows }));
  const on = {};
  if (h.records)
    for (const seat of seatsOf(h.records)) {
      const list = stateAt(keyFor(h.records, seat));
      if (!Array.isArray(list)) continue;
      const size = h.size || 1;
      for (let k = 0; k + size <= list.length; k += size) {
        const key = `${list[k + (h.row_field || 1) - 1]},${list[k + (h.column_field || 2) - 1]}`;
        (on[key] = on[key] || []).push(seat == null ? -1 : seat);
      }
    }
  const t = el('table', { class: 'board-grid' });
  rows.forEach((row, i) => {
    const tr = el('tr', {}, el('th', { text: displayName(row) }));
    (row[h.columns] || []).forEach((col, j) => {
      const td = el('td', { 'data-cell': `${i + 1},${j + 1}`, text: h.cell ? fill(h.cell, col) : displayName(col), title: facts(col) });
      for (const seat of on[`${i + 1},${j + 1}`] || []) {
        const dot = el('span', { class: 'mark', 'data-seat': seat, title: seat >= 0 ? seatName(seat) : '' });
        dot.style.background = seatColour(seat);
        td.append(dot);
      }
      tr.append(td);
    });
    t.append(tr);
  });
  box.append(t);
  return box;
}

// A list hint: ids the rules keep in state.data (a seat's markers, or one id: the animal last
// revealed), as chips with their faces' names, icons and texts; per_seat: one list per seat.
function drawLists(h) {
  let src = stateAt(h.data);
  if (typeof src === 'string') src = [src];  // one id: a list of one
  if (!Array.isArray(src)) return [];
  const lists = h.per_seat ? src.map((l, seat) => [seat, l]) : [[null, src]];
  return lists.filter(([, l]) => Array.isArray(l)).map(([seat, l]) => {
    const who = seat == null ? '' : seatName(seat);
    const box = el('div', { class: 'component zone', 'data-list': seat == null ? h.data : `${h.data}:${seat}` },
      el('h3', { text: `${(h.title || h.data).replace('{seat}', who)} [${l.length}]` }));
    if (seat != null) box.style.borderLeft = `4px solid ${seatColour(seat)}`;
    const chips = el('div', { class: 'zone-cards' });
    for (const id of l.slice(0, 60)) {
      const f = faces[id] || {};
      const c = el('span', { class: 'chip', 'data-card': id, text: `${iconOf(id) ? iconOf(id) + ' ' : ''}${cardName(id)}`, title: `${cardName(id)}${f.text ? '\n' + f.text : ''}` });
      c.style.background = colourOf(id);
      chips.append(c);
    }
    box.append(chips);
    return box;
  });
}

function drawTrack(key, t) {
  const box = el('div', { class: 'component', 'data-track': key }, el('h3', { text: `${ownerLabel(key)}: space ${t.position + 1} of ${t.length}${t.circular ? ' (circular)' : ''}${t.laps ? `, lap ${t.laps}` : ''}` }));
  const row = el('div', { class: 'track' });
  // A hint may name the track's spaces from the data: {"spaces": "doc/path", "label": field}.
  const h = (look().tracks || {})[key.split(':')[0]];
  const spaces = h && h.spaces ? dataAt(h.spaces) : null;
  for (let i = 0; i < Math.min(t.length, 100); i++) {
    const sp = Array.isArray(spaces) ? spaces[i] : null;
    const label = sp ? String((h.label && sp[h.label]) ?? displayName(sp)) : '';
    const cell = el('span', { class: 'space' + (i === t.position ? ' here' : '') + (sp ? ' named' : ''), text: label ? `${i + 1} ${label}` : String(i + 1),
      title: `space ${i + 1}${sp ? `: ${displayName(sp)}${facts(sp) ? ` (${facts(sp)})` : ''}` : ''}${i === t.position ? ' (here)' : ''}` });
    if (sp && i !== t.position) cell.style.background = colourOf(label);
    row.append(cell);
  }
  box.append(row);
  return box;
}

// A field the designer is editing keeps what she typed across redraws (every bot move redraws
// the table, between her typing and her click): the table's value replaces it only when the
// table's own value changes (a new game, a load), or when she has not edited it.
function syncField(input, value) {
  const v = String(value);
  if (input.dataset.drawn === undefined || input.value === input.dataset.drawn || v !== input.dataset.drawn) input.value = v;
  input.dataset.drawn = v;
}

function draw() {
  const st = table.state;
  syncField($('players'), st.player_count);
  syncField($('seed'), st.seed);
  const seeing = table.viewer >= 0 ? ` — as ${seatName(table.viewer)} sees it` : '';
  $('history-note').textContent = (viewing >= 0 ? `— after move ${table.at} of ${table.moves_total} (history, read-only)` : (table.over ? '— game over' : '')) + seeing;
  document.body.classList.toggle('seat-view', table.viewer >= 0);
  const viewSelect = $('view-as');
  viewSelect.replaceChildren(el('option', { value: '', text: 'every seat (designer)' }),
    ...table.state.seats.map((s, i) => el('option', { value: String(i + 1), text: s.name })));
  viewSelect.value = table.viewer >= 0 ? String(table.viewer + 1) : '';
  // The seats' chips are kept across redraws (only their names, marks and values change), so a
  // seat being typed into keeps its text and its focus while the bots move.
  const seats = $('seats');
  if (seats.children.length !== table.seats.length) {
    seats.replaceChildren(...table.seats.map((s, i) => {
      const input = el('input', { type: 'text', size: 10, 'data-seat': i, title: "human, or a bot: random, greedy, heuristic, mcts:iters=200" });
      input.addEventListener('change', setSeats);
      return el('span', { class: 'seat' }, el('b'), ' ', input);
    }));
  }
  table.seats.forEach((s, i) => {
    const chip = seats.children[i];
    chip.className = 'seat' + (table.to_move.includes(i) ? ' moving' : '');
    chip.querySelector('b').textContent = s.name;
    chip.style.borderColor = seatColour(i);
    syncField(chip.querySelector('input'), s.controller);
  });
  const board = $('board');
  board.replaceChildren();
  for (const g of st.grids) board.append(drawGrid(g));
  if (Object.keys(st.tile_maps || {}).length && viewing < 0) { const hand = drawTileInHand(); if (hand) board.append(hand); }
  for (const [name, m] of Object.entries(st.tile_maps || {})) board.append(drawTileMap(name, m));
  for (const [name, m] of Object.entries(st.region_maps || {})) board.append(drawRegionMap(name, m));
  const scales = (game.data.scales && game.data.scales.scales) || [];
  if (scales.length) board.append(drawScales(scales));
  for (const z of st.zones) if (z.count > 0 || z.name === 'hand') board.append(drawZone(z));
  const counters = Object.entries(st.counters || {});
  if (counters.length) {
    const box = el('div', { class: 'component' }, el('h3', { text: 'counters' }));
    for (const [k, c] of counters) box.append(el('span', { class: 'chip counter', text: `${ownerLabel(k)}: ${c.value}${c.max !== undefined && c.max < 9e18 ? '/' + c.max : ''}` }));
    board.append(box);
  }
  for (const [k, t] of Object.entries(st.tracks || {})) board.append(drawTrack(k, t));
  for (const h of look().counters || []) board.append(...drawCounters(h));
  for (const h of look().lists || []) board.append(...drawLists(h));
  const values = drawValues(look().values || []);
  if (values) board.append(values);
  for (const h of look().boards || []) { const b = drawBoard(h); if (b) board.append(b); }
  for (const h of look().records || []) board.append(...drawRecords(h));
  $('view').textContent = table.view;
  // A game whose table is mostly its own data (no grid or map for the host to draw) reads
  // best in the rules' text view: open it the first time.
  if (!draw.opened) {
    draw.opened = true;
    $('view').parentElement.open = !(st.grids.length || Object.keys(st.tile_maps || {}).length || Object.keys(st.region_maps || {}).length);
  }
  $('data').textContent = table.viewer >= 0
    ? `(not shown in ${seatName(table.viewer)}'s view: state.data is the rules' own, and the host cannot tell what of it a seat may see; the rules' view for this seat is above` +
      `${Object.keys(st.data || {}).length ? `. The game's look declares these keys public, and the table draws them: ${Object.keys(st.data).join(', ')}` : ''})`
    : JSON.stringify(st.data, null, 1).slice(0, 20000);
  drawScores();
  drawMoves();
  drawLog();
  drawReload();
  document.dispatchEvent(new CustomEvent('studio-table'));
}

function drawScores() {
  const t = $('scores');
  t.replaceChildren();
  if (table.score_error) { t.append(el('tr', {}, el('td', { class: 'error', text: table.score_error }))); return; }
  const lines = table.scores;
  const cats = table.categories || [];
  t.append(el('tr', {}, el('th'), ...lines.map((l) => el('th', { text: l.name }))));
  const before = (i, k) => prevScores && prevScores[i] ? (k === null ? prevScores[i].total : prevScores[i].breakdown[k]) : undefined;
  const cell = (i, k, v) => {
    const was = before(i, k);
    const td = el('td', { text: String(v ?? 0), 'data-seat': i, 'data-category': k === null ? 'TOTAL' : k });
    const parts = Object.entries(lines[i].breakdown).map(([c, p]) => `${c}: ${p}`).join('\n');
    td.title = `${lines[i].name}, ${k === null ? 'total' : k}: ${v ?? 0}` + (was !== undefined && was !== v ? ` (was ${was})` : '') + (k === null ? `\n${parts}` : '');
    if (was !== undefined && was !== v) td.classList.add('changed');
    return td;
  };
  for (const k of cats) t.append(el('tr', {}, el('th', { text: categoryName(k), title: k }), ...lines.map((l, i) => cell(i, k, l.breakdown[k]))));
  t.append(el('tr', { class: 'total' }, el('th', { text: 'TOTAL' }), ...lines.map((l, i) => cell(i, null, l.total))));
  // The score's extra (what the rules add to explain it), in words: one line per entry.
  $('extra').replaceChildren(...Object.entries(table.extra || {}).map(([k, v]) => el('div', { class: 'extra', 'data-extra': k }, el('b', { text: `${categoryName(k)}: ` }), inWords(v))));
}

// A score category or an id in words: a card's or a data entry's name, else the id with its
// underscores as spaces ("whale_flips": "whale flips").
function categoryName(k) {
  if (game && game.cards[k]) return cardName(k);
  return String(k).replace(/[_-]+/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2').trim();
}
// A value of the rules' own (numbers, names, lists, records) as a line of words, never JSON.
function inWords(v, depth = 0) {
  if (v == null) return '';
  if (typeof v !== 'object') return typeof v === 'string' && game && game.cards[v] ? cardName(v) : String(v);
  if (depth > 3) return '…';
  if (Array.isArray(v)) return v.map((x) => inWords(x, depth + 1)).join(depth ? ', ' : '; ');
  return Object.entries(v).map(([k, x]) => `${categoryName(k)} ${inWords(x, depth + 1)}`).join(depth ? ', ' : '; ');
}

function drawMoves() {
  const list = $('moves');
  list.replaceChildren();
  const who = table.to_move.map((s) => `${seatName(s)} (${table.seats[s] ? table.seats[s].controller : '?'})`).join(', ');
  $('to-move').textContent = viewing >= 0 ? 'history: go back to live to play' : table.over ? 'The game is over.' : `to move: ${who}`;
  if (viewing >= 0) return;
  // A bot that must move thinks on the server's own thread: its state shows here, with a
  // Cancel while it thinks; its move arrives by the event stream.
  const bot = table.bot;
  if (bot) {
    const line = el('div', { class: 'bot ' + bot.state, 'data-bot-state': bot.state },
      bot.state === 'thinking' ? `${seatName(bot.seat)} (${bot.controller}) is thinking… ` : `${seatName(bot.seat)} (${bot.controller}): ${bot.error} `);
    if (bot.state === 'thinking') line.append(el('button', { id: 'bot-cancel', class: 'small', text: 'Cancel', onclick: () => act('/api/bots/cancel', {}) }));
    $('to-move').append(line);
  }
  let moves = humanMoves();
  if (pickCell && pickCell.moves) moves = pickCell.moves;
  else if (pickCell) moves = cellMoves(pickCell.kind, pickCell.name, pickCell.r, pickCell.c);
  if (pickCell) list.append(el('li', { class: 'note' }, el('button', { text: 'show all moves', onclick: () => { pickCell = null; drawMoves(); } })));
  for (const { seat, move } of moves.slice(0, 500)) {
    const b = el('button', { class: 'move', text: `${seatName(seat)}: ${move.label}`, 'data-seat': seat, 'data-index': move.i });
    b.addEventListener('click', () => play(seat, move.i));
    list.append(el('li', {}, b));
  }
  for (const l of table.legal) if (l.count > l.moves.length) list.append(el('li', { class: 'note', text: `… ${l.count - l.moves.length} more moves for ${seatName(l.seat)}` }));
}

function drawLog() {
  const slider = $('slider');
  slider.max = table.moves_total;
  slider.value = viewing >= 0 ? viewing : table.moves_total;
  $('slider-label').textContent = `move ${slider.value} / ${table.moves_total}`;
  const log = $('log');
  log.replaceChildren();
  const shown = viewing >= 0 ? viewing : table.moves_total;
  for (const e of table.log.slice(-400)) {
    const li = el('li', { class: e.kind + (e.n > shown ? ' future' : ''), value: e.n, text: e.seat >= 0 ? `${seatName(e.seat)}: ${e.text}` : e.text });
    li.addEventListener('click', () => goTo(e.n));
    log.append(li);
  }
  // The log follows the game: the latest move in view, or the move the history shows.
  const here = viewing >= 0 ? [...log.children].filter((li) => Number(li.value) <= viewing).pop() : log.lastElementChild;
  if (viewing < 0) log.scrollTop = log.scrollHeight;
  else if (here) log.scrollTop = here.offsetTop - log.clientHeight / 2;  // #log is positioned: offsets are its own
}

function drawReload() {
  const r = table.reload;
  const box = $('reload');
  if (!r) { box.hidden = true; return; }
  box.hidden = false;
  box.className = 'reload ' + (r.ok ? 'ok' : 'error');
  const when = new Date(r.at * 1000).toLocaleTimeString();
  box.textContent = r.ok
    ? `${when}: rules reloaded in ${r.ms.toFixed(1)} ms${r.changes ? ': ' + r.changes.trim().split('\n').join('; ') : ' (no score changed)'}`
    : `${when}: the save was refused, the old rules keep running and the table is unchanged:\n${r.error}`;
}

async function goTo(n) {
  viewing = n >= table.moves_total && viewing < 0 ? -1 : n;
  pickCell = null;
  await refresh();
}

// ---- actions -----------------------------------------------------------------------------

// A call that changes the table; the new table comes back by the event stream and by the
// refresh (whichever is first; a cell's choices are dropped when the table changes).
async function act(path, body, done) {
  try {
    await api(path, body);
    say(done || '');
  } catch (e) {
    say(e.message, true);
  }
  await refresh();
}
const play = (seat, index) => act('/api/move', { seat, index, version: table.version });
function setSeats() {
  const seats = [...document.querySelectorAll('#seats input')].map((i) => i.value.trim());
  act('/api/seats', { seats });
}
$('undo').addEventListener('click', () => act('/api/undo', {}));
$('new-game').addEventListener('click', () => { viewing = -1; act('/api/new', { players: Number($('players').value) || 0, seed: Number($('seed').value) || 0 }); });
$('save').addEventListener('click', () => act('/api/save', { path: $('file').value }, `saved in ${$('file').value}`));
$('load').addEventListener('click', () => { viewing = -1; act('/api/load', { path: $('file').value }, `loaded ${$('file').value}`); });
$('slider').addEventListener('input', () => { $('slider-label').textContent = `move ${$('slider').value} / ${table.moves_total}`; });
$('slider').addEventListener('change', () => goTo(Number($('slider').value)));
$('live').addEventListener('click', () => { viewing = -1; refresh(); });
$('view-as').addEventListener('change', () => { viewAs = $('view-as').value; pickCell = null; say(''); refresh(); });

// ---- simulations -------------------------------------------------------------------------

const charts = [];
let lastSim = null;

// Error bars for bar charts: each dataset may carry `errors`: half-widths in the data's units,
// or [low, high] pairs (the report's own intervals, which need not be symmetric: Wilson's).
const errorBars = {
  id: 'errorBars',
  afterDatasetsDraw(chart) {
    const ctx = chart.ctx;
    chart.data.datasets.forEach((ds, di) => {
      if (!ds.errors) return;
      const meta = chart.getDatasetMeta(di);
      meta.data.forEach((bar, i) => {
        const v = ds.data[i], e = ds.errors[i];
        if (e == null) return;
        const y = chart.scales[ds.yAxisID || 'y'];
        const [lo, hi] = Array.isArray(e) ? e : [Math.max(0, v - e), v + e];
        const top = y.getPixelForValue(hi), bottom = y.getPixelForValue(lo);
        ctx.save();
        ctx.strokeStyle = '#222';
        ctx.lineWidth = 1.5;
        ctx.beginPath();
        ctx.moveTo(bar.x, top); ctx.lineTo(bar.x, bottom);
        ctx.moveTo(bar.x - 5, top); ctx.lineTo(bar.x + 5, top);
        ctx.moveTo(bar.x - 5, bottom); ctx.lineTo(bar.x + 5, bottom);
        ctx.stroke();
        ctx.restore();
      });
    });
  },
};

function chartBox(title, config) {
  const canvas = el('canvas', { width: 460, height: 260 });
  const save = el('button', { class: 'small', text: 'PNG' });
  const box = el('div', { class: 'chart', 'data-chart': title }, el('h3', { text: title }, ' ', save), canvas);
  $('charts').append(box);
  config.options = Object.assign({ animation: false, responsive: false, plugins: { legend: { display: (config.data.datasets || []).length > 1 } } }, config.options || {});
  config.plugins = [errorBars];
  const chart = new Chart(canvas.getContext('2d'), config);
  save.addEventListener('click', () => download(`${title}.png`, canvas.toDataURL('image/png')));
  charts.push(chart);
}

function download(name, href) {
  const a = el('a', { href, download: name });
  document.body.append(a);
  a.click();
  a.remove();
}
function downloadText(name, text, type) {
  download(name, URL.createObjectURL(new Blob([text], { type })));
}

// How the game feels (the report's "feel", README "How the game feels"): the shares of games
// and decisions with their 95% intervals, and the leader's margin over the game.
function drawFeel(f) {
  if (!f || !f.games) return;
  const pct = (m) => 100 * (m.rate ?? m.mean);
  const rows = [
    ['winner leads for good from (% of game)', f.lead_for_good],
    ['comeback: winner was behind (drama)', f.drama],
    ['comeback from last place', f.drama && f.drama.from_last],
    ['dead turns (% of decisions)', f.dead_turns],
    ...(f.kingmaking ? [['kingmaking (% of sampled games)', f.kingmaking]] : []),
  ].filter((x) => x[1]);
  chartBox('how the game feels, % (95% interval)', {
    type: 'bar',
    data: { labels: rows.map((x) => x[0]), datasets: [{ label: '%', data: rows.map((x) => pct(x[1])),
      errors: rows.map((x) => x[1].interval95.map((v) => 100 * v)), backgroundColor: ['#6c8ebf', '#d79b00', '#d6b656', '#999999', '#b85450'] }] },
    options: { indexAxis: 'x', scales: { y: { beginAtZero: true, suggestedMax: 100 } } },
  });
  const at = Object.entries(f.score_gap || {}).sort((a, b) => parseFloat(a[0]) - parseFloat(b[0]));  // "100%" last
  chartBox(`leader's margin over the game, points (95% interval; ${f.lead_changes.mean.toFixed(1)} lead changes a game)`, {
    type: 'bar',
    data: { labels: at.map((x) => `at ${x[0]}`), datasets: [{ label: 'leader minus second', data: at.map((x) => x[1].mean),
      errors: at.map((x) => x[1].interval95), backgroundColor: '#9673a6' }] },
    options: { scales: { y: { beginAtZero: true } } },
  });
}

function drawSimulation(sim) {
  for (const c of charts.splice(0)) c.destroy();
  $('charts').replaceChildren();
  const r = sim.report, p = sim.plots;
  const games = r.games;
  // Score distribution per seat.
  // Totals in at most 30 bins of equal width, the same for every seat.
  const all = p.seat_scores.flatMap((s) => s.map((x) => x[0]));
  const lo = Math.min(...all), hi = Math.max(...all);
  const width = Math.max(1, Math.ceil((hi - lo + 1) / 30));
  const bins = Math.floor((hi - lo) / width) + 1;
  const binLabels = [...Array(bins).keys()].map((k) => width === 1 ? String(lo + k) : `${lo + k * width}–${lo + (k + 1) * width - 1}`);
  chartBox('score distribution per seat', {
    type: 'line',
    data: { labels: binLabels, datasets: p.seat_scores.map((s, i) => {
      const counts = new Array(bins).fill(0);
      for (const [t, n] of s) counts[Math.floor((t - lo) / width)] += n;
      return { label: p.seat_names[i], data: counts, borderColor: seatColour(i), backgroundColor: seatColour(i), pointRadius: 1, tension: 0.2 };
    }) },
    options: { scales: { x: { title: { display: true, text: 'total' } }, y: { title: { display: true, text: 'games' } } } },
  });
  // Win rate per seat (and per bot) with 95% error bars over games.
  // The report's own intervals (Wilson's, ties shared) where it has them.
  const se = (p0, n) => 196 * Math.sqrt(Math.max(p0 * (1 - p0), 0) / Math.max(n, 1));
  const interval = (b, p0, n) => (b && b.interval95 ? b.interval95.map((x) => 100 * x) : se(p0, n));
  const winLabels = r.seats.map((s) => s.seat);
  const winData = r.seats.map((s) => 100 * s.win_rate);
  const winErr = r.seats.map((s) => interval(s.balance, s.win_rate, games));
  const bots = Object.entries(r.bots || {});
  if (bots.length > 1) for (const [b, rec] of bots) { winLabels.push(`bot ${b}`); winData.push(100 * rec.win_rate); winErr.push(interval(rec.balance, rec.win_rate, rec.seats * games / r.seats.length)); }
  const fair = r.seats.length ? 100 / r.seats.length : 0;
  chartBox(`win rate % (95% interval; a fair share is ${fair.toFixed(0)}%)`, {
    type: 'bar',
    data: { labels: winLabels, datasets: [{ label: 'win %', data: winData, errors: winErr, backgroundColor: winLabels.map((_, i) => seatColour(i)) }] },
    options: { scales: { y: { beginAtZero: true, suggestedMax: 100 } } },
  });
  drawFeel(r.feel);
  chartBox('game length (rounds)', {
    type: 'bar',
    data: { labels: p.rounds.map((x) => x[0]), datasets: [{ label: 'games', data: p.rounds.map((x) => x[1]), backgroundColor: '#6c8ebf' }] },
  });
  const endings = Object.entries(r.endings || {});
  chartBox('how games ended', {
    type: 'bar',
    data: { labels: endings.map((e) => e[0]), datasets: [{ label: 'games', data: endings.map((e) => e[1]), backgroundColor: '#82b366' }] },
  });
  const cards = Object.entries(r.cards || {});
  if (cards.length)
    chartBox('card balance', {
      type: 'bar',
      data: { labels: cards.map((c) => cardName(c[0])), datasets: [
        { label: 'points per copy', data: cards.map((c) => c[1].points_per_copy), backgroundColor: '#d79b00', yAxisID: 'y' },
        { label: 'pick rate %', data: cards.map((c) => 100 * (c[1].pick_rate || 0)), backgroundColor: '#9673a6', yAxisID: 'y2' },
      ] },
      options: { plugins: { legend: { display: true } }, scales: { y: { position: 'left' }, y2: { position: 'right', grid: { drawOnChartArea: false } } } },
    });
  const counts = Object.entries(r.counts || {});
  if (counts.length)
    chartBox("the game's stats (mean per game)", {
      type: 'bar',
      data: { labels: counts.map((c) => c[0]), datasets: [{ label: 'mean', data: counts.map((c) => c[1].mean), errors: counts.map((c) => 1.96 * c[1].stdev / Math.sqrt(games)), backgroundColor: '#b85450' }] },
      options: { indexAxis: 'x' },
    });
  // Per-player measures: how often each happened to a player, and how often those players won.
  const metrics = Object.entries(r.player_metrics || {}).filter((m) => m[1].happened_rate > 0).slice(0, 40);
  if (metrics.length)
    chartBox('per player: happened % and win % when it happened', {
      type: 'bar',
      data: { labels: metrics.map((m) => m[0]), datasets: [
        { label: 'happened %', data: metrics.map((m) => 100 * m[1].happened_rate), backgroundColor: '#6c8ebf' },
        { label: 'win % when it happened', data: metrics.map((m) => 100 * m[1].win_rate_when_happened), backgroundColor: '#d79b00' },
      ] },
      options: { plugins: { legend: { display: true } }, scales: { y: { beginAtZero: true, suggestedMax: 100 } } },
    });
  const tags = Object.entries(r.tags || {});
  if (tags.length)
    chartBox('tags: share of games %', {
      type: 'bar',
      data: { labels: tags.map((t) => t[0]), datasets: [{ label: '% of games', data: tags.map((t) => 100 * t[1].games / games), backgroundColor: '#10739e' }] },
    });
  $('sim-findings').textContent = (r.findings || []).length ? 'Findings: ' + r.findings.join(' · ') : 'No findings.';
  drawCompare(sim.compare, sim.compare_text, 'compared with the previous run', 'previous run', 'this run');
}

// Two reports side by side, measure by measure, as --compare judges them (host/compare): a row
// is marked when the difference is beyond the games' own randomness. The previous run from the
// page and the last one, or two saved report files.
function drawCompare(compare, text, what, beforeName, afterName) {
  const cmp = $('sim-compare-box');
  cmp.hidden = !compare;
  cmp.dataset.files = '';
  const t = $('sim-compare-table');
  t.replaceChildren();
  $('sim-compare-what').textContent = what;
  if (compare) {
    const fmt = (v) => (typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toFixed(3)) : v == null ? '' : JSON.stringify(v));
    $('sim-compare-summary').textContent = `${compare.changed} of ${compare.compared} measures changed` +
      (compare.settings.length ? ` · settings: ${compare.settings.join('; ')}` : '');
    t.append(el('tr', {}, ...['measure', beforeName, afterName, 'difference', 'z'].map((h) => el('th', { text: h }))));
    for (const m of compare.measures)
      t.append(el('tr', { class: m.changed ? 'changed' : '' }, el('td', { text: m.measure }), el('td', { text: fmt(m.before) }),
        el('td', { text: fmt(m.after) }), el('td', { text: fmt(m.difference) }), el('td', { text: m.z == null ? '' : m.z.toFixed(1) })));
    if (compare.changed > 0) cmp.open = true;
  }
  $('sim-compare').textContent = text || '';
}

// Two saved reports (plateau simulate --format json, or this page's JSON button), compared by
// the studio with --compare's judgement; a file that is not a report, or reports of two games,
// are refused with the reason.
async function compareFiles() {
  try {
    const c = await api('/api/compare', { before: $('cmp-before').value.trim(), after: $('cmp-after').value.trim() });
    const side = (x) => `${x.kind === 'tune' ? 'tune result ' : ''}${x.name} (${x.games} games${x.kind === 'tune' ? ' of its confirmation' : ''})`;
    drawCompare(c.compare, c.compare_text, `${side(c.before)} against ${side(c.after)} of ${c.after.game || c.before.game || 'a game'}`,
      c.before.name, c.after.name);
    $('sim-compare-box').dataset.files = `${c.before.path}|${c.after.path}`;
    $('sim-compare-box').open = true;
    say('');
  } catch (e) {
    say(e.message, true);
  }
}
$('cmp-run').addEventListener('click', compareFiles);

// A sweep: the key figures against the swept value, with 95% intervals over games.
function drawSweep(sim) {
  for (const c of charts.splice(0)) c.destroy();
  $('charts').replaceChildren();
  const runs = sim.sweep.runs;
  const labels = runs.map((r) => JSON.stringify(r.value));
  const ci = (stat, n) => 1.96 * stat.stdev / Math.sqrt(Math.max(n, 1));
  const seats = runs[0].report.seats.map((s) => s.seat);
  chartBox(`mean total per seat against ${sim.sweep.name}`, {
    type: 'line',
    data: { labels, datasets: seats.map((name, i) => ({ label: name, borderColor: seatColour(i), backgroundColor: seatColour(i),
      data: runs.map((r) => r.report.seats[i].mean), errors: runs.map((r) => ci(r.report.seats[i], r.report.games)) })) },
    options: { plugins: { legend: { display: true } }, scales: { x: { title: { display: true, text: sim.sweep.name } } } },
  });
  chartBox(`win rate % per seat against ${sim.sweep.name}`, {
    type: 'line',
    data: { labels, datasets: seats.map((name, i) => ({ label: name, borderColor: seatColour(i), backgroundColor: seatColour(i),
      data: runs.map((r) => 100 * r.report.seats[i].win_rate),
      errors: runs.map((r) => { const p0 = r.report.seats[i].win_rate; return 196 * Math.sqrt(p0 * (1 - p0) / Math.max(r.report.games, 1)); }) })) },
    options: { plugins: { legend: { display: true } }, scales: { y: { beginAtZero: true, suggestedMax: 100 }, x: { title: { display: true, text: sim.sweep.name } } } },
  });
  chartBox(`game length and winning total against ${sim.sweep.name}`, {
    type: 'line',
    data: { labels, datasets: [
      { label: 'rounds', data: runs.map((r) => r.report.rounds.mean), errors: runs.map((r) => ci(r.report.rounds, r.report.games)), borderColor: '#6c8ebf', backgroundColor: '#6c8ebf', yAxisID: 'y' },
      { label: 'winning total', data: runs.map((r) => r.report.top_score.mean), errors: runs.map((r) => ci(r.report.top_score, r.report.games)), borderColor: '#b85450', backgroundColor: '#b85450', yAxisID: 'y2' },
    ] },
    options: { plugins: { legend: { display: true } }, scales: { y: { position: 'left' }, y2: { position: 'right', grid: { drawOnChartArea: false } } } },
  });
  $('sim-findings').textContent = runs.map((r) => `${sim.sweep.name}=${JSON.stringify(r.value)}: ${(r.report.findings || []).length ? r.report.findings.join(' · ') : 'no findings'}`).join('\n');
  $('sim-compare-box').hidden = true;
}

function sweepCsv(sim) {
  const runs = sim.sweep.runs;
  const head = [sim.sweep.name, 'games', 'rounds', 'winning total', 'spread', ...runs[0].report.seats.flatMap((s) => [`${s.seat} mean`, `${s.seat} win rate`])];
  const rows = runs.map((r) => [JSON.stringify(r.value), r.report.games, r.report.rounds.mean, r.report.top_score.mean, r.report.spread.mean,
    ...r.report.seats.flatMap((s) => [s.mean, s.win_rate])]);
  return [head, ...rows].map((row) => row.join(',')).join('\n') + '\n';
}

// "4..10:2" or "4..10" (numbers), else a comma-separated list (each item JSON or a string).
function parseValues(text) {
  const m = text.trim().match(/^(-?[\d.]+)\.\.(-?[\d.]+)(?::([\d.]+))?$/);
  if (m) {
    const [lo, hi, step] = [Number(m[1]), Number(m[2]), Number(m[3] || 1)];
    if (!(step > 0) || lo > hi || (hi - lo) / step > 50) throw new Error(`values ${text}: a range is <from>..<to>[:<step>] with at most 50 values`);
    const out = [];
    for (let k = 0; lo + k * step <= hi + 1e-9; k++) out.push(Math.round((lo + k * step) * 1e9) / 1e9);
    return out;
  }
  return text.split(',').map((x) => x.trim()).filter((x) => x).map((x) => { try { return JSON.parse(x); } catch (e) { return x; } });
}

function simCsv(sim) {
  const r = sim.report;
  const rows = [['measure', 'seat or name', 'value']];
  for (const s of r.seats) { rows.push(['mean total', s.seat, s.mean]); rows.push(['win rate', s.seat, s.win_rate]); }
  rows.push(['rounds mean', '', r.rounds.mean]);
  for (const [k, v] of Object.entries(r.endings || {})) rows.push(['ending', k, v]);
  for (const [k, v] of Object.entries(r.cards || {})) { rows.push(['points per copy', k, v.points_per_copy]); rows.push(['pick rate', k, v.pick_rate]); }
  for (const [k, v] of Object.entries(r.counts || {})) rows.push(['stat mean', k, v.mean]);
  sim.plots.seat_scores.forEach((s, i) => { for (const [t, n] of s) rows.push([`games with total ${t}`, sim.plots.seat_names[i], n]); });
  for (const [k, n] of sim.plots.rounds) rows.push([`games of ${k} rounds`, '', n]);
  const q = (x) => { const s = String(x); return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s; };
  return rows.map((row) => row.map(q).join(',')).join('\n') + '\n';
}

async function refreshSim() {
  const sim = await api('/api/simulate');
  const running = sim.state === 'running';
  $('sim-run').disabled = $('sweep-run').disabled = running;
  $('sim-cancel').disabled = !running;
  $('sim-progress').max = sim.games || 1;
  $('sim-progress').value = sim.state === 'done' ? sim.games : sim.done || 0;
  $('sim-status').textContent = running ? `${sim.done} / ${sim.games} games` : sim.state === 'done' ? (sim.sweep ? `sweep of ${sim.sweep.name}: ${sim.sweep.runs.length} values, ${sim.games} games` : `${sim.report.games} games in ${sim.report.seconds.toFixed(1)} s`) : sim.state === 'idle' ? '' : `${sim.state}: ${sim.error}`;
  $('sim-status').className = sim.state === 'failed' || sim.state === 'cancelled' ? 'error' : '';
  $('sim-panel').dataset.state = sim.state;
  if (sim.state === 'done' && JSON.stringify(lastSim) !== JSON.stringify(sim)) {
    lastSim = sim;
    if (sim.sweep) drawSweep(sim);
    else drawSimulation(sim);
  }
  $('sim-csv').disabled = $('sim-json').disabled = !lastSim;
}
async function runSimulation(sweep) {
  try {
    const body = { n: Number($('sim-n').value), bots: $('sim-bots').value, players: Number($('sim-players').value) || 0,
      seed: Number($('sim-seed').value) || 0, rotate_seats: $('sim-rotate').checked, kingmaking: sweep ? 0 : Number($('sim-kingmaking').value) || 0 };
    if (sweep) body.sweep = { name: $('sweep-name').value.trim(), values: parseValues($('sweep-values').value) };
    await api('/api/simulate', body);
    say('');
  } catch (e) {
    say(e.message, true);
  }
  refreshSim();
}
$('sim-run').addEventListener('click', () => runSimulation(false));
$('sweep-run').addEventListener('click', () => runSimulation(true));
$('sim-cancel').addEventListener('click', () => api('/api/simulate/cancel', {}).then(refreshSim));
$('sim-csv').addEventListener('click', () => lastSim && downloadText(`${game.id}-${lastSim.sweep ? 'sweep' : 'report'}.csv`, lastSim.sweep ? sweepCsv(lastSim) : simCsv(lastSim), 'text/csv'));
$('sim-json').addEventListener('click', () => lastSim && downloadText(`${game.id}-${lastSim.sweep ? 'sweep' : 'report'}.json`, JSON.stringify(lastSim.sweep || lastSim.report, null, 2), 'application/json'));

// ---- live updates ------------------------------------------------------------------------

function listen() {
  const events = new EventSource(url('/api/events'));
  events.addEventListener('update', async (e) => {
    const ev = JSON.parse(e.data);
    document.dispatchEvent(new CustomEvent('studio-event', { detail: ev }));
    if (ev.kind === 'sim') {
      // Progress events may stand in for a change the stream had no time to send on its own.
      if (table && ev.version !== table.version && viewing < 0) await refresh();
      return refreshSim();
    }
    if (ev.kind === 'error') return say(shownError = ev.error, true);  // a background thread failed
    const received = performance.now();
    // A change carries the live table; a refused reload only its banner.
    // The event's table is the designer's: a seat's view is asked for again.
    if (ev.table && viewing < 0 && !viewAs && (!table || ev.table.version >= table.version)) show(ev.table);
    else if (viewing < 0 || ev.kind === 'reload') await refresh();
    // How long a reload took to show once the server announced it (the tests read it).
    if (ev.kind === 'reload') window.reloadShownMs = performance.now() - received;
    // The game's description (names, colours, maps) may have changed with the rules.
    if (ev.kind === 'reload' && ev.ok) { await loadGame(); draw(); }
  });
}

(async () => {
  try {
    await loadGame();
    await refresh();
    await refreshSim();
    listen();
    document.body.dataset.ready = '1';
  } catch (e) {
    say(e.message, true);
  }
})();
