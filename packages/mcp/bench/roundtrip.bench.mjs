// Benchmark of issue 5: round-trip latency of check_slot and create_booking
// over the MCP stdio transport (the real `schedule mcp` binary, driven by the
// SDK's Client), beside the same operations over the HTTP API (the real
// `schedule serve`, driven by undici with keep-alive) in the same run. Calls
// go one at a time, so each sample is one whole round trip. Each server has
// its own SQLite file loaded from the same workspace.
// Build first: `npx turbo run build`.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Agent, request } from 'undici';

const here = dirname(fileURLToPath(import.meta.url));
const bin = resolve(here, '../../cli/dist/bin.js');
const CALLS = Number(process.env.BENCH_CALLS ?? 300);
const secret = 'pat_bench_mcp_0123456789';
const eventTypeId = '7e57a1a0-0000-4000-8000-0000000000d1';
const QUARTER = 15 * 60_000;
const firstSlot = Math.ceil(Date.now() / 86_400_000) * 86_400_000 + 86_400_000;

const dir = mkdtempSync(join(tmpdir(), 'schedule-bench-mcp-'));
const workspace = join(dir, 'workspace.json');
writeFileSync(
  workspace,
  JSON.stringify({
    limits: { pat_per_minute: 100_000_000, oauth_per_minute: 100_000_000, anonymous_per_minute: 100_000_000 },
    users: [{ username: 'host', email: 'host@bench.test', role: 'owner', timezone: 'UTC' }],
    event_types: [
      {
        id: eventTypeId,
        owner: 'host',
        slug: 'call',
        name: 'Call',
        duration_minutes: 15,
        slot_interval_minutes: 15,
        future_limit_days: 3650,
      },
    ],
    tokens: [{ name: 'bench', user: 'host', secret, scopes: ['bookings:create', 'slots:read'] }],
  }),
);
const env = { ...process.env, LOG_LEVEL: 'warn', MAIL_DISPATCH_MS: '3600000' };

function summary(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] * 1000) / 1000;
  return { p50Ms: at(50), p90Ms: at(90), p99Ms: at(99), n: samples.length };
}

async function timed(count, call) {
  for (let i = 0; i < 20; i++) await call(i, true); // warm-up
  const samples = [];
  for (let i = 0; i < count; i++) {
    const t = performance.now();
    await call(i, false);
    samples.push(performance.now() - t);
  }
  return summary(samples);
}

const slotOf = (i, warm) => new Date(firstSlot + (warm ? 100_000 + i : i) * QUARTER).toISOString();

