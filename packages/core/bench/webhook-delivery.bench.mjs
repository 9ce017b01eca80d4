// Benchmark of issue 16: webhook delivery on SQLite (a WAL file, as
// `schedule serve` opens it), to a receiver on loopback that answers 200 at once.
// - throughput: a backlog of 10,000 outbox events for one webhook, delivered
//   by the running loop (fan-out, claim, sign, POST, record), beside a floor
//   measured in the same run: as many plain undici POSTs of the same bodies to
//   the same receiver, as many at once as delivery sends to one webhook;
// - idle latency: from an event's commit to its arrival at the receiver, one
//   event at a time with the loop idle, beside the floor of one plain POST.
// - beside hanging receivers (issue 29): 100 events to one prompt webhook while
//   ten webhooks of one account point at sockets that accept and never answer,
//   beside the floor of the same 100 with no hanging webhook, in the same run;
//   bounded by BENCH_HANG_BOUND_MS (30 s), the count delivered by then is reported.
// Set BENCH_POSTGRES_URL (postgres://…) to measure PostgreSQL too, in a fresh schema.
// Build first: `npx turbo run build`.

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import * as core from '../dist/index.js';
import { writeReport } from './support.mjs';

const _here = dirname(fileURLToPath(import.meta.url));
const BACKLOG = Number(process.env.BENCH_BACKLOG ?? 10_000);
const LATENCY_SAMPLES = Number(process.env.BENCH_LATENCY_SAMPLES ?? 200);
const POLL_MS = 50; // WEBHOOK_POLL_MS's default
const HANG_BOUND_MS = Number(process.env.BENCH_HANG_BOUND_MS ?? 30_000);
const HANGING = 10;
const HANG_EVENTS = 100;
const OWNER = '7e57a1a0-0000-4000-8000-0000000000aa';
const MALLORY = '7e57a1a0-0000-4000-8000-0000000000bb';

// A booking as the outbox records it (about 1 KB of JSON).
const booking = (uid, host = OWNER) => ({
  uid,
  version: 2,
  event_type_id: '7e57a1a0-0000-4000-8000-000000000001',
  event_type_slug: 'call',
  title: 'Call between Bench Host and Guest',
  status: 'confirmed',
  start_at: '2026-09-01T09:00:00.000Z',
  end_at: '2026-09-01T09:30:00.000Z',
  timezone: 'Europe/Berlin',
  host: { user_id: host, username: 'bench', email: 'bench@example.com' },
  attendees: [{ email: 'guest@example.com', name: 'Guest', timezone: 'Europe/Berlin' }],
  guests: [],
  location: { type: 'conference', url: `https://meet.example.com/${uid}`, value: null },
  metadata: { utm_source: 'newsletter', crm_id: 'A-1234567' },
  responses: null,
  calendar_sync_status: 'not_applicable',
  calendar_event_id: uid,
  rescheduled_from_uid: null,
  cancelled_at: null,
  cancellation_reason: null,
  no_show_at: null,
  no_show_reason: null,
  created_at: '2026-08-01T09:00:00.000Z',
  updated_at: '2026-08-01T09:05:00.000Z',
  changed_fields: ['metadata'],
});

/** A webhook to `url` for booking.updated, made a minute ago, as the create operation writes one. */
const webhookRow = (owner, url) => ({
  id: core.randomIds.uuid(),
  owner_user_id: owner,
  url,
  events_json: JSON.stringify(['booking.updated']),
  description: 'bench',
  secret: `whsec_${randomBytes(32).toString('base64')}`,
  previous_secret: null,
  previous_secret_until: null,
  status: 'active',
  paused_reason: null,
  created_at: core.toTimestamp(core.systemClock.now() - 60_000),
  updated_at: core.toTimestamp(core.systemClock.now()),
});

/** The receiver: answers 200 at once; tells who waits for an event id when it arrives. */
function startReceiver() {
  const arrivals = new Map();
  let count = 0;
  let onCount;
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      count++;
      const at = performance.now();
      res.writeHead(200).end();
      const wanted = arrivals.get(req.headers['x-bench-event'] ?? JSON.parse(Buffer.concat(chunks).toString()).id);
      if (wanted) wanted(at);
      if (onCount) onCount(count);
    });
  });
  server.keepAliveTimeout = 60_000;
  return new Promise((resolveStart) =>
    server.listen(0, '127.0.0.1', () =>
      resolveStart({
        url: `http://127.0.0.1:${server.address().port}/hook`,
        count: () => count,
        reset: () => {
          count = 0;
        },
        /** Resolves when `n` requests have arrived in all. */
        until: (n) =>
          new Promise((done) => {
            if (count >= n) return done();
            onCount = (c) => {
              if (c >= n) {
                onCount = undefined;
                done();
              }
            };
          }),
        /** Resolves with the arrival time of the event with this id. */
        arrival: (id) => new Promise((done) => arrivals.set(id, done)),
        close: () => new Promise((done) => server.close(done)),
      }),
    ),
  );
}

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] * 10) / 10;
};

