// Hostile cases for `plateau studio`'s server (ctest: studio.hostile_*; issue 30, class 6: the
// server never freezes). Driven from outside with raw sockets and HTTP (no browser): slow and
// silent clients without the token while the owner plays, more event streams than allowed, a
// bot with a huge budget cancelled and the process stopped under load, fields of the wrong
// type and numbers too big for every call, bodies and heads that never end, files that block.
// Each case asserts what the studio answered, that it still serves the owner, and that the
// table (and every file) is as it was where a refusal should leave it.
//   node hostile_test.mjs <plateau binary> <source dir> <output dir> <case>
// Times are printed; the bounds they are checked against are generous (a loaded 2-core
// machine): they tell a frozen studio from a slow one, not a fast one from a slow one.
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const [plateau, source, outDir, which] = process.argv.slice(2);
if (!plateau || !source || !outDir || !which) {
  console.error('usage: node hostile_test.mjs <plateau> <source dir> <output dir> <case>');
  process.exit(2);
}

const running = [];   // studios started, stopped on the way out whatever happens
const sockets = [];   // raw connections opened, destroyed on the way out
function cleanupAll() {
  for (const c of sockets) c.destroy();
  for (const p of running) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
}
function fail(message) {
  console.error(`FAIL hostile_${which}: ${message}`);
  cleanupAll();
  process.exit(1);
}
function check(cond, message) {
  if (!cond) fail(message);
  console.log(`ok - ${message}`);
}
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Starts `plateau studio` and reads the URL it prints.
function startStudio(args) {
  return new Promise((resolve, reject) => {
    const proc = spawn(plateau, ['studio', ...args, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    running.push(proc);
    let out = '', err = '';
    const exited = new Promise((done) => proc.on('exit', (code, signal) => done({ code, signal, at: Date.now() })));
    const timer = setTimeout(() => reject(new Error(`the studio printed no URL in 30 s\n${out}\n${err}`)), 30000);
    proc.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/http:\/\/127\.0\.0\.1:(\d+)\/\?token=([0-9a-f]+)/);
      if (m) {
        clearTimeout(timer);
        resolve({ proc, port: Number(m[1]), token: m[2], exited, stderr: () => err });
      }
    });
    proc.stderr.on('data', (d) => { err += d; });
    exited.then((e) => { clearTimeout(timer); reject(new Error(`the studio exited (${e.code}, ${e.signal})\n${out}\n${err}`)); });
  });
}
const alive = (s) => s.proc.exitCode === null && s.proc.signalCode === null;

// SIGTERM, then the time until the process is gone.
async function stopTimed(s, what) {
  const t0 = Date.now();
  s.proc.kill('SIGTERM');
  const e = await Promise.race([s.exited, sleep(30000).then(() => null)]);
  const ms = e ? e.at - t0 : -1;
  console.log(`   (SIGTERM ${what}: the process was gone after ${ms} ms)`);
  check(e !== null && ms < 5000, `SIGTERM ${what}: the studio is gone within 5 s (${ms} ms; it aims at under 1 s)`);
  check(e.code === 0, `... and it exits 0 (exit ${e.code}, signal ${e.signal})`);
}

// One HTTP request on its own connection; never rejects (a connection error is status 0).
function request(s, method, target, { headers = {}, body, timeoutMs = 60000 } = {}) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const req = http.request({ host: '127.0.0.1', port: s.port, method, path: target, agent: false,
      headers: { Host: `127.0.0.1:${s.port}`, ...headers } }, (res) => {
      let data = '';
      res.on('data', (d) => { data += d; });
      res.on('end', () => {
        let json = null;
        try { json = JSON.parse(data); } catch (e) { /* not JSON */ }
        resolve({ status: res.statusCode, body: data, json, ms: Date.now() - t0 });
      });
      res.on('error', () => resolve({ status: res.statusCode, body: data, json: null, ms: Date.now() - t0 }));
    });
    req.setTimeout(timeoutMs, () => { req.destroy(); resolve({ status: 0, body: 'timed out', json: null, ms: Date.now() - t0 }); });
    req.on('error', (e) => resolve({ status: 0, body: e.message, json: null, ms: Date.now() - t0 }));
    if (body !== undefined) req.write(body);
    req.end();
  });
}
const get = (s, p, query = '') => request(s, 'GET', `${p}?token=${s.token}${query}`);
const post = (s, p, obj, query = '') => request(s, 'POST', `${p}?token=${s.token}${query}`,
  { headers: { 'Content-Type': 'application/json' }, body: typeof obj === 'string' ? obj : JSON.stringify(obj) });