// 1. MCP over stdio.
const transport = new StdioClientTransport({
  command: process.execPath,
  args: [bin, 'mcp', '--workspace', workspace, '--db', join(dir, 'mcp.db')],
  env: { ...env, SCHEDULE_TOKEN: secret },
  stderr: 'ignore',
});
const client = new Client({ name: 'bench', version: '1.0.0' });
await client.connect(transport);
async function tool(name, args) {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.structuredContent)}`);
  return result;
}
const mcpCheck = await timed(CALLS, (i) => tool('check_slot', { event_type_id: eventTypeId, start: slotOf(i % 96, false) }));
const mcpCreate = await timed(CALLS, (i, warm) =>
  tool('create_booking', { event_type_id: eventTypeId, start: slotOf(i, warm), attendee: { email: `g${i}@example.com`, name: `G ${i}` } }),
);
// Issue 36: booking in two calls, the first free time of a day far ahead (each booked one moves the next on;
// a day has 96 starts, so every 90 calls take the next day).
const dayOf = (first, i, warm) =>
  new Date(firstSlot + (first + (warm ? 0 : 1 + Math.floor(i / 90))) * 86_400_000).toISOString().slice(0, 10);
const bookTwoCalls = async (call, i, warm) => {
  const day = dayOf(200, i, warm);
  const found = await call('find_times', { event_type: 'call', from: day, to: day, count: 1 });
  const option = found.options[0];
  await call('book_time', { option_id: option.option_id, attendee: { email: `t${i}@example.com`, name: `T ${i}` } });
};
const mcpTwoCall = await timed(CALLS, (i, warm) => bookTwoCalls(async (name, args) => (await tool(name, args)).structuredContent, i, warm));
await client.close();

// 2. The HTTP API.
const server = spawn(process.execPath, [bin, 'serve', '--workspace', workspace, '--db', join(dir, 'http.db'), '--port', '0'], {
  env,
  stdio: ['ignore', 'pipe', 'ignore'],
});
const url = await new Promise((done, fail) => {
  let out = '';
  server.stdout.on('data', (chunk) => {
    out += chunk;
    const m = /listening on (http:\/\/\S+)/.exec(out);
    if (m) done(m[1]);
  });
  server.once('exit', (code) => fail(new Error(`serve exited ${code}`)));
});
const dispatcher = new Agent({ connections: 1 });
async function http(method, path, body, key) {
  const res = await request(`${url}${path}`, {
    method,
    dispatcher,
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.body.text();
  if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${text}`);
  return text;
}
const httpCheck = await timed(CALLS, (i) =>
  http('GET', `/v1/slots/check?event_type_id=${eventTypeId}&start=${encodeURIComponent(slotOf(i % 96, false))}`),
);
const httpCreate = await timed(CALLS, (i, warm) =>
  http(
    'POST',
    '/v1/bookings',
    { event_type_id: eventTypeId, start: slotOf(i, warm), attendee: { email: `g${i}@example.com`, name: `G ${i}` } },
    `bench-${warm ? 'w' : ''}${i}`,
  ),
);
const httpTwoCall = await timed(CALLS, async (i, warm) => {
  const day = dayOf(300, i, warm);
  const found = JSON.parse(
    await http('POST', '/v1/times/find', { event_type: 'call', from: day, to: day, count: 1 }, `f-${warm ? 'w' : ''}${i}`),
  ).data;
  await http(
    'POST',
    '/v1/times/book',
    { option_id: found.options[0].option_id, attendee: { email: `t${i}@example.com`, name: `T ${i}` } },
    `b-${warm ? 'w' : ''}${i}`,
  );
});
// What a Streamable HTTP request to /mcp costs before any tool runs: a server is built for each, every tool the token may call
// registered; tools/list against the cheapest API read (GET /v1/me) in the same process.
const mcpList = await timed(CALLS, () =>
  request(`${url}/mcp`, {
    method: 'POST',
    dispatcher,
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  }).then((res) => res.body.text()),
);
const httpMe = await timed(CALLS, () => http('GET', '/v1/me'));
await dispatcher.close();
server.kill('SIGTERM');
rmSync(dir, { recursive: true, force: true });

const ratio = (a, b) => Math.round((a / b) * 100) / 100;
const report = {
  benchmark: 'MCP over stdio vs the HTTP API, one call at a time, SQLite',
  calls: CALLS,
  check_slot: { mcp_stdio: mcpCheck, http: httpCheck, p50_ratio_mcp_over_http: ratio(mcpCheck.p50Ms, httpCheck.p50Ms) },
  create_booking: { mcp_stdio: mcpCreate, http: httpCreate, p50_ratio_mcp_over_http: ratio(mcpCreate.p50Ms, httpCreate.p50Ms) },
  find_times_then_book_time: {
    mcp_stdio: mcpTwoCall,
    http: httpTwoCall,
    p50_ratio_mcp_over_http: ratio(mcpTwoCall.p50Ms, httpTwoCall.p50Ms),
  },
  streamable_http_tools_list: { mcp_http: mcpList, http_get_me: httpMe, p50_ratio_over_get_me: ratio(mcpList.p50Ms, httpMe.p50Ms) },
};
mkdirSync(resolve(here, '../../../bench-results'), { recursive: true });
writeFileSync(resolve(here, '../../../bench-results/mcp-roundtrip.json'), `${JSON.stringify(report, null, 2)}\n`);
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
