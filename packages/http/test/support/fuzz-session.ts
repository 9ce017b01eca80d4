import { manualClock, type Operation, operations } from '@schedule/core';
import type { FuzzContext } from './fuzz-api-cases.js';
import type { FuzzTarget } from './fuzz-check.js';
import { BOOKING, EVENT_TYPE, fuzzWorkspace, T0, TOKEN, USER } from './fuzz-workspace.js';
import { startTestApp, type TestApp, type TestDatabase } from './test-app.js';

/** The app the fuzzer is aimed at, and what its generators know of it. */
export interface FuzzSession {
  /** The app under test now; `renew` replaces it. */
  readonly app: TestApp;
  readonly target: FuzzTarget;
  readonly context: FuzzContext;
  /**
   * Swaps in a fresh app on a fresh database. Every case digests the whole
   * database, so a database that only grows would make a long run quadratic.
   */
  renew(): Promise<void>;
  close(): Promise<void>;
}

async function post(app: TestApp, path: string, key: string, body?: unknown): Promise<Response> {
  const headers: Record<string, string> = { authorization: `Bearer ${TOKEN.owner}`, 'idempotency-key': key };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${app.server.url}${path}`, {
    method: 'POST',
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`fuzz fixture: POST ${path} answered ${res.status} ${await res.text()}`);
  return res;
}

/** A weekly series of four, made through the API; its uid. */
async function createSeries(app: TestApp, key: string, startsOn: string): Promise<string> {
  const res = await post(app, '/v1/series', key, {
    host_user_id: USER.olga,
    event_type_id: EVENT_TYPE.weekly,
    attendee: { email: 'series@example.test', name: 'Sera' },
    frequency: 'weekly',
    weekdays: ['tue', 'thu'],
    time: '14:00',
    starts_on: startsOn,
    count: 4,
  });
  return ((await res.json()) as { data: { series: { uid: string } } }).data.series.uid;
}

/** The app on a fresh database with the fuzz workspace, and one active, one paused and one ended series. */
async function startApp(database: TestDatabase, plant: Operation | undefined): Promise<{ app: TestApp; series: string[] }> {
  const app = await startTestApp({ workspace: fuzzWorkspace(), clock: manualClock(T0), database, extraOperations: plant ? [plant] : [] });
  try {
    const active = await createSeries(app, 'fixture-active', '2026-03-02');
    const paused = await createSeries(app, 'fixture-paused', '2026-03-09');
    const ended = await createSeries(app, 'fixture-ended', '2026-03-16');
    await post(app, `/v1/series/${paused}/pause`, 'fixture-pause');
    await post(app, `/v1/series/${ended}/end`, 'fixture-end');
    return { app, series: [active, paused, ended] };
  } catch (error) {
    await app.close();
    throw error;
  }
}

/**
 * A fuzz session on `database`. With a `plant`, the app also serves that
 * operation and the generators aim at it alone; otherwise at every operation
 * of the registry.
 */
export async function startFuzzSession(database: TestDatabase, plant?: Operation): Promise<FuzzSession> {
  let { app, series } = await startApp(database, plant);
  const target: FuzzTarget = { baseUrl: app.server.url, store: app.store };
  const context: FuzzContext = { operations: plant ? [plant] : operations, bookings: Object.values(BOOKING), series: [...series] };
  return {
    get app() {
      return app;
    },
    target,
    context,
    async renew() {
      await app.close();
      ({ app, series } = await startApp(database, plant));
      target.baseUrl = app.server.url;
      target.store = app.store;
      target.digest = undefined;
      context.bookings.splice(0, context.bookings.length, ...Object.values(BOOKING));
      context.series.splice(0, context.series.length, ...series);
    },
    close: () => app.close(),
  };
}
