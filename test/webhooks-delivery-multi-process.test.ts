import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingBody, cancelBooking, createBooking, rescheduleBooking } from './support/booking-writes.js';
import { api, expectData } from './support/http.js';
import { type TestSchema, testSchema } from './support/postgres.js';
import { type ServerProcess, startServer, writeWorkspace } from './support/serve.js';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver.js';
import { ALL_SCOPES } from './support/workspace.js';

// Issue 16, scale-out: two `schedule serve` processes on one PostgreSQL
// schema deliver every event once (the fan-out claims events with FOR UPDATE
// SKIP LOCKED, deliveries are leased), counted at a real receiver by
// `webhook-id`; then one process is killed with SIGKILL in the middle of a
// second batch and nothing is lost: the other fans out what the dead one had
// not committed and, once their lease runs out, sends what it held.

const REX = 'f1600000-0000-4000-8000-000000000001';
const UNA = 'f1600000-0000-4000-8000-000000000002';
const ET = { rex: 'f16e0000-0000-4000-8000-000000000001', una: 'f16e0000-0000-4000-8000-000000000002' };
const TOKEN = { rex: 'wh-secret-rex-all-scopes', una: 'wh-secret-una-all-scopes' };
const EVENTS = ['booking.created', 'booking.canceled', 'booking.rescheduled', 'booking.updated'];
/** The shortest lease delivery takes (10 s request + 5 s): how long a killed process's deliveries wait. */
const LEASE_MS = 15_000;
const CONCURRENCY = 16;
const SLOT_MS = 15 * 60_000;
const DAY_MS = 86_400_000;

const workspace = {
  organization: { name: 'Webhook Org' },
  limits: { pat_per_minute: 100_000 },
  // No schedule: free around the clock, so every create below finds its slot.
  users: [
    { id: REX, username: 'rex', email: 'rex@hooks.test', name: 'Rex Owner', timezone: 'UTC', role: 'owner' },
    { id: UNA, username: 'una', email: 'una@hooks.test', name: 'Una User', timezone: 'UTC', role: 'user' },
  ],
  event_types: (['rex', 'una'] as const).map((host) => ({
    id: ET[host],
    owner: host,
    slug: `${host}-call`,
    name: 'Call',
    duration_minutes: 15,
    minimum_notice_minutes: 0,
    future_limit_days: 365,
  })),
  tokens: (['rex', 'una'] as const).map((host) => ({ name: host, user: host, secret: TOKEN[host], scopes: [...ALL_SCOPES] })),
};

const firstSlot = Math.ceil(Date.now() / DAY_MS) * DAY_MS + DAY_MS;
/** The n-th free slot: every create and reschedule below takes its own. */
const slot = (n: number) => new Date(firstSlot + n * SLOT_MS).toISOString();
const hostOf = (n: number) => (n % 2 === 0 ? 'rex' : 'una');

/** Runs the tasks, `CONCURRENCY` at a time; `after(done)` is told each time one ends. */
async function runAll(tasks: readonly (() => Promise<void>)[], after: (done: number) => void = () => {}): Promise<void> {
  let next = 0;
  let done = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < tasks.length) {
        await tasks[next++]!();
        after(++done);
      }
    }),
  );
}

