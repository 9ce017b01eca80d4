import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingBody, createBooking } from './support/booking-writes.js';
import { type FaultProxy, startFaultProxy } from './support/fault-proxy.js';
import { type ApiResponse, api, expectError } from './support/http.js';
import { POSTGRES_URL, type TestSchema, testSchema } from './support/postgres.js';
import { type ServerProcess, startServer, writeWorkspace } from './support/serve.js';
import { utcAt } from './support/slot-time.js';
import { ALL_SCOPES } from './support/workspace.js';

// Issue 10: the database and Redis go away or hang under load, through a TCP
// proxy of our own between `schedule serve` and the real servers. The process
// must survive every fault, answer 503 within a few seconds while it lasts,
// serve again after it, and lose no acknowledged booking. Phases end on
// counts of answers seen, not on timers.

const HOST_ID = 'fa000000-0000-4000-8000-000000000001';
const EVENT_TYPE_ID = 'fae00000-0000-4000-8000-000000000001';
const TOKEN = 'fault-secret-fay-all-scopes';
const WORKERS = 8;

const workspace = {
  organization: { name: 'Fault Org' },
  // A request whose token cannot be looked up (the database is away) counts in the anonymous bucket;
  // the phases below make dozens of them within one minute, which is what they test, not the limit.
  limits: { pat_per_minute: 100_000, anonymous_per_minute: 100_000 },
  users: [{ id: HOST_ID, username: 'fay', email: 'fay@fault.test', name: 'Fay Host', timezone: 'UTC', role: 'owner' }],
  event_types: [
    {
      id: EVENT_TYPE_ID,
      owner: 'fay',
      slug: 'fault',
      name: 'Fault',
      duration_minutes: 30,
      minimum_notice_minutes: 0,
      future_limit_days: 60,
    },
  ],
  tokens: [{ name: 'fay', user: 'fay', secret: TOKEN, scopes: [...ALL_SCOPES] }],
};

/** Short bounds, so that each fault shows within a second or two. */
const BOUNDS = {
  PG_ACQUIRE_TIMEOUT_MS: '1000',
  PG_STATEMENT_TIMEOUT_MS: '1500',
  PG_QUERY_TIMEOUT_MS: '2000',
  PG_IDLE_IN_TRANSACTION_TIMEOUT_MS: '3000',
  IDEMPOTENCY_LEASE_MS: '8000',
};
/** The longest a request may take while the database is away: acquire plus one query, and slack for a loaded machine. */
const MAX_ANSWER_MS = 6000;

/** Slot n: a distinct 30-minute start from tomorrow on, 01:00 to 22:30 UTC each day. */
const startOf = (n: number) => new Date(utcAt(1 + Math.floor(n / 44), 1, (n % 44) * 30)).toISOString();

interface Attempt {
  readonly key: string;
  readonly slot: number;
}

