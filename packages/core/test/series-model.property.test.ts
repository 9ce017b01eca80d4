import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../src/auth/principal.js';
import { type ManualClock, manualClock } from '../src/clock.js';
import { isScheduleError } from '../src/errors.js';
import type { ExecuteDeps, Executed } from '../src/operations/execute.js';
import type { Outcome } from '../src/operations/operation.js';
import type { CreateSeriesResult, HostChangeResult, PauseResult, ResumeResult, UpdateSeriesResult } from '../src/series/series-view.js';
import type { Store } from '../src/storage/store.js';
import { DAY_MS, MINUTE_MS, toTimestamp } from '../src/time.js';
import { cancelBooking, rescheduleBooking } from './support/booking-calls.js';
import { testDeps } from './support/deps.js';
import { principalOf } from './support/organization.js';
import { changeSeriesHost, createSeries, endSeries, pauseSeries, resumeSeries, updateSeries } from './support/series-calls.js';
import {
  changedBookings,
  checkInvariants,
  futureConfirmed,
  type ModelSeries,
  resetSeriesData,
  type Snapshot,
  takeSnapshot,
  weeklyBody,
} from './support/series-model.js';
import { loadSeriesWorkspace, S0, SERIES_ET, SERIES_TOKEN, USER } from './support/series-workspace.js';
import { storeFixtures } from './support/stores.js';

// Random runs of every series action, with invitee moves and cancels and the
// clock moving on, on hana and ivan (both Mon-Fri 09:00-17:00 UTC), acted on
// by mona, who manages both. After every step the answer is held against
// what changed in the database, and the rules that always hold are checked.

interface Model {
  readonly series: ModelSeries[];
}

interface Real {
  readonly store: Store;
  readonly deps: ExecuteDeps;
  readonly clock: ManualClock;
  readonly mona: Principal;
}

type Host = 'hana' | 'ivan';
const EVENT_TYPE_OF: Record<Host, string> = { hana: SERIES_ET.weekly, ivan: SERIES_ET.ivanWeekly };
/** Pattern times; 08:00 is before the hosts' working day, so every date of it is skipped. */
const TIMES = ['08:00', '09:00', '10:00', '10:30', '13:00', '16:30'];
const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
/** Half-hour grid starts an invitee may move to; 17:00 is past the working day. */
const MOVE_TIMES = ['09:00', '09:30', '10:00', '11:00', '13:00', '16:30', '17:00'];

/** What a call answered: its outcome, or a documented error. Anything else thrown fails the run. */
type Seen = { ok: true; outcome: Outcome } | { ok: false; code: string; details: Record<string, unknown> };

async function send(run: () => Promise<Executed>): Promise<Seen> {
  try {
    return { ok: true, outcome: (await run()).outcome };
  } catch (error) {
    if (!isScheduleError(error)) throw error;
    return { ok: false, code: error.code, details: error.details };
  }
}

function succeeded(seen: Seen): Outcome {
  if (!seen.ok) throw new Error(`expected a success, got ${seen.code} ${JSON.stringify(seen.details)}`);
  return seen.outcome;
}

const HOUR_MS = 60 * MINUTE_MS;
const ENDED: Seen = { ok: false, code: 'series_ended', details: {} };
const dayOf = (ms: number, days = 0) => new Date(ms + days * DAY_MS).toISOString().slice(0, 10);
const owedIn = (snap: Snapshot, uid: string) => snap.owed.get(uid) ?? 0;

/** The series' row moved on by exactly one version, with `changes`; every other series untouched. */
function expectSeriesStep(before: Snapshot, after: Snapshot, uid: string, changes: Record<string, unknown>) {
  const was = before.series.get(uid)!;
  for (const [other, row] of after.series) {
    if (other !== uid) expect(row).toEqual(before.series.get(other));
  }
  expect(after.series.get(uid)).toEqual({ ...was, version: was.version + 1, ...changes });
}