describe('webhook delivery from two processes on one PostgreSQL schema', () => {
  let schema: TestSchema;
  let receiver: WebhookReceiver;
  let one: ServerProcess;
  let two: ServerProcess;
  const hooks = { rex: randomUUID(), una: randomUUID() };

  beforeAll(async () => {
    schema = testSchema();
    receiver = await startWebhookReceiver();
    const file = writeWorkspace(workspace);
    const env = { WEBHOOK_ALLOW_PRIVATE_TARGETS: '1', WEBHOOK_POLL_MS: '20', WEBHOOK_LEASE_MS: String(LEASE_MS) };
    one = await startServer(['--workspace', file, '--db', schema.dbUrl], env);
    two = await startServer(['--workspace', file, '--db', schema.dbUrl], env);
    // Until the management API is merged, webhooks are made as its create operation stores them.
    const madeAt = new Date(Date.now() - 60_000).toISOString();
    for (const host of ['rex', 'una'] as const) {
      await schema.query(
        `insert into webhooks (id, owner_user_id, url, events_json, description, secret, status, created_at, updated_at)
         values ($1, $2, $3, $4, null, $5, 'active', $6, $6)`,
        [
          hooks[host],
          host === 'rex' ? REX : UNA,
          `${receiver.url}/${host}`,
          JSON.stringify(EVENTS),
          `whsec_${randomBytes(32).toString('base64')}`,
          madeAt,
        ],
      );
    }
  });

  afterAll(async () => {
    // The killed one has exited already (stop() waits for an exit that came before it).
    await Promise.all([one?.child.signalCode === 'SIGKILL' ? undefined : one?.stop(), two?.stop()]);
    await receiver?.close();
    await schema?.drop();
  });

  /** Every event, with the host its payload names. */
  const events = async () =>
    (
      await schema.query<{ id: string; payload_json: string; dispatched_at: string | null }>(
        'select id, payload_json, dispatched_at from outbox',
      )
    ).map((e) => ({
      id: e.id,
      host: (JSON.parse(e.payload_json) as { host: { user_id: string } }).host.user_id,
      dispatched: e.dispatched_at !== null,
    }));
  const deliveries = () =>
    schema.query<{ id: string; webhook_id: string; event_id: string; status: string; attempts: number }>(
      'select id, webhook_id, event_id, status, attempts from webhook_deliveries',
    );

  /** Waits, arrival by arrival (a timer only for the last outcome to be recorded), until every event is dispatched and every delivery succeeded. */
  async function settled(deadlineMs: number): Promise<void> {
    const giveUpAt = Date.now() + deadlineMs;
    for (;;) {
      const [all, rows] = [await events(), await deliveries()];
      if (all.every((e) => e.dispatched) && rows.every((d) => d.status === 'succeeded')) return;
      if (Date.now() > giveUpAt) {
        throw new Error(
          `not settled: ${all.filter((e) => !e.dispatched).length} undispatched, ${rows.filter((d) => d.status !== 'succeeded').length} unsent`,
        );
      }
      await Promise.race([receiver.changed(), new Promise((resolve) => setTimeout(resolve, 200))]);
    }
  }

  /** The deliveries each webhook must have: rex (owner) every event, una (plain user) only her own. */
  async function expectEveryEventDelivered() {
    const all = await events();
    const rows = await deliveries();
    const eventsOf = (webhook: string) =>
      rows
        .filter((d) => d.webhook_id === webhook)
        .map((d) => d.event_id)
        .sort();
    expect(eventsOf(hooks.rex)).toEqual(all.map((e) => e.id).sort());
    expect(eventsOf(hooks.una)).toEqual(
      all
        .filter((e) => e.host === UNA)
        .map((e) => e.id)
        .sort(),
    );
    // At least once: every delivery arrived under its own webhook-id, at its own webhook, with its own event.
    const byId = new Map(rows.map((d) => [d.id, d]));
    for (const arrival of receiver.arrivals) {
      const row = byId.get(arrival.id);
      expect(row, `an arrival with an unknown webhook-id ${arrival.id}`).toBeDefined();
      expect([arrival.path, arrival.eventId]).toEqual([`/${row!.webhook_id === hooks.rex ? 'rex' : 'una'}`, row!.event_id]);
    }
    expect(new Set(receiver.arrivals.map((a) => a.id))).toEqual(new Set(rows.map((d) => d.id)));
    return rows;
  }

  const uids: string[] = [];
  let phaseOneIds: Set<string>;

  it('1,000 booking changes through both processes: every event delivered exactly once per webhook', async () => {
    const servers = [one, two];
    // 500 creates, then 200 patches, 150 reschedules and 150 cancels of them: 1,000 changes, each on either process.
    await runAll(
      Array.from({ length: 500 }, (_, n) => async () => {
        const host = hostOf(n);
        const res = await createBooking(servers[n % 2]!.url, TOKEN[host], bookingBody(ET[host], slot(n), `guest${n}@example.com`));
        uids[n] = expectData(res, 201).uid;
      }),
    );
    const followUps = Array.from({ length: 500 }, (_, n) => async () => {
      const server = servers[(n + 1) % 2]!.url;
      const token = TOKEN[hostOf(n)];
      const uid = uids[n]!;
      const res =
        n < 200
          ? await api(server, `/v1/bookings/${uid}`, {
              method: 'PATCH',
              token,
              json: { metadata: { round: 1 } },
              headers: { 'idempotency-key': randomUUID(), 'if-match': '"1"' },
            })
          : n < 350
            ? await rescheduleBooking(server, token, uid, { start: slot(500 + n) })
            : await cancelBooking(server, token, uid, { reason: 'webhook test' });
      expect(res.status).toBe(200);
    });
    await runAll(followUps);

    const all = await events();
    expect(all).toHaveLength(1000);
    await settled(30_000);
    const rows = await expectEveryEventDelivered();
    expect(rows).toHaveLength(1000 + 500);
    // Exactly once: nothing was retried, and no webhook-id arrived twice.
    expect(rows.every((d) => d.attempts === 1)).toBe(true);
    expect(receiver.arrivals).toHaveLength(rows.length);
    expect(receiver.arrivals.filter((a) => a.path === '/una').every((a) => JSON.parse(a.body).data.host.user_id === UNA)).toBe(true);
    phaseOneIds = new Set(rows.map((d) => d.id));

    // Each process counts its own attempts: together, one success per delivery and nothing else.
    const counted = async (server: ServerProcess, outcome: string) => {
      const text = (await api(server.url, '/metrics')).text;
      const line = text.split('\n').find((l) => l.startsWith(`schedule_webhook_deliveries_total{outcome="${outcome}"} `));
      return Number(line?.split(' ')[1]);
    };
    const total = async (outcome: string) => (await counted(one, outcome)) + (await counted(two, outcome));
    expect(await total('succeeded')).toBe(1500);
    expect([await total('retrying'), await total('failed'), await total('released')]).toEqual([0, 0, 0]);
    // Both processes delivered: the work is shared, not taken by one.
    expect(await counted(one, 'succeeded')).toBeGreaterThan(0);
    expect(await counted(two, 'succeeded')).toBeGreaterThan(0);
  });

  it('one process killed with SIGKILL midway through a second batch: no event lost (at least once, deduplicated by webhook-id)', async () => {
    expect(phaseOneIds?.size).toBe(1500);
    let alive: ServerProcess[] = [one, two];
    let lostRequests = 0;
    // 300 more creates and 200 more patches (the bookings patched before, now at version 2), spread over both until the kill.
    const tasks = Array.from({ length: 500 }, (_, n) => async () => {
      const server = alive[n % alive.length]!.url;
      try {
        if (n % 5 < 3) {
          const k = 1000 + n;
          const host = hostOf(k);
          await createBooking(server, TOKEN[host], bookingBody(ET[host], slot(k), `late${n}@example.com`));
        } else {
          const p = Math.floor(n / 5) * 2 + (n % 5) - 3; // 0 … 199, the bookings patched in the first batch
          await api(server, `/v1/bookings/${uids[p]}`, {
            method: 'PATCH',
            token: TOKEN[hostOf(p)],
            json: { metadata: { round: 2 } },
            headers: { 'idempotency-key': randomUUID(), 'if-match': '"2"' },
          });
        }
      } catch {
        // A request to the killed process: its change may or may not have committed; the outbox says which.
        lostRequests++;
      }
    });
    // Midway, the receiver stops answering until more requests hang than one process may have in
    // flight (4 per webhook, 2 webhooks): then both surely hold leased deliveries, and one is killed.
    let midway!: () => void;
    const reachedMidway = new Promise<void>((resolve) => {
      midway = resolve;
    });
    const killer = (async () => {
      await reachedMidway;
      receiver.hold();
      while (receiver.held() <= 8) await receiver.changed();
      one.child.kill('SIGKILL');
      alive = [two];
      receiver.release();
    })();
    await runAll(tasks, (done) => {
      if (done === 250) midway();
    });
    await killer;
    expect(one.child.signalCode ?? (await new Promise((resolve) => one.child.once('exit', (_, signal) => resolve(signal))))).toBe(
      'SIGKILL',
    );

    // What the dead process held comes back when its lease runs out.
    await settled(LEASE_MS + 20_000);
    const rows = await expectEveryEventDelivered();
    const all = await events();
    expect(all.length).toBeGreaterThanOrEqual(1000 + 500 - lostRequests);
    // Duplicates (a delivery sent by the dead process, then again by the live one) only among the second batch.
    const seen = new Map<string, number>();
    for (const a of receiver.arrivals) seen.set(a.id, (seen.get(a.id) ?? 0) + 1);
    expect([...seen].filter(([id, n]) => n > 1 && phaseOneIds.has(id))).toEqual([]);
    // The killed process's requests in flight were sent again by the other, once their lease ran out.
    expect([...seen].filter(([, n]) => n > 1).length).toBeGreaterThan(0);
    expect(rows.length).toBe(all.length + all.filter((e) => e.host === UNA).length);
  });
});
