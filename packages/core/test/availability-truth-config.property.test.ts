import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../src/auth/principal.js';
import { manualClock } from '../src/clock.js';
import { isScheduleError } from '../src/errors.js';
import { type ExecuteDeps, execute } from '../src/operations/execute.js';
import { type OperationName, operationsByName } from '../src/operations/registry.js';
import { openStore } from '../src/storage/open-store.js';
import { dropPostgresSchema } from '../src/storage/postgres/open-postgres.js';
import type { Store } from '../src/storage/store.js';
import { loadWorkspace } from '../src/workspace/load-workspace.js';
import { parseWorkspace } from '../src/workspace/parse-workspace.js';
import { testDeps } from './support/deps.js';
import { principalOf } from './support/organization.js';
import { createTestSchema, selectedStores, TEST_DATABASE_URL } from './support/stores.js';

// Issue 32: the availability truth (a start is listed exactly when check
// calls it available, and exactly then a booking at it is made) holds while
// the configuration changes under it: event type fields, weekly hours, date
// overrides and time off, changed through the self-service operations and
// interleaved with bookings. Two stores on one database stand for two server
// processes: each step is made through one of them at random and every
// answer is read through the other, so a cache in front of the database on
// either side would show as a disagreement.

const T0 = '2026-03-27T00:00:00.000Z';
const DAY_MS = 86_400_000;
const FIVE_MINUTES = 300_000;
const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe'] as const;
const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
const ALL_SCOPES = ['slots:read', 'bookings:create', 'event_types:write', 'availability:read', 'availability:write'] as const;

const hhmm = (steps: number) => `${String(Math.floor(steps / 12)).padStart(2, '0')}:${String((steps % 12) * 5).padStart(2, '0')}`;
/** One interval of a day, on five-minute steps. */
const interval = fc
  .tuple(fc.integer({ min: 0, max: 286 }), fc.integer({ min: 1, max: 288 }))
  .map(([from, length]) => [hhmm(from), from + length >= 288 ? '24:00' : hhmm(from + length)] as [string, string]);
/** Up to two intervals that neither overlap nor touch, in order. */
const dayHours = fc
  .array(interval, { maxLength: 2 })
  .map((list) => list.sort(([a], [b]) => a.localeCompare(b)).filter((it, i, all) => i === 0 || it[0] > all[i - 1]![1]));
/** A day of the three-day window, as a date. */
const windowDay = fc.integer({ min: 1, max: 3 }).map((d) => new Date(Date.parse(T0) + d * DAY_MS).toISOString().slice(0, 10));

const step = fc.oneof(
  fc.record({
    kind: fc.constant('event_type' as const),
    patch: fc.record(
      {
        duration_minutes: fc.integer({ min: 1, max: 24 }).map((n) => n * 5),
        slot_interval_minutes: fc.integer({ min: 1, max: 12 }).map((n) => n * 5),
        buffer_before_minutes: fc.constantFrom(0, 10),
        minimum_notice_minutes: fc.constantFrom(0, 120),
      },
      { requiredKeys: [] },
    ),
  }),
  fc.record({ kind: fc.constant('hours' as const), weekly: fc.dictionary(fc.constantFrom(...WEEKDAYS), dayHours) }),
  fc.record({ kind: fc.constant('override' as const), date: windowDay, intervals: dayHours }),
  fc.record({
    kind: fc.constant('time_off' as const),
    from: fc.integer({ min: 0, max: 4 * 288 }),
    length: fc.integer({ min: 1, max: 288 }),
  }),
  fc.record({ kind: fc.constant('book' as const), pick: fc.double({ min: 0, max: 1, noNaN: true }) }),
);

const scenario = fc.record({
  zone: fc.constantFrom(...ZONES),
  steps: fc.array(fc.record({ via: fc.constantFrom(0, 1), step }), { minLength: 1, maxLength: 5 }),
  probes: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 2, maxLength: 4 }),
});

interface Side {
  readonly store: Store;
  readonly deps: ExecuteDeps;
  readonly owner: Principal;
}

