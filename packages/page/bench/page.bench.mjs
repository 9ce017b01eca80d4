// Benchmark of issue 33: the booking page's budgets on the demo data.
//
// 1. First load of /@alice/intro: its HTML, style sheet and script, each
//    asked for with `Accept-Encoding: br, gzip`, at most 60 KB transferred
//    (response status lines, headers and compressed bodies, counted on the
//    socket); nothing the page refers to is on another origin; GET
//    /@alice/intro answers in at most 15 ms at the median.
// 2. A month or day change with the script on: one `fragment=1` request of
//    at most 8 KB transferred, answered in at most 10 ms at the median.
//
// The server is `schedule serve --demo` in its own process. The demo allows
// 30 anonymous page requests a minute per address; the bench measures the
// page, not the limiter, so it runs the server with TRUST_PROXY=1 and gives
// every timed request its own X-Forwarded-For address: the limiter still
// runs on each request (a fresh bucket each time), it never refuses.
// Times are measured by the client on loopback, request written to last byte
// read, sequential on one kept-alive connection: an upper bound on the
// server's time. The floors, timed in the same run, interleaved with the
// page: a bare node:http server answering the very bytes and headers the page
// answered (floor-server.mjs), and GET /healthz on the same server.
import { rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { percentiles, writeReport } from '../../core/bench/support.mjs';
import { startProcess } from '../../http/bench/support.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../../..');
// BENCH_SCHEDULE_BIN runs another build (an older commit's) under the same load, for before/after.
const bin = process.env.BENCH_SCHEDULE_BIN ?? resolve(root, 'packages/cli/dist/bin.js');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 500);
const PAGE = '/@alice/intro';

/** The budgets; never raised to make a run pass. */
const BUDGET = {
  firstLoadBytes: 60 * 1024,
  pageP50Ms: 15,
  fragmentBytes: 8 * 1024,
  fragmentP50Ms: 10,
};

const ENCODINGS = { 'accept-encoding': 'br, gzip' };
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

/**
 * One GET on the kept-alive connection: status, headers, body, the time from
 * sending to the last byte, and the bytes the socket read for it (status
 * line, headers and body as they travelled).
 */
function get(base, path, headers = {}) {
  return new Promise((resolveGet, reject) => {
    const started = performance.now();
    let readBefore = 0;
    let socket;
    const req = request(new URL(path, base), { agent, headers }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () =>
        resolveGet({
          status: res.statusCode,
          headers: res.headers,
          body: Buffer.concat(chunks),
          ms: performance.now() - started,
          received: socket.bytesRead - readBefore,
        }),
      );
      res.on('error', reject);
    });
    req.on('socket', (s) => {
      socket = s;
      readBefore = s.bytesRead;
    });
    req.on('error', reject);
    req.end();
  });
}