/** Runs one call between two snapshots; a refusal changes nothing, and the invariants hold after. */
async function act(
  model: Model,
  real: Real,
  run: () => Promise<Executed>,
  judge: (seen: Seen, before: Snapshot, after: Snapshot) => void,
): Promise<void> {
  const before = await takeSnapshot(real.store, real.clock.now());
  const seen = await send(run);
  const after = await takeSnapshot(real.store, real.clock.now());
  if (!seen.ok) {
    expect({ series: after.series, bookings: after.bookings, owed: after.owed }).toEqual({
      series: before.series,
      bookings: before.bookings,
      owed: before.owed,
    });
  }
  judge(seen, before, after);
  checkInvariants(model.series, after);
}

type Cmd = fc.AsyncCommand<Model, Real>;

/** At most this many series in one run, so that runs stay short and series meet each other often. */
const MAX_SERIES = 4;

const command = (name: string, needs: 'series' | 'room' | 'nothing', run: (model: Model, real: Real) => Promise<void>): Cmd => ({
  check: (model) => (needs === 'series' ? model.series.length > 0 : needs === 'room' ? model.series.length < MAX_SERIES : true),
  run,
  toString: () => name,
});

const pick = (model: Model, n: number) => model.series[n % model.series.length]!;

let keys = 0;

const create = fc
  .record({
    host: fc.constantFrom<Host>('hana', 'ivan'),
    weekdays: fc.subarray([...WEEKDAYS], { minLength: 1 }),
    time: fc.constantFrom(...TIMES),
    inDays: fc.nat(9),
    count: fc.integer({ min: 1, max: 8 }),
    link: fc.boolean(),
  })
  .map((c) =>
    command(`create(${JSON.stringify(c)})`, 'room', async (model, real) => {
      const body = weeklyBody({
        host_user_id: USER[c.host],
        event_type_id: EVENT_TYPE_OF[c.host],
        attendee: { email: `invitee${++keys}@example.com`, name: 'Ann Invitee' },
        weekdays: c.weekdays,
        time: c.time,
        starts_on: dayOf(real.clock.now(), c.inDays),
        count: c.count,
        ...(c.link ? { location_url: 'https://meet.example.com/first' } : {}),
      });
      await act(
        model,
        real,
        () => createSeries(real.deps, real.mona, body),
        (seen, before, after) => {
          if (!seen.ok) {
            expect(seen.code).toBe('no_dates_free');
            expect((seen.details.skipped as unknown[]).length).toBe(c.count);
            return;
          }
          const data = seen.outcome.data as CreateSeriesResult;
          expect(data.occurrences.length + data.skipped.length).toBe(c.count);
          expect(after.series.get(data.series.uid)).toMatchObject({ version: 1, status: 'active', host_user_id: USER[c.host] });
          const changed = changedBookings(before, after);
          expect(changed.every((ch) => ch.before === undefined && ch.after.series_uid === data.series.uid)).toBe(true);
          expect(changed.map((ch) => ch.after.uid).sort()).toEqual(data.occurrences.map((o) => o.uid).sort());
          model.series.push({
            uid: data.series.uid,
            count: c.count,
            hasLocation: c.link,
            weekdays: c.weekdays,
            time: c.time,
            live: data.occurrences.length,
            ended: null,
          });
        },
      );
    }),
  );

const pause = fc.nat().map((n) =>
  command(`pause(${n})`, 'series', async (model, real) => {
    const s = pick(model, n);
    await act(
      model,
      real,
      () => pauseSeries(real.deps, real.mona, s.uid),
      (seen, before, after) => {
        if (s.ended) return void expect(seen).toEqual(ENDED);
        const data = succeeded(seen).data as PauseResult;
        const changed = changedBookings(before, after);
        const held = changed.filter(
          (ch) => ch.before?.status === 'confirmed' && ch.after.status === 'canceled' && ch.after.canceled_by === 'pause',
        );
        expect(data).toEqual({ held: held.length, superseded: false });
        expect(changed.length).toBe(held.length);
        expect(held.every((ch) => ch.after.series_uid === s.uid)).toBe(true);
        expect(owedIn(after, s.uid)).toBe(owedIn(before, s.uid) + held.length);
        expect(futureConfirmed(after, s.uid).filter((b) => b.moved_by_invitee === 0)).toEqual([]);
        expectSeriesStep(before, after, s.uid, { status: 'paused' });
      },
    );
  }),
);

