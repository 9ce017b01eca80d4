import { randomBytes } from 'node:crypto';
import {
  type Backlog,
  type CalendarReader,
  type Clock,
  conferenceLinksAt,
  countBacklog,
  createAuthenticator,
  createCalendarReader,
  createPostgresSchema,
  createRateLimiter,
  dropPostgresSchema,
  type FailOpenCause,
  loadLimits,
  loadWorkspace,
  type Operation,
  openStore,
  operations,
  parseWorkspace,
  type RateLimitStore,
  type Readiness,
  readinessCheck,
  type Store,
  sequentialIds,
} from '@schedule/core';
import { buildApp, type ConnectionLimits, createAppMetrics, listen, type RunningServer } from '../../src/index.js';

/** The PostgreSQL the tests use; CI and the dev machine run one on loopback (trust auth). */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Which engine a test app stores in: a fresh `:memory:` SQLite, or a fresh schema of its own on TEST_DATABASE_URL. */
export type TestDatabase = 'sqlite' | 'postgres';

/** A migrated, empty store, and how to close it and throw it away. */
async function openTestStore(database: TestDatabase): Promise<{ store: Store; discard(): Promise<void> }> {
  if (database === 'sqlite') {
    const store = await openStore(':memory:');
    return { store, discard: () => store.close() };
  }
  const schema = `h_${randomBytes(6).toString('hex')}`;
  // Created before opening, so that a failed open still leaves a schema to drop.
  await createPostgresSchema(TEST_DATABASE_URL, schema);
  try {
    const store = await openStore(`${TEST_DATABASE_URL}?schema=${schema}`);
    return {
      store,
      async discard() {
        await store.close();
        await dropPostgresSchema(TEST_DATABASE_URL, schema);
      },
    };
  } catch (error) {
    await dropPostgresSchema(TEST_DATABASE_URL, schema);
    throw error;
  }
}

export interface TestApp {
  readonly store: Store;
  readonly server: RunningServer;
  /** Every line the app logged, as fields. */
  readonly logged: Record<string, unknown>[];
  /** Every line the app logged, with its level and message. */
  readonly lines: { level: 'info' | 'warn' | 'error'; fields: Record<string, unknown>; message: string }[];
  close(): Promise<void>;
}

export interface TestAppOptions {
  workspace: unknown;
  clock: Clock;
  database?: TestDatabase;
  calendars?: CalendarReader;
  extraOperations?: readonly Operation[];
  /** Connection bounds for the listener; Node's defaults are far too long for a test to wait out. */
  limits?: Partial<ConnectionLimits>;
  /** Answers `GET /readyz`; `'check'` wires core's readinessCheck over this store and rate limiter. */
  readiness?: (() => Promise<Readiness>) | 'check';
  /** The shared store the rate limiter counts in (Redis in production); in memory without it. */
  rateLimitStore?: RateLimitStore;
  /** How long the rate limiter waits for `rateLimitStore` before failing open. */
  failOpenAfterMs?: number;
  /** Serves `GET /metrics`, the backlog counted in this store unless `backlog` replaces it; off without it. */
  metrics?: {
    token?: string;
    backlog?: () => Promise<Backlog>;
    backlogTimeoutMs?: number;
  };
}

/** The HTTP app over a fresh store (in-memory SQLite unless `database` says) loaded with `workspace`, listening on a free port. */
export async function startTestApp(options: TestAppOptions): Promise<TestApp> {
  const { store, discard } = await openTestStore(options.database ?? 'sqlite');
  try {
    return await serveStore(store, discard, options);
  } catch (error) {
    // A workspace that does not load must not leave a PostgreSQL schema behind.
    await discard();
    throw error;
  }
}

async function serveStore(store: Store, discard: () => Promise<void>, options: TestAppOptions): Promise<TestApp> {
  const { clock } = options;
  const ids = sequentialIds();
  await loadWorkspace({ store, clock, ids }, parseWorkspace(JSON.stringify(options.workspace)));
  const logged: Record<string, unknown>[] = [];
  const lines: TestApp['lines'][number][] = [];
  const at = (level: 'info' | 'warn' | 'error') => (fields: Record<string, unknown>, message: string) => {
    logged.push(fields);
    lines.push({ level, fields, message });
  };
  const metrics = options.metrics
    ? createAppMetrics({
        clock,
        backlog: options.metrics.backlog ?? (() => countBacklog(store, clock.now())),
        backlogTimeoutMs: options.metrics.backlogTimeoutMs,
      })
    : undefined;
  const rateLimiter = createRateLimiter({
    clock,
    ...(options.rateLimitStore ? { store: options.rateLimitStore } : {}),
    ...(options.failOpenAfterMs === undefined ? {} : { failOpenAfterMs: options.failOpenAfterMs }),
    ...(metrics ? { onFailOpen: (cause: FailOpenCause) => metrics.countRateLimitFailOpen(cause) } : {}),
  });
  const app = buildApp({
    core: {
      store,
      clock,
      ids,
      idempotencyLeaseMs: 60_000,
      calendars: options.calendars ?? createCalendarReader(async () => []),
      conferenceLinks: conferenceLinksAt('https://meet.test'),
    },
    authenticate: createAuthenticator({ store, clock }),
    operations: [...operations, ...(options.extraOperations ?? [])],
    rateLimiter,
    limits: await loadLimits(store),
    logger: { info: at('info'), warn: at('warn'), error: at('error') },
    readiness: options.readiness === 'check' ? readinessCheck({ store, clock, rateLimiter }) : options.readiness,
    metrics,
    metricsToken: options.metrics?.token,
  });
  const server = await listen(app, { host: '127.0.0.1', port: 0, limits: options.limits, requestIds: () => ids.uuid() });
  return {
    store,
    server,
    logged,
    lines,
    async close() {
      await server.close();
      await discard();
    },
  };
}