async function table(s) {
  const r = await get(s, '/api/state');
  if (r.status !== 200) fail(`GET /api/state answered ${r.status}: ${r.body.slice(0, 200)}`);
  return r.json;
}
// The table once no bot is thinking.
async function settled(s, timeoutMs = 120000) {
  const t0 = Date.now();
  for (;;) {
    const t = await table(s);
    if (!t.bot || t.bot.state !== 'thinking') return t;
    if (Date.now() - t0 > timeoutMs) fail(`the bots were still thinking after ${timeoutMs / 1000} s`);
    await sleep(50);
  }
}
async function waitFor(cond, timeoutMs, what) {
  const t0 = Date.now();
  for (;;) {
    const v = await cond();
    if (v) return v;
    if (Date.now() - t0 > timeoutMs) fail(`${what}: not within ${timeoutMs / 1000} s`);
    await sleep(50);
  }
}

// A raw connection: what it received and when it was closed.
function connect(s) {
  return new Promise((resolve) => {
    const c = net.connect(s.port, '127.0.0.1');
    sockets.push(c);
    c.received = '';
    c.closedAt = null;
    c.on('data', (d) => { c.received += d; });
    c.on('error', () => {});
    c.on('close', () => { c.closedAt = Date.now(); });
    c.on('connect', () => resolve(c));
  });
}
// A client that sends a request head one byte at a time and never finishes it.
async function slowClient(s, target, everyMs) {
  const c = await connect(s);
  const text = `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${s.port}\r\n` + 'X-Slow: '.padEnd(4000, 'x');
  let i = 0;
  c.timer = setInterval(() => {
    if (c.closedAt !== null || i >= text.length) return clearInterval(c.timer);
    c.write(text[i++]);
  }, everyMs);
  return c;
}
// An event stream: resolves with its status once the head arrives; collects its events.
function eventStream(s) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const req = http.get({ host: '127.0.0.1', port: s.port, path: `/api/events?token=${s.token}`, agent: false,
      headers: { Host: `127.0.0.1:${s.port}` } }, (res) => {
      const stream = { status: res.statusCode, ms: Date.now() - t0, events: [], close: () => req.destroy() };
      let buf = '';
      res.on('data', (d) => {
        buf += d;
        for (let at = buf.indexOf('\n\n'); at >= 0; at = buf.indexOf('\n\n')) {
          const chunk = buf.slice(0, at);
          buf = buf.slice(at + 2);
          const data = chunk.split('\n').find((l) => l.startsWith('data: '));
          if (data) { try { stream.events.push(JSON.parse(data.slice(6))); } catch (e) { /* not JSON */ } }
        }
      });
      res.on('error', () => {});
      resolve(stream);
    });
    req.on('error', (e) => resolve({ status: 0, ms: Date.now() - t0, events: [], error: e.message, close: () => {} }));
  });
}
// The owner at work: the table, the game, one move; each call's status and time.
async function ownerPlays(s, label) {
  const times = [];
  for (let i = 0; i < 3; i++) {
    for (const p of ['/api/state', '/api/game', '/api/simulate']) {
      const r = await get(s, p);
      check(r.status === 200, `${label}: the owner's GET ${p} is answered (${r.ms} ms)`);
      times.push(r.ms);
    }
  }
  const t = await settled(s);
  const r = await post(s, '/api/move', { seat: 0, index: 0, version: t.version });
  check(r.status === 200, `${label}: the owner's move is played (${r.status} ${r.ms} ms ${r.body.slice(0, 120)})`);
  times.push(r.ms);
  const after = await settled(s);
  check(after.moves_total > t.moves_total, `${label}: the move is on the table (${t.moves_total} -> ${after.moves_total} moves)`);
  const worst = Math.max(...times);
  console.log(`   (${label}: the owner's slowest call took ${worst} ms)`);
  check(worst < 20000, `${label}: no call of the owner waited 20 s (slowest ${worst} ms)`);
}
const sameTable = (a, b) => a.hash === b.hash && a.version === b.version && a.moves_total === b.moves_total;