const resume = fc.nat().map((n) =>
  command(`resume(${n})`, 'series', async (model, real) => {
    const s = pick(model, n);
    await act(
      model,
      real,
      () => resumeSeries(real.deps, real.mona, s.uid),
      (seen, before, after) => {
        if (s.ended) return void expect(seen).toEqual(ENDED);
        const data = succeeded(seen).data as ResumeResult;
        const changed = changedBookings(before, after);
        const created = changed.filter((ch) => ch.before === undefined && ch.after.status === 'confirmed');
        const owed = owedIn(after, s.uid);
        expect(data).toEqual({ created: created.length, skipped: data.skipped, owed, superseded: false });
        expect(changed.length).toBe(created.length);
        expect(created.every((ch) => ch.after.series_uid === s.uid && ch.after.rescheduled_from_uid !== null)).toBe(true);
        // One target per owed entry: booked, or reported skipped and still owed.
        expect(created.length + data.skipped.length).toBe(owedIn(before, s.uid));
        expect(owed).toBe(data.skipped.length);
        expectSeriesStep(before, after, s.uid, { status: owed === 0 ? 'active' : before.series.get(s.uid)!.status });
      },
    );
  }),
);

const end = fc.nat().map((n) =>
  command(`end(${n})`, 'series', async (model, real) => {
    const s = pick(model, n);
    await act(
      model,
      real,
      () => endSeries(real.deps, real.mona, s.uid),
      (seen, before, after) => {
        if (s.ended) return void expect(seen).toEqual(ENDED);
        const data = succeeded(seen).data;
        const changed = changedBookings(before, after);
        const canceled = changed.filter(
          (ch) => ch.before?.status === 'confirmed' && ch.after.status === 'canceled' && ch.after.canceled_by === 'end',
        );
        expect(data).toEqual({ canceled: canceled.length, superseded: false });
        expect(changed.length).toBe(canceled.length);
        expect(canceled.every((ch) => ch.after.series_uid === s.uid)).toBe(true);
        const endedAt = toTimestamp(real.clock.now());
        expectSeriesStep(before, after, s.uid, { status: 'ended', ended_at: endedAt });
        s.live -= canceled.length + owedIn(before, s.uid);
        const stillConfirmed = [...after.bookings.values()].filter((b) => b.series_uid === s.uid && b.status === 'confirmed');
        s.ended = { endedAt, confirmed: new Set(stillConfirmed.map((b) => b.uid)) };
      },
    );
  }),
);

const changeHost = fc.record({ n: fc.nat(), to: fc.constantFrom<Host>('hana', 'ivan') }).map(({ n, to }) =>
  command(`host(${n}, ${to})`, 'series', async (model, real) => {
    const s = pick(model, n);
    const newHost = USER[to];
    await act(
      model,
      real,
      () => changeSeriesHost(real.deps, real.mona, s.uid, { host_user_id: newHost }),
      (seen, before, after) => {
        if (s.ended) return void expect(seen).toEqual(ENDED);
        const data = succeeded(seen).data as HostChangeResult;
        const future = futureConfirmed(before, s.uid);
        const toMove = future.filter((b) => b.host_user_id !== newHost);
        const changed = changedBookings(before, after);
        const moved = changed.filter((ch) => ch.before !== undefined && ch.before.host_user_id !== ch.after.host_user_id);
        expect(changed.length).toBe(moved.length);
        // Moved in start order, each to the new host at its own time, until the new host was not free.
        expect(moved.map((ch) => ch.after.uid).sort()).toEqual(
          toMove
            .slice(0, moved.length)
            .map((b) => b.uid)
            .sort(),
        );
        expect(moved.every((ch) => ch.after.host_user_id === newHost && ch.after.start_at === ch.before!.start_at)).toBe(true);
        const stoppedBy = moved.length === toMove.length ? null : 'slot_unavailable';
        expect(data).toEqual({
          moved: moved.length,
          unchanged: future.length - toMove.length,
          stopped_by: stoppedBy,
          superseded: false,
        });
        expectSeriesStep(before, after, s.uid, stoppedBy === null ? { host_user_id: newHost } : {});
      },
    );
  }),
);