/** A GET that must answer 200, else the bench stops. */
async function ok(base, path, headers) {
  const res = await get(base, path, headers);
  if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${res.body.toString('utf8').slice(0, 300)}`);
  return res;
}

let address = 0;
/** A fresh client address for each timed page request, so the demo's 30-a-minute limit never answers 429. */
const fresh = () => {
  address++;
  return { ...ENCODINGS, 'x-forwarded-for': `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}` };
};

const attribute = (text) => text.replaceAll('&amp;', '&').replaceAll('&quot;', '"');

/** Every URL the page's markup refers to (href, src, action), unescaped. */
function referencesOf(page) {
  return [...page.matchAll(/\s(?:href|src|action)="([^"]*)"/g)].map((m) => attribute(m[1]));
}

const schedule = await startProcess([bin, 'serve', '--demo', '--workspace', resolve(root, 'demo/workspace.json'), '--port', '0'], {
  TRUST_PROXY: '1',
});
const floorFile = join(tmpdir(), `schedule-page-floor-${process.pid}.json`);
let floor;
try {
  // 1. The first load: the page and the two files it names, as a browser asks.
  const html = await ok(schedule.url, PAGE, fresh());
  const text = (await ok(schedule.url, PAGE, { ...fresh(), 'accept-encoding': 'identity' })).body.toString('utf8');
  // Every style sheet and script the page names, fetched as a browser would; one on another origin breaks the budget, unfetched.
  const origin = new URL(schedule.url).origin;
  const foreign = referencesOf(text).filter((ref) => new URL(ref, schedule.url).origin !== origin);
  const files = [...text.matchAll(/<link rel="stylesheet" href="([^"]+)">|<script src="([^"]+)"/g)]
    .map((m) => attribute(m[1] ?? m[2]))
    .filter((ref) => new URL(ref, schedule.url).origin === origin);
  const css = files.find((ref) => ref.endsWith('.css'));
  const js = files.find((ref) => ref.endsWith('.js'));
  if (!css || !js || files.length !== 2) throw new Error(`the page names ${files.join(', ')}: not one style sheet and one script`);
  const cssRes = await ok(schedule.url, css, ENCODINGS);
  const jsRes = await ok(schedule.url, js, ENCODINGS);

  // 2. The links a visitor follows with the script on: the next month and another free day.
  const nextMonth = /<a class="nav" data-nav href="([^"]+)" aria-label="Next month">/.exec(text)?.[1];
  if (!nextMonth) throw new Error('the page shows no next month');
  // A free day other than the one chosen: this month's, else the next month's.
  const freeDay = (markup) => /<a class="day free" data-nav href="([^"]+)"/.exec(markup)?.[1];
  const otherDay =
    freeDay(text) ??
    freeDay((await ok(schedule.url, attribute(nextMonth), { ...fresh(), 'accept-encoding': 'identity' })).body.toString('utf8'));
  if (!otherDay) throw new Error('the page shows no second free day');
  const fragments = {
    month: `${attribute(nextMonth)}&fragment=1`,
    day: `${attribute(otherDay)}&fragment=1`,
  };
  const monthRes = await ok(schedule.url, fragments.month, fresh());
  const dayRes = await ok(schedule.url, fragments.day, fresh());
  for (const [name, res] of [
    ['month', monthRes],
    ['day', dayRes],
  ]) {
    if (res.headers['content-encoding'] !== 'br') throw new Error(`the ${name} fragment came ${res.headers['content-encoding']}, not br`);
  }

  // The floor answers each measured path with the page's very bytes and headers.
  const kept = (headers) =>
    Object.fromEntries(Object.entries(headers).filter(([name]) => !['date', 'connection', 'keep-alive'].includes(name)));
  const answers = Object.fromEntries(
    [
      [PAGE, html],
      [fragments.month, monthRes],
      [fragments.day, dayRes],
    ].map(([path, res]) => [path, { headers: kept(res.headers), body_base64: res.body.toString('base64') }]),
  );
  writeFileSync(floorFile, JSON.stringify(answers));
  floor = await startProcess([resolve(here, 'floor-server.mjs'), floorFile]);

  /** Times `path` on the page and on the floor, and GET /healthz, in turn, `ROUNDS` times after 50 warm-up rounds. */
  async function timed(path) {
    const samples = { page: [], floor: [], healthz: [] };
    for (let i = 0; i < 50 + ROUNDS; i++) {
      const page = await ok(schedule.url, path, fresh());
      const bare = await ok(floor.url, path, fresh());
      const health = await ok(schedule.url, '/healthz', fresh());
      if (i < 50) continue;
      samples.page.push(page.ms);
      samples.floor.push(bare.ms);
      samples.healthz.push(health.ms);
    }
    const page = percentiles(samples.page);
    const bare = percentiles(samples.floor);
    const health = percentiles(samples.healthz);
    return {
      page,
      floor_same_bytes: bare,
      floor_healthz: health,
      ratio_p50_to_floor: Math.round((page.p50Ms / bare.p50Ms) * 100) / 100,
      ratio_p50_to_healthz: Math.round((page.p50Ms / health.p50Ms) * 100) / 100,
    };
  }
  const pageTime = await timed(PAGE);
  const monthTime = await timed(fragments.month);
  const dayTime = await timed(fragments.day);

  const firstLoad = {
    html: {
      received: html.received,
      body: html.body.length,
      encoding: html.headers['content-encoding'],
      identity: Buffer.byteLength(text),
    },
    css: { received: cssRes.received, body: cssRes.body.length, encoding: cssRes.headers['content-encoding'] },
    js: { received: jsRes.received, body: jsRes.body.length, encoding: jsRes.headers['content-encoding'] },
  };
  const firstLoadBytes = html.received + cssRes.received + jsRes.received;
  const report = {
    benchmark: 'booking page /@alice/intro on the demo data (issue 33): bytes of a first load and of a month/day change, server time',
    rounds: ROUNDS,
    rate_limit: 'demo workspace as shipped; TRUST_PROXY=1 and a fresh X-Forwarded-For per timed request',
    first_load: { ...firstLoad, total_received: firstLoadBytes, budget: BUDGET.firstLoadBytes, foreign_references: foreign },
    get_page_ms: { ...pageTime, budget_p50: BUDGET.pageP50Ms },
    month_change: {
      path: fragments.month,
      received: monthRes.received,
      body: monthRes.body.length,
      ...monthTime,
      budget_bytes: BUDGET.fragmentBytes,
      budget_p50: BUDGET.fragmentP50Ms,
    },
    day_change: {
      path: fragments.day,
      received: dayRes.received,
      body: dayRes.body.length,
      ...dayTime,
      budget_bytes: BUDGET.fragmentBytes,
      budget_p50: BUDGET.fragmentP50Ms,
    },
  };
  writeReport('page', report);

  const broken = [
    firstLoadBytes > BUDGET.firstLoadBytes && `first load ${firstLoadBytes} B > ${BUDGET.firstLoadBytes} B`,
    foreign.length > 0 && `the page refers to other origins: ${foreign.join(', ')}`,
    pageTime.page.p50Ms > BUDGET.pageP50Ms && `GET ${PAGE} p50 ${pageTime.page.p50Ms} ms > ${BUDGET.pageP50Ms} ms`,
    monthRes.received > BUDGET.fragmentBytes && `month change ${monthRes.received} B > ${BUDGET.fragmentBytes} B`,
    dayRes.received > BUDGET.fragmentBytes && `day change ${dayRes.received} B > ${BUDGET.fragmentBytes} B`,
    monthTime.page.p50Ms > BUDGET.fragmentP50Ms && `month change p50 ${monthTime.page.p50Ms} ms > ${BUDGET.fragmentP50Ms} ms`,
    dayTime.page.p50Ms > BUDGET.fragmentP50Ms && `day change p50 ${dayTime.page.p50Ms} ms > ${BUDGET.fragmentP50Ms} ms`,
  ].filter(Boolean);
  process.stdout.write(
    `page: first load ${firstLoadBytes} B (budget ${BUDGET.firstLoadBytes}); GET ${PAGE} p50 ${pageTime.page.p50Ms} ms ` +
      `(floor ${pageTime.floor_same_bytes.p50Ms} ms, x${pageTime.ratio_p50_to_floor}; budget ${BUDGET.pageP50Ms}); ` +
      `month change ${monthRes.received} B p50 ${monthTime.page.p50Ms} ms, day change ${dayRes.received} B p50 ${dayTime.page.p50Ms} ms ` +
      `(budgets ${BUDGET.fragmentBytes} B, ${BUDGET.fragmentP50Ms} ms)\n`,
  );
  if (broken.length > 0) {
    process.stdout.write(`page: budget broken: ${broken.join('; ')}\n`);
    process.exitCode = 1;
  }
} finally {
  agent.destroy();
  await Promise.all([schedule.stop(), floor?.stop()]);
  rmSync(floorFile, { force: true });
}