describe('schedule serve on PostgreSQL through a faulty network', () => {
  let schema: TestSchema;
  let proxy: FaultProxy;
  let server: ServerProcess;
  let nextSlot = 0;
  let slowest = 0;
  /** Key → uid of every 201 the clients saw. */
  const acknowledged = new Map<string, string>();
  /** Requests answered 503: the client will retry them with the same key. */
  const refused: Attempt[] = [];

  beforeAll(async () => {
    schema = testSchema();
    proxy = await startFaultProxy({ host: '127.0.0.1', port: Number(new URL(POSTGRES_URL).port || 5432) });
    server = await startServer(
      ['--workspace', writeWorkspace(workspace), '--db', `${proxy.via(POSTGRES_URL)}?schema=${schema.name}`],
      BOUNDS,
    );
  });
  afterAll(async () => {
    await server?.stop();
    await proxy?.close();
    await schema?.drop();
  });

  /** One create with a fresh slot and key; records what the client learned. */
  async function createOne(): Promise<ApiResponse> {
    const slot = nextSlot++;
    const key = `fault-${slot}`;
    const started = performance.now();
    const res = await createBooking(server.url, TOKEN, bookingBody(EVENT_TYPE_ID, startOf(slot)), { key });
    slowest = Math.max(slowest, performance.now() - started);
    if (res.status === 201) acknowledged.set(key, res.body.data.uid);
    else if (res.status === 503) refused.push({ key, slot });
    return res;
  }

  /**
   * Runs WORKERS concurrent clients until `done` holds for the answers of this
   * phase, at most `maxRequests` requests. Every answer must be a 201 or a 503
   * of the documented kinds.
   */
  async function drive(done: (counts: { created: number; unavailable: number }) => boolean, maxRequests = 400) {
    const counts = { created: 0, unavailable: 0 };
    const unexpected: string[] = [];
    let sent = 0;
    const worker = async () => {
      while (!done(counts) && sent < maxRequests) {
        sent++;
        const res = await createOne();
        if (res.status === 201) counts.created++;
        else if (res.status === 503 && ['database_unavailable', 'slot_lock_timeout'].includes(res.body?.error?.code)) {
          expect(res.headers.get('retry-after')).toMatch(/^[12]$/);
          expectError(res, 503, res.body.error.code, {});
          counts.unavailable++;
        } else unexpected.push(`${res.status} ${res.text}`);
      }
    };
    await Promise.all(Array.from({ length: WORKERS }, worker));
    expect(unexpected).toEqual([]);
    if (!done(counts)) throw new Error(`the phase did not reach its goal in ${maxRequests} requests: ${JSON.stringify(counts)}`);
    return counts;
  }

  const readyz = () => api(server.url, '/readyz');

  it('serves creates while the network is healthy', async () => {
    await drive((c) => c.created >= 40);
    expect((await readyz()).status).toBe(200);
  });

  it('connections reset under load: 503 database_unavailable quickly, the process lives, and it recovers', async () => {
    proxy.drop();
    try {
      slowest = 0;
      await drive((c) => c.unavailable >= 16);
      expect(slowest).toBeLessThan(MAX_ANSWER_MS);
      expect(server.child.exitCode).toBeNull();
    } finally {
      proxy.restore();
    }
    await drive((c) => c.created >= 40);
  });

  it('a hung network: every request answers 503 within the bound, /readyz says so, and service resumes after it', async () => {
    proxy.hang();
    try {
      slowest = 0;
      await drive((c) => c.unavailable >= 16, 200);
      expect(slowest).toBeLessThan(MAX_ANSWER_MS);
      // Probes are not rate limited, so this one carries no X-RateLimit-* headers.
      const probe = await readyz();
      expect(probe.status).toBe(503);
      expect(probe.body.error).toMatchObject({ code: 'database_unavailable', details: { database: 'unavailable', rate_limits: 'ok' } });
      expect(probe.elapsedMs).toBeLessThan(3000);
      // The booking page is a front end like the API: a visitor gets its 503 page in the bound, never a 500 or a hang.
      const asked = performance.now();
      const page = await fetch(`${server.url}/@fay/fault`);
      expect(performance.now() - asked).toBeLessThan(MAX_ANSWER_MS);
      expect(page.status).toBe(503);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await page.text()).toContain('The service cannot answer right now. Please try again in a moment.');
      expect(server.child.exitCode).toBeNull();
    } finally {
      proxy.restore();
    }
    await drive((c) => c.created >= 40);
    await expect.poll(async () => (await readyz()).status, { timeout: 10_000 }).toBe(200);
  });

  it('no acknowledged booking is lost, and every refused create retried with its key is booked exactly once', async () => {
    for (const { key, slot } of refused) {
      // A client honours Retry-After; a key still held by the attempt that failed answers idempotency_in_progress until its lease ends.
      let res: ApiResponse | undefined;
      for (let attempt = 0; attempt < 40; attempt++) {
        res = await createBooking(server.url, TOKEN, bookingBody(EVENT_TYPE_ID, startOf(slot)), { key });
        if (res.status === 201) break;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(res?.status, res?.text).toBe(201);
      acknowledged.set(key, res!.body.data.uid);
    }
    const rows = await schema.query<{ uid: string }>("select uid from bookings where status = 'confirmed'");
    const stored = new Set(rows.map((r) => r.uid));
    expect([...acknowledged.values()].filter((uid) => !stored.has(uid))).toEqual([]);
    // One booking per key: nothing was created twice by a retry.
    expect(stored.size).toBe(acknowledged.size);
    expect(server.output().stderr).not.toMatch(/Unhandled|uncaught/i);
  });
});

describe('schedule serve with Redis through a faulty network', () => {
  let proxy: FaultProxy;
  let server: ServerProcess;

  beforeAll(async () => {
    proxy = await startFaultProxy({ host: '127.0.0.1', port: 6379 });
    server = await startServer(['--workspace', writeWorkspace(workspace), '--db', ':memory:'], {
      REDIS_URL: `redis://127.0.0.1:${proxy.port}`,
      REDIS_PREFIX: `faults-${process.pid}-${Date.now()}:`,
    });
  });
  afterAll(async () => {
    await server?.stop();
    await proxy?.close();
  });

  const list = () => api(server.url, '/v1/bookings?limit=1', { token: TOKEN });
  const rateLimits = async () => (await api(server.url, '/readyz')).body?.data?.rate_limits;

  it.each(['hang', 'drop'] as const)(
    'a Redis that %ss: requests are still served fast, counted per process, and sharing resumes after it',
    async (fault) => {
      expect((await list()).status).toBe(200);
      expect(await rateLimits()).toBe('ok');
      proxy[fault]();
      for (let i = 0; i < 10; i++) {
        const res = await list();
        expect(res.status).toBe(200);
        expect(res.headers.get('x-ratelimit-limit')).toBe('100000');
        expect(res.elapsedMs).toBeLessThan(1000);
      }
      await expect.poll(rateLimits).toBe('degraded');
      proxy.restore();
      // Each request tries Redis again; a silent connection is replaced after a
      // few failures, a reset one by the client's own reconnect backoff.
      await expect
        .poll(
          async () => {
            expect((await list()).status).toBe(200);
            return rateLimits();
          },
          { timeout: 15_000, interval: 200 },
        )
        .toBe('ok');
      expect(server.child.exitCode).toBeNull();
    },
  );
});