async function benchStore(name, store, receiver) {
  const clock = core.systemClock;
  const ids = core.randomIds;
  await core.loadWorkspace(
    { store, clock, ids },
    core.parseWorkspace(
      JSON.stringify({
        organization: { name: 'Bench' },
        users: [{ id: OWNER, username: 'bench', email: 'bench@example.com', name: 'Bench Host' }],
      }),
    ),
  );
  const now = () => core.toTimestamp(clock.now());
  await store.db.insertInto('webhooks').values(webhookRow(OWNER, receiver.url)).execute();
  const eventRow = (id) => ({
    id,
    event_type: 'booking.updated',
    subject_uid: id,
    payload_json: JSON.stringify(booking(id)),
    created_at: now(),
    dispatched_at: null,
  });

  // The backlog, committed before delivery starts.
  const backlog = Array.from({ length: BACKLOG }, () => eventRow(ids.uuid()));
  for (let i = 0; i < backlog.length; i += 500)
    await store.db
      .insertInto('outbox')
      .values(backlog.slice(i, i + 500))
      .execute();

  const http = core.webhookHttpClient({ allowPrivateTargets: true });
  const outcomes = {};
  const deps = {
    store,
    clock,
    ids,
    http,
    logger: { info() {}, warn: (fields, message) => console.error(message, fields) },
    onOutcome: (o) => {
      outcomes[o] = (outcomes[o] ?? 0) + 1;
    },
  };
  receiver.reset();
  const startedAt = performance.now();
  const loop = core.startWebhookDelivery(deps, { intervalMs: POLL_MS });
  await receiver.until(BACKLOG);
  const deliverSeconds = (performance.now() - startedAt) / 1000;
  // Let the last outcomes be recorded before counting them.
  while ((outcomes.succeeded ?? 0) < BACKLOG) await sleep(5);
  const succeeded = await store.db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('status', '=', 'succeeded')
    .executeTakeFirst();
  if (Number(succeeded.n) !== BACKLOG) throw new Error(`expected ${BACKLOG} deliveries succeeded, found ${succeeded.n}`);

  // Idle: one event at a time, committed at a random point of the poll interval.
  const latencies = [];
  for (let i = 0; i < LATENCY_SAMPLES; i++) {
    await sleep(Math.random() * POLL_MS * 2);
    const row = eventRow(ids.uuid());
    const arrived = receiver.arrival(row.id);
    await store.db.insertInto('outbox').values(row).execute(); // one statement: committed when it returns
    const at = performance.now();
    latencies.push((await arrived) - at);
  }
  // Stopped once every outcome is recorded, so no delivery is abandoned mid-answer.
  while ((outcomes.succeeded ?? 0) < BACKLOG + LATENCY_SAMPLES) await sleep(5);
  await loop.stop();
  await http.close();
  return {
    deliveries_per_second: Math.round(BACKLOG / deliverSeconds),
    backlog_seconds: Math.round(deliverSeconds * 100) / 100,
    outcomes,
    idle_commit_to_delivery_ms: { p50: percentile(latencies, 50), p95: percentile(latencies, 95), max: percentile(latencies, 100) },
    name,
  };
}

/** A server that accepts every connection and never answers: the socket stays open until the client gives up. */
function startHangingServer() {
  const sockets = new Set();
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
  });
  return new Promise((resolveStart) =>
    server.listen(0, '127.0.0.1', () =>
      resolveStart({
        url: `http://127.0.0.1:${server.address().port}`,
        close: () =>
          new Promise((done) => {
            for (const socket of sockets) socket.destroy();
            server.close(done);
          }),
      }),
    ),
  );
}

/**
 * 100 events, each to the prompt webhook (owned by the bench owner, who sees
 * every booking) and to `hanging` webhooks of Mallory, a plain user whose
 * bookings they are, pointing at `hang`: seconds until the prompt receiver has
 * all 100, or how many it had when the bound ran out.
 */
async function beside(openStore, hang, hanging) {
  const store = await openStore();
  const receiver = await startReceiver();
  const clock = core.systemClock;
  const ids = core.randomIds;
  try {
    await core.loadWorkspace(
      { store, clock, ids },
      core.parseWorkspace(
        JSON.stringify({
          organization: { name: 'Bench' },
          users: [
            { id: OWNER, username: 'bench', email: 'bench@example.com', name: 'Bench Host', role: 'owner' },
            { id: MALLORY, username: 'mallory', email: 'mallory@example.com', name: 'Mallory' },
          ],
        }),
      ),
    );
    await store.db
      .insertInto('webhooks')
      .values([
        webhookRow(OWNER, `${receiver.url}/prompt`),
        ...Array.from({ length: hanging }, (_, i) => webhookRow(MALLORY, `${hang.url}/hang-${i}`)),
      ])
      .execute();
    await store.db
      .insertInto('outbox')
      .values(
        Array.from({ length: HANG_EVENTS }, () => {
          const id = ids.uuid();
          return {
            id,
            event_type: 'booking.updated',
            subject_uid: id,
            payload_json: JSON.stringify(booking(id, MALLORY)),
            created_at: core.toTimestamp(clock.now()),
            dispatched_at: null,
          };
        }),
      )
      .execute();
    const http = core.webhookHttpClient({ allowPrivateTargets: true });
    const logger = { info() {}, warn() {} };
    const startedAt = performance.now();
    const loop = core.startWebhookDelivery({ store, clock, ids, http, logger }, { intervalMs: POLL_MS });
    const bound = sleep(HANG_BOUND_MS).then(() => 'bound');
    const ended = await Promise.race([receiver.until(HANG_EVENTS).then(() => 'all'), bound]);
    const seconds = (performance.now() - startedAt) / 1000;
    const delivered = receiver.count();
    await loop.stop();
    await http.close();
    return { delivered, seconds: Math.round(seconds * 1000) / 1000, all: ended === 'all' };
  } finally {
    await receiver.close();
    await store.close();
  }
}

