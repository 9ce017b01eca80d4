import {
  type CalendarReader,
  type Clock,
  conferenceLinksAt,
  createAuthenticator,
  createCalendarReader,
  createRateLimiter,
  loadLimits,
  loadWorkspace,
  type Operation,
  openStore,
  operations,
  parseWorkspace,
  type Store,
  sequentialIds,
} from '@schedule/core';
import { buildApp, listen, type RunningServer } from '../../src/index.js';

export interface TestApp {
  readonly store: Store;
  readonly server: RunningServer;
  /** Every line the app logged, as fields. */
  readonly logged: Record<string, unknown>[];
  close(): Promise<void>;
}

/** The HTTP app over an in-memory store loaded with `workspace`, listening on a free port. */
export async function startTestApp(options: {
  workspace: unknown;
  clock: Clock;
  calendars?: CalendarReader;
  extraOperations?: readonly Operation[];
}): Promise<TestApp> {
  const { clock } = options;
  const store = await openStore(':memory:');
  const ids = sequentialIds();
  await loadWorkspace({ store, clock, ids }, parseWorkspace(JSON.stringify(options.workspace)));
  const logged: Record<string, unknown>[] = [];
  const log = (fields: Record<string, unknown>) => logged.push(fields);
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
    rateLimiter: createRateLimiter({ clock }),
    limits: await loadLimits(store),
    logger: { info: log, warn: log, error: log },
  });
  const server = await listen(app, { host: '127.0.0.1', port: 0 });
  return {
    store,
    server,
    logged,
    async close() {
      await server.close();
      await store.close();
    },
  };
}