type PatchChange = { time: string } | { weekdays: string[] } | { location_url: string };

const patch = fc
  .record({
    n: fc.nat(),
    change: fc.oneof(
      fc.constantFrom(...TIMES).map((time): PatchChange => ({ time })),
      fc.subarray([...WEEKDAYS], { minLength: 1 }).map((weekdays): PatchChange => ({ weekdays })),
      fc
        .constantFrom('https://meet.example.com/second', 'https://meet.example.com/third')
        .map((url): PatchChange => ({ location_url: url })),
    ),
  })
  .map(({ n, change }) =>
    command(`patch(${n}, ${JSON.stringify(change)})`, 'series', async (model, real) => {
      const s = pick(model, n);
      const version = (await takeSnapshot(real.store, real.clock.now())).series.get(s.uid)!.version;
      await act(
        model,
        real,
        () => updateSeries(real.deps, real.mona, s.uid, change, { ifMatch: `"${version}"` }),
        (seen, before, after) => {
          if (s.ended) return void expect(seen).toEqual(ENDED);
          if ('location_url' in change && !s.hasLocation) {
            return void expect(seen).toEqual({ ok: false, code: 'invalid_change', details: { fields: ['location_url'] } });
          }
          const outcome = succeeded(seen);
          const data = outcome.data as UpdateSeriesResult;
          const row = after.series.get(s.uid)!;
          expect([outcome.version, data.series.version, data.series.status]).toEqual([row.version, row.version, row.status]);
          const changed = changedBookings(before, after);
          if ('location_url' in change) {
            expect(data.resumed).toBeNull();
            expect(changed.every((ch) => ch.after.series_uid === s.uid && ch.after.start_at === ch.before?.start_at)).toBe(true);
            const location = { type: 'link', url: change.location_url, value: null };
            expect(
              futureConfirmed(after, s.uid).filter((b) => JSON.stringify(JSON.parse(b.location_json)) !== JSON.stringify(location)),
            ).toEqual([]);
            return expectSeriesStep(before, after, s.uid, { location_url: change.location_url });
          }
          const held = changed.filter(
            (ch) => ch.before?.status === 'confirmed' && ch.after.status === 'canceled' && ch.after.canceled_by === 'update',
          );
          const created = changed.filter((ch) => ch.before === undefined && ch.after.status === 'confirmed');
          const owed = owedIn(after, s.uid);
          expect(data.resumed).toEqual({ created: created.length, skipped: data.resumed?.skipped, owed, superseded: false });
          expect(changed.length).toBe(held.length + created.length);
          expect([...held, ...created].every((ch) => ch.after.series_uid === s.uid)).toBe(true);
          expect(created.length + data.resumed!.skipped.length).toBe(owedIn(before, s.uid) + held.length);
          expect(owed).toBe(data.resumed!.skipped.length);
          if ('time' in change) s.time = change.time;
          else s.weekdays = change.weekdays;
          expectSeriesStep(before, after, s.uid, {});
        },
      );
    }),
  );

/** An invitee action on one future confirmed occurrence of a series; nothing to do when it has none. */
function onOccurrence(
  name: string,
  n: number,
  occurrence: number,
  call: (real: Real, uid: string) => Promise<Executed>,
  judge: (seen: Seen, s: ModelSeries, uid: string, before: Snapshot, after: Snapshot) => void,
): Cmd {
  return command(name, 'series', async (model, real) => {
    const s = pick(model, n);
    const targets = futureConfirmed(await takeSnapshot(real.store, real.clock.now()), s.uid);
    const target = targets[occurrence % Math.max(targets.length, 1)];
    if (!target) return;
    await act(
      model,
      real,
      () => call(real, target.uid),
      (seen, before, after) => {
        judge(seen, s, target.uid, before, after);
        // Booking endpoints never touch the series row.
        expect(after.series).toEqual(before.series);
      },
    );
  });
}