async function benchHanging(name, openStore) {
  const hang = await startHangingServer();
  try {
    const floorRun = await beside(openStore, hang, 0);
    const withHanging = await beside(openStore, hang, HANGING);
    return {
      name,
      no_hanging_receivers: floorRun,
      ten_hanging_receivers: withHanging,
      ratio_with_over_without: withHanging.all ? Math.round((withHanging.seconds / floorRun.seconds) * 100) / 100 : null,
    };
  } finally {
    await hang.close();
  }
}

/** The floor: the same bodies as plain POSTs, `concurrency` at once, over one keep-alive agent. */
async function floor(receiver, concurrency) {
  const agent = new Agent();
  const bodies = Array.from({ length: BACKLOG }, () =>
    JSON.stringify({ type: 'booking.updated', id: core.randomIds.uuid(), created_at: 'x', data: booking('x') }),
  );
  const post = async (body) => {
    const res = await request(receiver.url, {
      method: 'POST',
      dispatcher: agent,
      headers: { 'content-type': 'application/json', 'x-bench-event': 'floor' },
      body,
    });
    await res.body.dump();
  };
  receiver.reset();
  const startedAt = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < bodies.length) await post(bodies[next++]);
    }),
  );
  const seconds = (performance.now() - startedAt) / 1000;
  const latencies = [];
  for (let i = 0; i < LATENCY_SAMPLES; i++) {
    await sleep(Math.random() * 5);
    const start = performance.now();
    await post(bodies[i]);
    latencies.push(performance.now() - start);
  }
  await agent.close();
  return {
    posts_per_second: Math.round(BACKLOG / seconds),
    one_post_ms: { p50: percentile(latencies, 50), p95: percentile(latencies, 95) },
  };
}

const receiver = await startReceiver();
const perWebhook = core.DEFAULT_DELIVERY_SETTINGS.maxInFlightPerWebhook;
const floorRun = await floor(receiver, perWebhook);

const dir = mkdtempSync(join(tmpdir(), 'schedule-bench-webhooks-'));
const results = [];
const hangingResults = [];
try {
  const store = await core.openStore(join(dir, 'bench.db'));
  results.push(await benchStore('sqlite (WAL file)', store, receiver));
  await store.close();
  let files = 0;
  hangingResults.push(await benchHanging('sqlite (WAL file)', () => core.openStore(join(dir, `hang-${files++}.db`))));
  if (process.env.BENCH_POSTGRES_URL) {
    const url = process.env.BENCH_POSTGRES_URL;
    const schemas = [];
    const openPostgres = () => {
      const schema = `bench_${randomBytes(4).toString('hex')}`;
      schemas.push(schema);
      return core.openStore(`${url}?schema=${schema}`);
    };
    try {
      const pg = await openPostgres();
      try {
        results.push(await benchStore('postgres', pg, receiver));
      } finally {
        await pg.close();
      }
      hangingResults.push(await benchHanging('postgres', openPostgres));
    } finally {
      for (const schema of schemas) await core.dropPostgresSchema(url, schema);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
  await receiver.close();
}

const report = {
  benchmark: `Webhook delivery: a backlog of ${BACKLOG} events to one webhook, and commit-to-delivery at idle (poll ${POLL_MS} ms), beside plain undici POSTs to the same receiver`,
  targets: { deliveries_per_second_sqlite: '>= 1000', idle_p50_ms: '<= 50' },
  in_flight_per_webhook: perWebhook,
  floor: floorRun,
  results: results.map((r) => ({
    ...r,
    ratio_throughput_floor_over_delivery: Math.round((floorRun.posts_per_second / r.deliveries_per_second) * 100) / 100,
    ratio_idle_p50_delivery_over_one_post: Math.round((r.idle_commit_to_delivery_ms.p50 / floorRun.one_post_ms.p50) * 10) / 10,
  })),
  beside_hanging_receivers: {
    benchmark: `${HANG_EVENTS} events to a prompt webhook while ${HANGING} webhooks of one account hang (accept, never answer), beside the same with none hanging; at most ${HANG_BOUND_MS / 1000} s each`,
    // Not 1: the hanging case also fans each event out to 11 webhooks instead of 1.
    target: 'all 100 delivered, in about the time they take with none hanging',
    results: hangingResults,
  },
};
writeReport('webhook-delivery', report);