const SAVANE = ['ecosysteme-savane', '--players', '2'];
const HUGE_MCTS = 'mcts:iters=10000000';

const cases = {
  // 40 connections without the token that send their request a byte every 200 ms and never
  // finish: the owner's calls and moves are answered meanwhile, and each slow connection is
  // answered 408 and closed once its request deadline passes.
  async slow_clients() {
    const s = await startStudio([...SAVANE, '--bots', 'human,greedy']);
    const slow = [];
    for (let i = 0; i < 40; i++) slow.push(await slowClient(s, '/api/state', 200));
    await sleep(1000);
    const t0 = Date.now();
    await ownerPlays(s, '40 slow clients');
    const closed = await waitFor(() => slow.every((c) => c.closedAt !== null), 40000, 'the slow connections were closed');
    check(closed && slow.every((c) => /^HTTP\/1\.1 408/.test(c.received) && /did not arrive whole/.test(c.received)),
      `each slow connection was answered 408 and closed (the last ${Math.max(...slow.map((c) => c.closedAt)) - t0} ms after the owner began)`);
    check(alive(s), 'the studio is still running');
    await stopTimed(s, 'after the slow clients');
  },

  // 300 connections that send nothing, more than may wait at once (256): the longest-waiting
  // are answered 503 and closed, and the owner is served.
  async silent_clients() {
    const s = await startStudio([...SAVANE, '--bots', 'human,greedy']);
    const t0 = Date.now();
    const silent = await Promise.all(Array.from({ length: 300 }, () => connect(s)));
    console.log(`   (300 connections opened in ${Date.now() - t0} ms)`);
    await sleep(500);
    await ownerPlays(s, '300 silent connections');
    const refused = silent.filter((c) => /^HTTP\/1\.1 503/.test(c.received)).length;
    check(refused >= 300 - 256, `the connections past 256 waiting were answered 503 (${refused})`);
    check(silent.slice(0, refused).every((c) => /^HTTP\/1\.1 503/.test(c.received)), 'the ones refused are the longest-waiting');
    check(alive(s), 'the studio is still running');
    await stopTimed(s, 'with 300 silent connections open');
  },

  // 33 event streams with the token: 8 are served, the rest refused at once with 429; every
  // call is answered while the 8 stay open; a stream closed frees its place.
  async event_streams() {
    const s = await startStudio([...SAVANE, '--bots', 'human,greedy']);
    await settled(s);
    const streams = await Promise.all(Array.from({ length: 33 }, () => eventStream(s)));
    const served = streams.filter((x) => x.status === 200), refused = streams.filter((x) => x.status === 429);
    check(served.length === 8 && refused.length === 25, `8 streams served, 25 refused (${served.length}, ${refused.length})`);
    const slowest = Math.max(...refused.map((x) => x.ms));
    check(slowest < 10000, `the refusals come at once (slowest ${slowest} ms)`);
    await ownerPlays(s, '8 event streams open');
    await waitFor(() => served.every((x) => x.events.some((e) => e.kind === 'move')), 30000, 'every open stream saw the move');
    check(true, 'every open stream saw the move');
    served[0].close();
    served[1].close();
    const again = await waitFor(async () => {
      const x = await eventStream(s);
      if (x.status === 200) return x;
      return null;
    }, 30000, 'a new stream once two closed');
    check(again.status === 200, 'a stream closed frees its place');
    check(alive(s), 'the studio is still running');
    await stopTimed(s, 'with 8 event streams open');
  },

  // A bot with a budget of 10^7 MCTS iterations must move first: the calls are answered while
  // it thinks, a human move is refused until it has moved, Cancel stops it (the table as it
  // was, the page told by the event stream), and another bot for the seat then plays.
  async bot_cancel() {
    const s = await startStudio([...SAVANE, '--bots', `human,${HUGE_MCTS}`]);
    const events = await eventStream(s);
    const start = await table(s);
    check(start.bot && start.bot.state === 'thinking' && start.bot.seat === 1, `the bot is thinking (${JSON.stringify(start.bot)})`);
    for (let i = 0; i < 5; i++) {
      const r = await get(s, '/api/state');
      check(r.status === 200 && r.json.bot.state === 'thinking', `the table is served while the bot thinks (${r.ms} ms)`);
    }
    let r = await post(s, '/api/move', { seat: 0, index: 0, version: start.version });
    check(r.status === 409 && /must move first: it is thinking/.test(r.json.error), `a human move waits for the bot (${r.json.error})`);
    r = await post(s, '/api/bots/cancel', {});
    check(r.status === 200, `Cancel is answered (${r.ms} ms)`);
    const cancelled = await table(s);
    check(cancelled.bot.state === 'cancelled' && sameTable(cancelled, start), `the bot is cancelled and the table is as it was (${cancelled.bot.error})`);
    await waitFor(() => events.events.some((e) => e.kind === 'bot' && e.state === 'cancelled'), 10000, 'the cancel on the event stream');
    check(events.events.some((e) => e.table && e.table.bot && e.table.bot.state === 'thinking'), 'the event stream told the page the bot was thinking');
    check(true, 'the event stream told the page it was cancelled');
    await sleep(1000);
    check(sameTable(await table(s), start), 'a second later the cancelled bot has not moved');
    r = await post(s, '/api/bots/cancel', {});
    check(r.status === 409 && /no bot is thinking/.test(r.json.error), `Cancel with no bot thinking: 409 (${r.json.error})`);
    // A seat change to another huge budget answers at once too; the bot thinks again.
    r = await post(s, '/api/seats', { seats: ['human', 'mcts:iters=9000000'] });
    const again = await table(s);
    check(r.status === 200 && r.ms < 20000 && again.bot.state === 'thinking' && again.bot.controller === 'mcts:iters=9000000',
      `a seat change to a huge MCTS budget is answered without waiting for it (${r.ms} ms), and it thinks`);
    r = await post(s, '/api/seats', { seats: ['human', 'greedy'] });
    check(r.status === 200, 'the seat is given to another bot while the first thinks');
    const after = await settled(s);
    check(!after.bot && after.moves_total === start.moves_total + 1, `the greedy bot played its move (${after.moves_total} moves)`);
    check(alive(s), 'the studio is still running');
    await stopTimed(s, 'after a cancelled bot');
  },

  // SIGTERM while the bot thinks with a budget of 10^7 iterations.
  async bot_sigterm() {
    const s = await startStudio([...SAVANE, '--bots', `human,${HUGE_MCTS}`]);
    const t = await table(s);
    check(t.bot && t.bot.state === 'thinking', 'the bot is thinking');
    await sleep(500);
    await stopTimed(s, 'while a bot thinks');
  },

  // A human move hands the turn to a bot with a huge budget: the move's call answers at once,
  // the bot thinks on its own, and Undo takes the move back (stopping the bot).
  async move_then_bot() {
    const s = await startStudio(['safari', '--players', '2', '--bots', `human,${HUGE_MCTS}`]);
    let before = await settled(s);
    check(!before.bot && before.legal.length === 1 && before.legal[0].seat === 0, 'the human moves first');
    // Safari's turn is a tile, then maybe a piece: the human plays until the bot's turn.
    let thinking = null;
    for (let i = 0; i < 5 && !thinking; i++) {
      const r = await post(s, '/api/move', { seat: 0, index: 0, version: before.version });
      check(r.status === 200 && r.ms < 20000, `the human's move is answered without waiting for any bot (${r.ms} ms)`);
      const t = await table(s);
      if (t.bot) thinking = t;
      else before = t;
    }
    check(thinking && thinking.bot.state === 'thinking' && thinking.legal.length === 0, 'the bot thinks; no human move is listed meanwhile');
    let r = await post(s, '/api/move', { seat: 0, index: 0, version: thinking.version });
    check(r.status === 409, `another human move is refused while the bot must move (${r.json.error})`);
    r = await get(s, '/api/state');
    check(r.status === 200 && r.json.bot.state === 'thinking', `the table is served while it thinks (${r.ms} ms)`);
    r = await post(s, '/api/undo', {});
    check(r.status === 200, `Undo is answered while the bot thinks (${r.ms} ms)`);
    const back = await table(s);
    check(!back.bot && back.hash === before.hash && back.moves_total === before.moves_total,
      `Undo takes the human's last move back and the bot stops (${back.moves_total} moves)`);
    await sleep(1000);
    check((await table(s)).moves_total === back.moves_total, 'a second later no bot has moved');
    check(alive(s), 'the studio is still running');
    await stopTimed(s, 'after an undone bot turn');
  },

  // SIGTERM with everything at once: a bot thinking with a huge budget, a simulation of huge
  // MCTS bots, 8 event streams and 20 slow clients.
  async busy_sigterm() {
    const s = await startStudio([...SAVANE, '--bots', `human,${HUGE_MCTS}`]);
    let r = await post(s, '/api/simulate', { n: 100000, bots: HUGE_MCTS });
    check(r.status === 200, 'a simulation of huge MCTS bots starts');
    const streams = await Promise.all(Array.from({ length: 8 }, () => eventStream(s)));
    check(streams.every((x) => x.status === 200), '8 event streams are open');
    for (let i = 0; i < 20; i++) await slowClient(s, '/api/state', 100);
    r = await get(s, '/api/simulate');
    check(r.status === 200 && r.json.state === 'running', `the simulation runs (${r.ms} ms)`);
    check((await table(s)).bot.state === 'thinking', 'the bot thinks');
    await sleep(1000);
    await stopTimed(s, 'with a bot thinking, a simulation running, 8 streams and 20 slow clients');
  },

  // A field of the wrong type, for every call and field: 400 naming its JSON path, and the
  // studio lives; the table, the simulation and the disk are as they were.
  async wrong_types() {
    const s = await startStudio([...SAVANE, '--bots', 'human,greedy']);
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'plateau-hostile-types-'));
    const base = await settled(s);
    const v = base.version;
    const cases = [
      ['/api/simulate', { rotate_seats: 'yes' }, /simulate: at \/rotate_seats: expected true or false, got "yes"/],
      ['/api/simulate', { n: '100' }, /at \/n: expected the number of games/],
      ['/api/simulate', { bots: 3 }, /at \/bots: expected bots/],
      ['/api/simulate', { players: 1.5 }, /at \/players: expected an integer, got 1.5/],
      ['/api/simulate', { seed: 'one' }, /at \/seed: expected a seed/],
      ['/api/simulate', { max_rounds: [] }, /at \/max_rounds: expected/],
      ['/api/simulate', { sweep: 'hand_size' }, /at \/sweep: expected a sweep/],
      ['/api/simulate', { sweep: { name: 3, values: [1] } }, /at \/sweep\/name: expected/],
      ['/api/simulate', { sweep: { name: 'hand_size', values: [10, { x: 1 }] } }, /at \/sweep\/values\/1: expected a number, a string or true\/false/],
      ['/api/simulate', { sweep: { name: 'hand_size', values: [10], step: 1 } }, /at \/sweep\/step: not a field of this call/],
      ['/api/move', { seat: '0', index: 0, version: v }, /move: at \/seat: expected the seat/],
      ['/api/move', { seat: 0, index: true, version: v }, /at \/index: expected the index/],
      ['/api/move', { seat: 0, index: 0, version: null }, /at \/version: expected the version/],
      ['/api/move', { seat: 0, index: 0 }, /at \/version: missing/],
      ['/api/move', { seat: 0, index: 0, version: v, why: 'x' }, /at \/why: not a field of this call \(it takes: index, seat, version\)/],
      ['/api/new', { players: '2' }, /new: at \/players: expected the number of players/],
      ['/api/new', { seed: -1 }, /at \/seed: expected a seed/],
      ['/api/seats', { seats: 'human,greedy' }, /seats: at \/seats: expected a list of 1 to 64/],
      ['/api/seats', { seats: ['human', 2] }, /at \/seats\/1: expected 'human' or a bot/],
      ['/api/save', { path: 5 }, /save: at \/path: expected a file name/],
      ['/api/save', { path: `${tmp}/a\u0000.json` }, /at \/path: .*without NUL/],
      ['/api/load', { path: null }, /load: at \/path: expected/],
      ['/api/compare', { before: [], after: 'x.json' }, /compare: at \/before: expected the path of a report file/],
      ['/api/undo', { all: true }, /undo: at \/all: not a field of this call \(it takes none\)/],
      ['/api/bots/cancel', { seat: 1 }, /at \/seat: not a field/],
      ['/api/simulate/cancel', { now: 1 }, /at \/now: not a field/],
      ['/api/move', [0, 0, v], /move: the request body must be a JSON object/],
    ];
    for (const [p, body, want] of cases) {
      const r = await post(s, p, body);
      check(r.status === 400 && r.json && want.test(r.json.error), `${p} ${JSON.stringify(body)}: 400 (${r.json && r.json.error})`);
    }
    check(alive(s), 'the studio is still running');
    const after = await table(s);
    check(sameTable(after, base), 'the table is as it was');
    const sim = await get(s, '/api/simulate');
    check(sim.json.state === 'idle', 'no simulation was started');
    check(fs.readdirSync(tmp).length === 0, 'no file was written');
    // The studio still works: a valid simulation runs to its end.
    const r = await post(s, '/api/simulate', { n: 4, rotate_seats: true });
    check(r.status === 200, 'a simulation with the fields right starts');
    await waitFor(async () => (await get(s, '/api/simulate')).json.state === 'done', 120000, 'the simulation is done');
    check(true, 'and runs to its end');
    fs.rmSync(tmp, { recursive: true, force: true });
    await stopTimed(s, 'after the wrong types');
  },

  // Numbers past the field's range, or past what an int holds (2^32, 2^63, 2^64, 1e308):
  // refused naming the field, never read wrapped (2^32 seats as 0).
  async oversized_numbers() {
    const s = await startStudio([...SAVANE, '--bots', 'human,greedy']);
    const base = await settled(s);
    const v = base.version;
    const body = [
      ['/api/move', `{"seat": 4294967296, "index": 0, "version": ${v}}`, /at \/seat: 4294967296 outside 0\.\.63/],
      ['/api/move', `{"seat": 0, "index": 4294967296, "version": ${v}}`, /at \/index: 4294967296 outside 0\.\.2147483647/],
      ['/api/move', `{"seat": 0, "index": 0, "version": 18446744073709551615}`, /at \/version: 18446744073709551615 outside/],
      ['/api/move', `{"seat": -4294967296, "index": 0, "version": ${v}}`, /at \/seat: -4294967296 outside/],
      ['/api/new', '{"players": 4294967298}', /at \/players: 4294967298 outside 0\.\.64/],
      ['/api/new', '{"seed": 18446744073709551616}', /at \/seed: expected a seed/],
      ['/api/new', '{"seed": 1e308}', /at \/seed: expected a seed/],
      ['/api/simulate', '{"n": 4294967396}', /at \/n: 4294967396 outside 1\.\.100000 \(the number of games: the studio runs at most 100000/],
      ['/api/simulate', '{"n": 1e308}', /at \/n: 1e\+308 outside/],
      ['/api/simulate', '{"max_rounds": 2147483648}', /at \/max_rounds: 2147483648 outside 0\.\.1000000/],
      ['/api/simulate', '{"players": 9223372036854775808}', /at \/players: 9223372036854775808 outside/],
      ['/api/seats', JSON.stringify({ seats: Array(65).fill('human') }), /at \/seats: expected a list of 1 to 64 .*got 65 entries/],
      ['/api/seats', JSON.stringify({ seats: ['x'.repeat(201)] }), /at \/seats\/0: .* of at most 200 bytes/],
      ['/api/simulate', JSON.stringify({ sweep: { name: 'hand_size', values: Array(51).fill(1) } }), /at \/sweep\/values: expected a list of 1 to 50/],
      ['/api/save', JSON.stringify({ path: 'x'.repeat(5000) + '.json' }), /at \/path: .* of at most 4096 bytes/],
    ];
    for (const [p, text, want] of body) {
      const r = await post(s, p, text);
      check(r.status === 400 && r.json && want.test(r.json.error), `${p} ${text.slice(0, 70)}: 400 (${r.json && r.json.error})`);
    }
    const query = [
      ['&seat=4294967297', /state: at \?seat: 4294967297 outside 1\.\.64/],
      ['&at=99999999999999', /at \?at: 99999999999999 outside 0\.\.10000000/],
      ['&at=999999999999999999999', /at \?at: expected a move number/],
    ];
    for (const [q, want] of query) {
      const r = await get(s, '/api/state', q);
      check(r.status === 400 && want.test(r.json.error), `/api/state${q}: 400 (${r.json.error})`);
    }
    check(alive(s), 'the studio is still running');
    check(sameTable(await table(s), base), 'the table is as it was');
    check((await get(s, '/api/simulate')).json.state === 'idle', 'no simulation was started');
    await stopTimed(s, 'after the oversized numbers');
  },

  // The query's parameters through the same reader: wrong types, repeats, unknown names.
  async bad_queries() {
    const s = await startStudio([...SAVANE, '--bots', 'human,greedy']);
    const base = await settled(s);
    const cases = [
      ['GET', '/api/state', '&at=x', 400, /state: at \?at: expected a move number, 0 or more, got "x"/],
      ['GET', '/api/state', '&seat=-1', 400, /at \?seat: expected a seat number/],
      ['GET', '/api/state', '&seat=0', 400, /at \?seat: 0 outside 1\.\.64 \(a seat number, from 1 to 64 \(seats are numbered from 1\)\)/],
      ['GET', '/api/state', '&at=1&at=2', 400, /at \?at: given twice/],
      ['GET', '/api/game', '&lang=fr', 400, /game: at \?lang: not a field of this call \(it takes none\)/],
      ['GET', '/api/simulate', '&n=5', 400, /at \?n: not a field/],
      ['GET', '/api/events', '&since=3', 400, /events: at \?since: not a field/],
      ['POST', '/api/undo', '&seat=1', 400, /undo: at \?seat: not a field/],
      ['GET', '/api/state', `&token=${'0'.repeat(s.token.length)}`, 403, /token/],  // the right token and a wrong one
    ];
    for (const [method, p, q, status, want] of cases) {
      const r = method === 'GET' ? await get(s, p, q) : await post(s, p, {}, q);
      check(r.status === status && want.test(r.json.error), `${method} ${p}${q}: ${status} (${r.json.error})`);
    }
    check(alive(s), 'the studio is still running');
    check(sameTable(await table(s), base), 'the table is as it was');
    await stopTimed(s, 'after the bad queries');
  },

  // Requests that never end or are too big: a body that stalls is answered 408 at its
  // deadline while the owner is served; a claimed gigabyte body is refused (413) before any of
  // it is read; a chunked body past 64 KiB (413), an encoding other than chunked (400), a
  // 20 KB head (431) and a Content-Length that is not a number (400) at once; a small chunked
  // body is read.
  async endless_requests() {
    const s = await startStudio([...SAVANE, '--bots', 'human,greedy']);
    const base = await settled(s);
    const head = (extra, call = 'undo') => `POST /api/${call}?token=${s.token} HTTP/1.1\r\nHost: 127.0.0.1:${s.port}\r\nContent-Type: application/json\r\n${extra}\r\n`;
    const stalled = [];
    for (let i = 0; i < 20; i++) {
      const c = await connect(s);
      c.write(head('Content-Length: 60000\r\n') + '{"pad": "');
      stalled.push(c);
    }
    await ownerPlays(s, '20 stalled bodies');
    const played = await settled(s);
    const t0 = Date.now();
    const once = async (text) => {
      const c = await connect(s);
      const start = Date.now();
      c.write(text);
      await waitFor(() => c.received.length > 0 || c.closedAt !== null, 15000, 'an answer');
      return { text: c.received, ms: Date.now() - start };
    };
    let a = await once(head('Content-Length: 1000000000\r\n'));
    check(/^HTTP\/1\.1 413/.test(a.text) && /64 KiB/.test(a.text), `a claimed 1 GB body: 413 before it is sent (${a.ms} ms)`);
    a = await once(head('Transfer-Encoding: chunked\r\n') + '10000\r\n' + 'z'.repeat(0x10000) + '\r\n1\r\nz\r\n');
    check(/^HTTP\/1\.1 413/.test(a.text), `a chunked body past 64 KiB: 413 (${a.ms} ms)`);
    a = await once(head('Transfer-Encoding: gzip\r\n'));
    check(/^HTTP\/1\.1 400/.test(a.text) && /only chunked/.test(a.text), `a body in an encoding the studio does not read: 400 (${a.ms} ms)`);
    a = await once(head('Transfer-Encoding: chunked\r\n', 'simulate/cancel') + '2\r\n{}\r\n0\r\n\r\n');
    check(/^HTTP\/1\.1 200/.test(a.text), `a small chunked body is read and answered (${a.ms} ms)`);
    a = await once(head('X-Big: ' + 'y'.repeat(20000) + '\r\n'));
    check(/^HTTP\/1\.1 431/.test(a.text), `a 20 KB head: 431 (${a.ms} ms)`);
    a = await once(head('Content-Length: 12abc\r\n'));
    check(/^HTTP\/1\.1 400/.test(a.text), `a Content-Length that is not a number: 400 (${a.ms} ms)`);
    await waitFor(() => stalled.every((c) => c.closedAt !== null), 40000, 'the stalled bodies were closed');
    check(stalled.every((c) => /^HTTP\/1\.1 408/.test(c.received)), `each stalled body was answered 408 and closed (${Date.now() - t0} ms after)`);
    check(sameTable(await table(s), played), 'no stalled undo was played: the table is as the owner left it');
    check(played.moves_total > base.moves_total, 'the owner\'s move is on it');
    check(alive(s), 'the studio is still running');
    await stopTimed(s, 'after the endless requests');
  },

  // Files that block: a save onto a FIFO and a load from one are refused at once; a save
  // beside a FIFO named like a temporary file is written (the one writer makes its own fresh
  // temporary file) and the FIFO left alone; the table is served throughout (the disk is
  // touched outside the session's lock).
  async blocking_files() {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'plateau-hostile-fifo-'));
    const s = await startStudio([...SAVANE, '--bots', 'human,greedy']);
    try {
      await settled(s);
      const fifo = path.join(tmp, 'pipe.json');
      execFileSync('mkfifo', [fifo]);
      let r = await post(s, '/api/save', { path: fifo });
      check(r.status === 400 && /not a saved game/.test(r.json.error), `a save onto a FIFO: refused (${r.ms} ms: ${r.json.error})`);
      r = await post(s, '/api/load', { path: fifo });
      check(r.status === 400 && /not a regular file/.test(r.json.error), `a load from a FIFO: refused (${r.ms} ms: ${r.json.error})`);
      const target = path.join(tmp, 'game.json');
      execFileSync('mkfifo', [`${target}.tmp`]);
      const pending = post(s, '/api/save', { path: target });
      await ownerPlays(s, 'a save beside a FIFO');
      r = await Promise.race([pending, sleep(30000).then(() => null)]);
      check(r && r.status === 200 && JSON.parse(fs.readFileSync(target, 'utf8')).log, `the save beside the FIFO is written (${r && r.status})`);
      check(fs.statSync(fifo).isFIFO() && fs.statSync(`${target}.tmp`).isFIFO(), 'the FIFOs are still FIFOs');
      check(alive(s), 'the studio is still running');
      await stopTimed(s, 'after the FIFOs');
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  },

  // An event stream whose client stops reading while the table changes again and again (new
  // games of two bots): the studio's write to it waits (at most 5 s each), the owner is served
  // meanwhile, and SIGTERM still ends the process within the bound (printed: whether the stop
  // had to cut the waiting write, which depends on the socket buffers' size).
  async stuck_reader() {
    const s = await startStudio([...SAVANE, '--bots', 'greedy,greedy']);
    await settled(s);
    const stuck = await new Promise((resolve) => {
      const req = http.get({ host: '127.0.0.1', port: s.port, path: `/api/events?token=${s.token}`, agent: false,
        headers: { Host: `127.0.0.1:${s.port}` } }, (res) => { res.pause(); resolve({ status: res.statusCode, res }); });
      req.on('error', () => resolve({ status: 0 }));
    });
    check(stuck.status === 200, 'a stream is open, and its client reads no more');
    for (let i = 0; i < 20; i++) {
      const r = await post(s, '/api/new', { seed: i + 2 });
      check(r.status === 200, `new game ${i + 1}: answered (${r.ms} ms)`);
      const t = await settled(s);
      check(t.over, `... and played to its end by the bots (${t.moves_total} moves)`);
    }
    const r = await get(s, '/api/state');
    check(r.status === 200, `the owner is served (${r.ms} ms)`);
    await stopTimed(s, 'with a stream that reads nothing');
    console.log(`   (${/still running/.test(s.stderr()) ? 'the stop cut a call still running' : 'every call had ended when it stopped'})`);
  },
};

if (!cases[which]) fail(`no case '${which}' (${Object.keys(cases).join(', ')})`);
fs.mkdirSync(outDir, { recursive: true });
try {
  await cases[which]();
  console.log(`PASS studio.hostile_${which}`);
  cleanupAll();
  process.exit(0);
} catch (e) {
  fail(e.stack || e.message);
}