const reschedule = fc
  .record({ n: fc.nat(), occurrence: fc.nat(), inDays: fc.nat(13), time: fc.constantFrom(...MOVE_TIMES) })
  .map(({ n, occurrence, inDays, time }) => {
    let start = '';
    return onOccurrence(
      `reschedule(${n}, ${occurrence}, +${inDays}d ${time})`,
      n,
      occurrence,
      (real, uid) => {
        start = `${dayOf(real.clock.now(), inDays)}T${time}:00.000Z`;
        return rescheduleBooking(real.deps, real.mona, uid, { start }, `model-move-${++keys}`);
      },
      (seen, _s, uid, before, after) => {
        if (!seen.ok) return void expect(['slot_unavailable', 'slot_in_past']).toContain(seen.code);
        const was = before.bookings.get(uid)!;
        expect(changedBookings(before, after).map((ch) => ch.after)).toEqual([
          {
            ...was,
            start_at: start,
            end_at: toTimestamp(Date.parse(start) + 30 * MINUTE_MS),
            moved_by_invitee: 1,
            version: was.version + 1,
          },
        ]);
      },
    );
  });

const cancel = fc.record({ n: fc.nat(), occurrence: fc.nat() }).map(({ n, occurrence }) =>
  onOccurrence(
    `cancel(${n}, ${occurrence})`,
    n,
    occurrence,
    (real, uid) => cancelBooking(real.deps, real.mona, uid, {}, `model-cancel-${++keys}`),
    (seen, s, uid, before, after) => {
      succeeded(seen);
      const was = before.bookings.get(uid)!;
      expect(changedBookings(before, after).map((ch) => ch.after)).toEqual([{ ...was, status: 'canceled', version: was.version + 1 }]);
      s.live -= 1;
    },
  ),
);

const advance = fc
  .oneof(
    { arbitrary: fc.integer({ min: 1, max: 30 }).map((h) => h * HOUR_MS), weight: 3 },
    { arbitrary: fc.integer({ min: 1, max: 5 }).map((d) => d * DAY_MS), weight: 1 },
  )
  .map((ms) =>
    command(`advance(${ms / HOUR_MS}h)`, 'nothing', async (model, real) => {
      real.clock.advance(ms);
      checkInvariants(model.series, await takeSnapshot(real.store, real.clock.now()));
    }),
  );

// Weighted by repetition: series are created early, end (terminal) comes rarely, and pause and resume meet often.
const COMMANDS = [
  create,
  create,
  pause,
  pause,
  resume,
  resume,
  resume,
  end,
  changeHost,
  changeHost,
  patch,
  patch,
  reschedule,
  reschedule,
  cancel,
  advance,
];

describe.each(storeFixtures())('the series model on $name', (fixture) => {
  let store: Store;
  const clock = manualClock(S0);
  let deps: ExecuteDeps;
  let mona: Principal;

  beforeAll(async () => {
    store = await fixture.open();
    deps = testDeps(store, clock);
    await loadSeriesWorkspace({ store, clock });
    mona = await principalOf({ store, clock }, SERIES_TOKEN.mona);
  });
  afterAll(() => fixture.cleanup());

  it('keeps hosts unbooked twice, held plus owed within count, ended terminal, counts true to the database, one version per action', async () => {
    await fc.assert(
      fc.asyncProperty(fc.commands(COMMANDS, { maxCommands: 40, size: 'max' }), async (commands) => {
        clock.set(S0);
        await resetSeriesData(store);
        await fc.asyncModelRun(() => ({ model: { series: [] }, real: { store, deps, clock, mona } }), commands);
      }),
      { numRuns: fixture.name === 'sqlite' ? 50 : 20 },
    );
  }, 60_000);
});