interface StorePair {
  readonly name: 'sqlite' | 'postgres';
  open(): Promise<{ readonly stores: readonly [Store, Store]; cleanup(): Promise<void> }>;
}

/** Two stores on one database: a SQLite file opened twice, or one PostgreSQL schema opened twice. */
function pairs(): StorePair[] {
  return selectedStores<StorePair>([
    {
      name: 'sqlite',
      async open() {
        const dir = mkdtempSync(join(tmpdir(), 'schedule-truth-config-'));
        const file = join(dir, 'shared.db');
        const one = await openStore(file);
        const two = await openStore(file);
        return {
          stores: [one, two],
          cleanup: async () => {
            await Promise.all([one.close(), two.close()]);
            rmSync(dir, { recursive: true });
          },
        };
      },
    },
    {
      name: 'postgres',
      async open() {
        const schema = await createTestSchema();
        const url = `${TEST_DATABASE_URL}?schema=${schema}`;
        const one = await openStore(url);
        const two = await openStore(url);
        return {
          stores: [one, two],
          cleanup: async () => {
            await Promise.all([one.close(), two.close()]);
            await dropPostgresSchema(TEST_DATABASE_URL, schema);
          },
        };
      },
    },
  ]);
}

describe.each(pairs())('list, check and create agree while configuration changes, across two processes on $name (issue 32)', (pair) => {
  const clock = manualClock(T0);
  let sides: [Side, Side];
  let cleanup: () => Promise<unknown>;
  let n = 0;
  const seen = { booked: 0, refused: 0, steps: 0 };

  beforeAll(async () => {
    const opened = await pair.open();
    cleanup = opened.cleanup;
    const [one, two] = opened.stores;
    const secret = 'pat_truth_config_owner';
    await loadWorkspace(
      { store: one, clock, ids: testDeps(one, clock).ids },
      parseWorkspace(
        JSON.stringify({
          users: [{ username: 'owner', email: 'owner@example.test', role: 'owner' }],
          tokens: [{ name: 'owner', user: 'owner', secret, scopes: ALL_SCOPES }],
        }),
      ),
    );
    const side = async (store: Store): Promise<Side> => ({
      store,
      deps: testDeps(store, clock),
      owner: await principalOf({ store, clock }, secret),
    });
    sides = [await side(one), await side(two)];
  });
  afterAll(() => cleanup());

  /** Runs an operation through one side as the owner; a refusal answers its code. */
  async function call(
    side: Side,
    name: OperationName,
    raw: { params?: Record<string, string>; query?: Record<string, unknown>; body?: unknown; ifMatch?: string; key?: string },
  ) {
    try {
      const { outcome } = await execute(
        side.deps,
        operationsByName[name],
        side.owner,
        { params: raw.params ?? {}, query: raw.query ?? {}, body: raw.body, ifMatch: raw.ifMatch, idempotencyKey: raw.key },
        `req-${name}`,
      );
      return outcome as { status: number; data: any; version?: number };
    } catch (error) {
      if (!isScheduleError(error)) throw error;
      return { status: error.code, data: error.details, version: undefined } as unknown as { status: string; data: any; version?: number };
    }
  }

  it('every start is listed exactly when check calls it available and exactly then books, whichever process made the change', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const username = `h${++n}`;
        const eventTypeId = `7e320000-0000-4000-8000-${String(n).padStart(12, '0')}`;
        await loadWorkspace(
          { store: sides[0].store, clock, ids: sides[0].deps.ids },
          parseWorkspace(
            JSON.stringify({
              users: [{ username, email: `${username}@example.test`, timezone: s.zone }],
              event_types: [{ id: eventTypeId, owner: username, slug: 'call', name: 'Call', duration_minutes: 30, future_limit_days: 5 }],
            }),
          ),
        );
        const userId = (await sides[0].store.db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow())
          .id;
        const origin = Date.parse(T0);
        const window = { start: new Date(origin).toISOString(), end: new Date(origin + 4 * DAY_MS).toISOString() };
        const listedOn = async (side: Side) =>
          ((await call(side, 'list_slots', { query: { event_type_id: eventTypeId, ...window } })).data.slots as { start: string }[]).map(
            (slot) => Date.parse(slot.start),
          );

        // Instants the steps made interesting (inside a range of time off, on an overridden day): probed after each step.
        const touched: number[] = [];
        // What was listed before each step: the starts a step took away are the ones most worth asking about.
        let before = await listedOn(sides[0]);
        for (const [i, { via, step }] of s.steps.entries()) {
          const side = sides[via];
          const key = `k-${n}-${i}`;
          seen.steps++;
          if (step.kind === 'event_type') {
            if (Object.keys(step.patch).length === 0) continue;
            const current = await call(side, 'get_event_type', { params: { id: eventTypeId } });
            const changed = await call(side, 'update_event_type', {
              params: { id: eventTypeId },
              body: step.patch,
              ifMatch: `"${current.data.version}"`,
              key,
            });
            expect(changed.status).toBe(200);
          } else if (step.kind === 'hours') {
            const current = await call(side, 'get_availability', { params: { user_id: userId } });
            const replaced = await call(side, 'replace_availability', {
              params: { user_id: userId },
              body: { timezone: s.zone, weekly: step.weekly, overrides: current.data.overrides },
              ifMatch: `"${current.data.version}"`,
              key,
            });
            expect(replaced.status).toBe(200);
          } else if (step.kind === 'override') {
            const day = Date.parse(`${step.date}T00:00:00Z`);
            touched.push(day + 9 * 3_600_000, day + 14 * 3_600_000);
            const added = await call(side, 'add_availability_override', {
              params: { user_id: userId },
              body: { date: step.date, intervals: step.intervals },
              key,
            });
            expect([200, 201]).toContain(added.status);
          } else if (step.kind === 'time_off') {
            const start = origin + step.from * FIVE_MINUTES;
            touched.push(start, start + Math.floor(step.length / 2) * FIVE_MINUTES);
            const created = await call(side, 'create_time_off', {
              params: { user_id: userId },
              body: { start: new Date(start).toISOString(), end: new Date(start + step.length * FIVE_MINUTES).toISOString() },
              key,
            });
            expect(created.status).toBe(201);
          } else {
            const listed = await listedOn(side);
            if (listed.length === 0) continue;
            const at = listed[Math.floor(step.pick * listed.length)]!;
            const booked = await call(side, 'create_booking', {
              body: { event_type_id: eventTypeId, start: new Date(at).toISOString(), attendee: { email: `a${i}@example.com` } },
              key,
            });
            expect(booked.status).toBe(201);
          }

          // Read through the other process: what it lists, checks and books must agree.
          const other = sides[1 - via]!;
          const listed = await listedOn(other);
          const probes = new Set([
            ...listed.slice(0, 2),
            ...before.filter((t) => !listed.includes(t)).slice(0, 4),
            ...touched,
            ...s.probes.map((p) => origin + Math.floor(p * 4 * 288) * FIVE_MINUTES),
          ]);
          for (const t of probes) {
            const start = new Date(t).toISOString();
            const isListed = listed.includes(t);
            const check = await call(other, 'check_slot', { query: { event_type_id: eventTypeId, start } });
            expect({ start, available: check.data.available }).toEqual({ start, available: isListed });
            const created = await call(other, 'create_booking', {
              body: { event_type_id: eventTypeId, start, attendee: { email: 'probe@example.com' } },
              key: `p-${n}-${i}-${t}`,
            });
            expect({ start, status: created.status }).toEqual({ start, status: isListed ? 201 : 'slot_unavailable' });
            if (isListed) {
              seen.booked++;
              // The probe is taken away again: each probe asks about the host as the steps left it.
              await other.store.db.deleteFrom('bookings').where('uid', '=', created.data.uid).execute();
            } else seen.refused++;
          }
          before = listed;
        }
      }),
      { numRuns: Number(process.env.TRUTH_CONFIG_RUNS ?? 25), seed: 20261127 },
    );
    expect(seen.booked).toBeGreaterThan(10);
    expect(seen.refused).toBeGreaterThan(10);
  }, 180_000);
});
