import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Principal } from '../src/auth/principal.js';
import type { CalendarReader } from '../src/availability/calendar-reader.js';
import { manualClock } from '../src/clock.js';
import { randomIds } from '../src/ids.js';
import { dispatchNotifications } from '../src/notifications/dispatch-notifications.js';
import type { Mail } from '../src/notifications/mailer.js';
import type { ExecuteDeps, Executed } from '../src/operations/execute.js';
import { HOLD_LEASE_MS } from '../src/series/series-hold.js';
import type { Store } from '../src/storage/store.js';
import { cancelBooking, createBooking } from './support/booking-calls.js';
import { testDeps } from './support/deps.js';
import { scheduleErrorOf } from './support/errors.js';
import { principalOf } from './support/organization.js';
import {
  changeSeriesHost,
  createSeries,
  endSeries,
  occurrenceRowsOf,
  owedRowsOf,
  pauseSeries,
  resumeSeries,
  updateSeries,
} from './support/series-calls.js';
import { allSeriesOf, createdSeries, resetSeriesData, seriesStateOf, weeklyBody } from './support/series-model.js';
import { HOST_OF, loadSeriesWorkspace, S0, SERIES_ET, SERIES_TOKEN, USER } from './support/series-workspace.js';
import { sharedDatabases } from './support/shared-database.js';
import { reachStep, stepAt, stepGate } from './support/step-gate.js';
import { storeFixtures } from './support/stores.js';

// docs/api/series.md "Busy and superseded", pinned by interleaving two actions
// exactly with the step hook: the first action waits at a step, the second
// runs to the end, then the first goes on. No sleeps, no timers.

/** Mondays at 10:00 UTC from the week of S0 (Monday 2026-03-02, 08:00). */
const MON = (day: number, time = '10:00') => `2026-03-${String(day).padStart(2, '0')}T${time}:00.000Z`;

const BUSY = {
  code: 'series_busy',
  message:
    'Something holds the series (another action is starting, or a mail about it is being sent); nothing changed. Read the series and retry.',
  details: {},
  retryAfterSeconds: undefined,
};
const ENDED = { code: 'series_ended', details: {}, retryAfterSeconds: undefined };

/** Each occurrence as [start, status, canceled_by, host]. */
async function occurrencesOf(store: Store, uid: string) {
  return (await occurrenceRowsOf(store, uid)).map((o) => [o.start_at, o.status, o.canceled_by, o.host_user_id]);
}

describe.each(storeFixtures())('series actions interleaved on $name', (fixture) => {
  let store: Store;
  const clock = manualClock(S0);
  let mona: Principal;
  let hana: Principal;

  beforeAll(async () => {
    store = await fixture.open();
    await loadSeriesWorkspace({ store, clock });
    mona = await principalOf({ store, clock }, SERIES_TOKEN.mona);
    hana = await principalOf({ store, clock }, SERIES_TOKEN.hana);
  });
  beforeEach(async () => {
    clock.set(S0);
    await resetSeriesData(store);
  });
  afterAll(() => fixture.cleanup());

  it('a create passes a step before each occurrence it writes, naming the series and the occurrence’s index', async () => {
    const gate = stepGate();
    const deps = testDeps(store, clock, { steps: gate.hook });

    const uid = await createdSeries(deps, mona, { count: 3 });

    expect(gate.seen).toEqual([0, 1, 2].map((index) => ({ action: 'create', phase: 'occurrence', seriesUid: uid, index })));
  });

  it('a create whose dates are all booked after its calendar read is refused with 409 no_dates_free under the host’s lock; nothing is written', async () => {
    const plain = testDeps(store, clock);
    // The bookings land while the create reads the host's calendars, before it takes the host's lock.
    let booked = false;
    const bookingWhileRead: CalendarReader = {
      async busy(calendars, range, zone) {
        if (!booked) {
          booked = true;
          for (const day of [2, 9]) {
            const body = { event_type_id: SERIES_ET.weekly, start: MON(day), attendee: { email: 'dan@example.com' } };
            expect((await createBooking(plain, hana, body, `taken-${day}`)).outcome.status).toBe(201);
          }
        }
        return plain.calendars.busy(calendars, range, zone);
      },
    };
    const deps = testDeps(store, clock, { calendars: bookingWhileRead });

    expect(await scheduleErrorOf(createSeries(deps, mona, weeklyBody({ count: 2 })))).toEqual({
      code: 'no_dates_free',
      message: 'The host is free on none of the pattern dates; nothing was created.',
      details: {
        skipped: [2, 9].map((day) => ({ date: `2026-03-0${day}`, start_at: MON(day), reason: 'conflict', cause: 'busy' })),
      },
      retryAfterSeconds: undefined,
    });
    expect(booked).toBe(true);
    expect(await allSeriesOf(store)).toEqual([]);
  });

  it('a replacement step whose owed entry is no longer there books nothing for it and reports no skip', async () => {
    const gate = stepGate();
    const deps = testDeps(store, clock, { steps: gate.hook });
    const uid = await createdSeries(deps, mona, { count: 3 });
    expect((await pauseSeries(deps, mona, uid)).outcome.data).toEqual({ held: 3, superseded: false });

    const held = gate.holdAt(stepAt('resume', 'item', 0));
    const resuming = resumeSeries(deps, mona, uid);
    await reachStep(held, resuming);
    // Only a replacement step settles an entry; one removed behind the series' back (a hand-edited database) is not booked.
    await store.db.deleteFrom('series_owed').where('series_uid', '=', uid).where('pattern_instant', '=', MON(2)).execute();
    held.release();

    expect((await resuming).outcome).toEqual({ status: 200, data: { created: 2, skipped: [], owed: 0, superseded: false } });
    expect((await occurrenceRowsOf(store, uid)).filter((o) => o.status === 'confirmed').map((o) => o.start_at)).toEqual([MON(9), MON(16)]);
  });

  it('a pause overtaken by end answers superseded with what it held; end cancels the rest and clears owed', async () => {
    const gate = stepGate();
    const deps = testDeps(store, clock, { steps: gate.hook });
    const uid = await createdSeries(deps, mona, { count: 5 });

    const held = gate.holdAt(stepAt('pause', 'item', 2));
    const pausing = pauseSeries(deps, mona, uid);
    await reachStep(held, pausing);
    expect((await endSeries(deps, mona, uid)).outcome).toEqual({ status: 200, data: { canceled: 3, superseded: false } });
    held.release();
    expect((await pausing).outcome).toEqual({ status: 200, data: { held: 2, superseded: true } });

    expect(await occurrencesOf(store, uid)).toEqual([
      [MON(2), 'canceled', 'pause', USER.hana],
      [MON(9), 'canceled', 'pause', USER.hana],
      [MON(16), 'canceled', 'end', USER.hana],
      [MON(23), 'canceled', 'end', USER.hana],
      [MON(30), 'canceled', 'end', USER.hana],
    ]);
    expect(await owedRowsOf(store, uid)).toEqual([]);
    expect(await seriesStateOf(store, uid)).toMatchObject({ status: 'ended', version: 3, ended_at: S0, hold_token: null });
  });

  it('a resume overtaken by a pattern PATCH stops; the PATCH re-targets everything owed and no instant is booked twice', async () => {
    const gate = stepGate();
    const deps = testDeps(store, clock, { steps: gate.hook });
    const uid = await createdSeries(deps, mona, { count: 4 });
    expect((await pauseSeries(deps, mona, uid)).outcome.data).toEqual({ held: 4, superseded: false });

    const held = gate.holdAt(stepAt('resume', 'item', 1));
    const resuming = resumeSeries(deps, mona, uid);
    await reachStep(held, resuming);
    // The resume has booked Monday 2 at 10:00 again (rule 1), and is about to book the 9th.
    const patched = await updateSeries(deps, mona, uid, { time: '11:00' }, { ifMatch: '"3"' });
    expect(patched.outcome).toEqual({
      status: 200,
      version: 4,
      data: {
        series: {
          uid,
          version: 4,
          event_type: { id: SERIES_ET.weekly, slug: 'weekly', name: 'Weekly' },
          host: HOST_OF.hana,
          attendee: { name: 'Ann Invitee', email: 'ann@example.com', phone: null },
          frequency: 'weekly',
          interval_weeks: 1,
          weekdays: ['mon'],
          time: '11:00',
          timezone: 'UTC',
          starts_on: '2026-03-02',
          count: 4,
          // docs/api/choices.md: a PATCH keeps the status; the resume that would make it active was overtaken.
          status: 'paused',
          location_url: null,
          notify_invitee: false,
          source: 'api',
          created_at: S0,
          updated_at: S0,
          ended_at: null,
        },
        // The resumed 10:00 occurrence is held again; all four owed go to the new pattern's next instants (rule 2).
        resumed: { created: 4, skipped: [], owed: 0, superseded: false },
      },
    });
    held.release();
    expect((await resuming).outcome).toEqual({ status: 200, data: { created: 1, skipped: [], owed: 0, superseded: true } });

    const rows = await occurrenceRowsOf(store, uid);
    const confirmed = rows.filter((o) => o.status === 'confirmed');
    expect(confirmed.map((o) => [o.start_at, o.pattern_instant])).toEqual([
      [MON(2, '11:00'), MON(2, '11:00')],
      [MON(9, '11:00'), MON(9, '11:00')],
      [MON(16, '11:00'), MON(16, '11:00')],
      [MON(23, '11:00'), MON(23, '11:00')],
    ]);
    expect(new Set(confirmed.map((o) => o.pattern_instant)).size).toBe(confirmed.length);
    expect(confirmed.length + (await owedRowsOf(store, uid)).length).toBe(4);
    // The resume's one replacement was held by the PATCH, and its replacement names it.
    const resumed = rows.filter((o) => o.start_at === MON(2) && o.canceled_by === 'update');
    expect(resumed).toHaveLength(1);
    expect(confirmed[0]!.rescheduled_from_uid).toBe(resumed[0]!.uid);
    expect(await seriesStateOf(store, uid)).toMatchObject({ status: 'paused', version: 4, time: '11:00', hold_token: null });
  });

  it('a host change overtaken by pause stops with stopped_by superseded; pause held occurrences on both hosts', async () => {
    const gate = stepGate();
    const deps = testDeps(store, clock, { steps: gate.hook });
    const uid = await createdSeries(deps, mona, { count: 3 });

    const held = gate.holdAt(stepAt('change_host', 'item', 1));
    const moving = changeSeriesHost(deps, mona, uid, { host_user_id: USER.ivan });
    await reachStep(held, moving);
    expect((await pauseSeries(deps, mona, uid)).outcome).toEqual({ status: 200, data: { held: 3, superseded: false } });
    held.release();
    expect((await moving).outcome).toEqual({
      status: 200,
      data: { moved: 1, unchanged: 0, stopped_by: 'superseded', superseded: true },
    });

    // It stops at the item that found the series taken over, trying no later one.
    expect(gate.seen.filter(stepAt('change_host', 'item')).map((step) => ('index' in step ? step.index : -1))).toEqual([0, 1]);
    expect(await occurrencesOf(store, uid)).toEqual([
      [MON(2), 'canceled', 'pause', USER.ivan],
      [MON(9), 'canceled', 'pause', USER.hana],
      [MON(16), 'canceled', 'pause', USER.hana],
    ]);
    expect((await owedRowsOf(store, uid)).map((o) => o.pattern_instant)).toEqual([MON(2), MON(9), MON(16)]);
    expect(await seriesStateOf(store, uid)).toMatchObject({ status: 'paused', version: 3, host_user_id: USER.hana, hold_token: null });
  });

  it('a host change overtaken after its last move answers superseded and leaves the series on its old host', async () => {
    const gate = stepGate();
    const deps = testDeps(store, clock, { steps: gate.hook });
    const uid = await createdSeries(deps, mona, { count: 2 });

    const held = gate.holdAt(stepAt('change_host', 'finish'));
    const moving = changeSeriesHost(deps, mona, uid, { host_user_id: USER.ivan });
    await reachStep(held, moving);
    expect((await pauseSeries(deps, mona, uid)).outcome).toEqual({ status: 200, data: { held: 2, superseded: false } });
    held.release();

    expect((await moving).outcome).toEqual({
      status: 200,
      data: { moved: 2, unchanged: 0, stopped_by: 'superseded', superseded: true },
    });
    expect(await seriesStateOf(store, uid)).toMatchObject({ status: 'paused', version: 3, host_user_id: USER.hana });
  });

  it('a host change passes over an occurrence canceled before its step and one whose start has come by then, and moves the rest', async () => {
    const gate = stepGate();
    const deps = testDeps(store, clock, { steps: gate.hook });
    const uid = await createdSeries(deps, mona, { count: 4 });
    const last = (await occurrenceRowsOf(store, uid))[3]!.uid;

    const held = gate.holdAt(stepAt('change_host', 'item', 1));
    const moving = changeSeriesHost(deps, mona, uid, { host_user_id: USER.ivan });
    await reachStep(held, moving);
    // The second occurrence starts exactly now: it is no longer future. The last one is canceled.
    clock.set(MON(9));
    await cancelBooking(deps, hana, last, {}, 'cancel-last');
    held.release();

    expect((await moving).outcome).toEqual({ status: 200, data: { moved: 2, unchanged: 0, stopped_by: null, superseded: false } });
    expect(await occurrencesOf(store, uid)).toEqual([
      [MON(2), 'confirmed', null, USER.ivan],
      [MON(9), 'confirmed', null, USER.hana],
      [MON(16), 'confirmed', null, USER.ivan],
      [MON(23), 'canceled', null, USER.hana],
    ]);
  });

  it('every action is 409 series_busy and changes nothing while another holds its first write', async () => {
    const gate = stepGate();
    const deps = testDeps(store, clock, { steps: gate.hook });
    const uid = await createdSeries(deps, mona, { count: 3 });
    const before = await occurrenceRowsOf(store, uid);

    const held = gate.holdAt(stepAt('pause', 'first_write'));
    const pausing = pauseSeries(deps, mona, uid);
    await reachStep(held, pausing);
    const attempts: [string, () => Promise<Executed>][] = [
      ['resume', () => resumeSeries(deps, mona, uid)],
      ['end', () => endSeries(deps, mona, uid)],
      ['patch', () => updateSeries(deps, mona, uid, { time: '11:00' }, { ifMatch: '"1"' })],
      ['host', () => changeSeriesHost(deps, mona, uid, { host_user_id: USER.ivan })],
      ['pause', () => pauseSeries(deps, mona, uid)],
    ];
    for (const [name, attempt] of attempts) {
      expect([name, await scheduleErrorOf(attempt)]).toEqual([name, BUSY]);
      expect(await seriesStateOf(store, uid)).toMatchObject({ version: 1, status: 'active', host_user_id: USER.hana, time: '10:00' });
      expect(await occurrenceRowsOf(store, uid)).toEqual(before);
      expect(await owedRowsOf(store, uid)).toEqual([]);
    }
    held.release();
    expect((await pausing).outcome).toEqual({ status: 200, data: { held: 3, superseded: false } });
    expect(await seriesStateOf(store, uid)).toMatchObject({ version: 2, status: 'paused', hold_token: null });
  });

  it('a pause is 409 series_busy while a mail about the series is being sent, and goes through after', async () => {
    const gate = stepGate();
    const deps = testDeps(store, clock, { steps: gate.hook });
    const uid = await createdSeries(deps, mona, { count: 2, notify_invitee: true });
    // The series' own mail alone: its occurrences' invites go as booking mail, which holds no series (docs/mail.md).
    await store.db.deleteFrom('notifications').where('kind', 'not like', 'series_%').execute();
    const sent: Mail[] = [];
    const mailer = { send: async (mail: Mail) => void sent.push(mail) };

    const held = gate.holdAt(stepAt('mail', 'sending'));
    const dispatching = dispatchNotifications({ store, clock, ids: randomIds, mailer, steps: gate.hook });
    await reachStep(held, dispatching);
    expect(await scheduleErrorOf(pauseSeries(deps, mona, uid))).toEqual({
      ...BUSY,
      message:
        'Something holds the series (another action is starting, or a mail about it is being sent); nothing changed. Read the series and retry.',
    });
    expect(await seriesStateOf(store, uid)).toMatchObject({ version: 1, status: 'active' });
    held.release();
    expect(await dispatching).toEqual({ sent: 1, suppressed: 0, failed: 0, deferred: 0 });
    expect(sent.map((m) => [m.kind, m.seriesUid, m.to])).toEqual([['series_confirmation', uid, 'ann@example.com']]);

    expect((await pauseSeries(deps, mona, uid)).outcome).toEqual({ status: 200, data: { held: 2, superseded: false } });
    expect(await seriesStateOf(store, uid)).toMatchObject({ version: 2, status: 'paused', hold_token: null });
  });

  it('an end overtaken by a re-run of end stops; the re-run finishes it, and end is then series_ended', async () => {
    const gate = stepGate();
    const deps = testDeps(store, clock, { steps: gate.hook });
    const uid = await createdSeries(deps, mona, { count: 3 });

    const held = gate.holdAt(stepAt('end', 'item', 1));
    const ending = endSeries(deps, mona, uid);
    await reachStep(held, ending);
    // Ended from its first write on: only end itself may run again, to finish what is unfinished.
    expect(await scheduleErrorOf(pauseSeries(deps, mona, uid))).toEqual({
      ...ENDED,
      message: 'The series is ended; nothing can change it.',
    });
    expect((await endSeries(deps, mona, uid)).outcome).toEqual({ status: 200, data: { canceled: 2, superseded: false } });
    held.release();
    expect((await ending).outcome).toEqual({ status: 200, data: { canceled: 1, superseded: true } });

    expect(await scheduleErrorOf(endSeries(deps, mona, uid))).toEqual({ ...ENDED, message: 'The series is ended; nothing can change it.' });
    expect(await occurrencesOf(store, uid)).toEqual([
      [MON(2), 'canceled', 'end', USER.hana],
      [MON(9), 'canceled', 'end', USER.hana],
      [MON(16), 'canceled', 'end', USER.hana],
    ]);
    expect(await seriesStateOf(store, uid)).toMatchObject({ status: 'ended', version: 3, ended_at: S0, hold_token: null });
  });

  it('a hold frees the series once its lease ran out, never earlier; its late holder is then series_busy and writes nothing', async () => {
    const gate = stepGate();
    const deps = testDeps(store, clock, { steps: gate.hook });
    const uid = await createdSeries(deps, mona, { count: 2 });

    const held = gate.holdAt(stepAt('pause', 'first_write'));
    const pausing = pauseSeries(deps, mona, uid);
    await reachStep(held, pausing);
    clock.advance(HOLD_LEASE_MS - 1);
    expect(await scheduleErrorOf(endSeries(deps, mona, uid))).toEqual({
      ...BUSY,
      message:
        'Something holds the series (another action is starting, or a mail about it is being sent); nothing changed. Read the series and retry.',
    });
    clock.advance(1);
    expect((await changeSeriesHost(deps, mona, uid, { host_user_id: USER.ivan })).outcome.data).toEqual({
      moved: 2,
      unchanged: 0,
      stopped_by: null,
      superseded: false,
    });
    held.release();
    expect(await scheduleErrorOf(pausing)).toEqual({
      ...BUSY,
      message:
        'Something holds the series (another action is starting, or a mail about it is being sent); nothing changed. Read the series and retry.',
    });

    expect((await occurrenceRowsOf(store, uid)).map((o) => [o.status, o.host_user_id])).toEqual([
      ['confirmed', USER.ivan],
      ['confirmed', USER.ivan],
    ]);
    expect(await seriesStateOf(store, uid)).toMatchObject({ status: 'active', version: 2, host_user_id: USER.ivan, hold_token: null });
  });

  it('a mail about a series held by an action waits for a later pass', async () => {
    const gate = stepGate();
    const deps = testDeps(store, clock, { steps: gate.hook });
    const uid = await createdSeries(deps, mona, { count: 2, notify_invitee: true });
    // The series' own mail alone: its occurrences' invites go as booking mail, which holds no series (docs/mail.md).
    await store.db.deleteFrom('notifications').where('kind', 'not like', 'series_%').execute();
    const sent: Mail[] = [];
    const dispatchDeps = { store, clock, ids: randomIds, mailer: { send: async (mail: Mail) => void sent.push(mail) } };

    const held = gate.holdAt(stepAt('pause', 'first_write'));
    const pausing = pauseSeries(deps, mona, uid);
    await reachStep(held, pausing);
    expect(await dispatchNotifications(dispatchDeps)).toEqual({ sent: 0, suppressed: 0, failed: 0, deferred: 1 });
    held.release();
    expect((await pausing).outcome.data).toEqual({ held: 2, superseded: false });
    expect(sent).toEqual([]);

    clock.advance(60_000);
    expect(await dispatchNotifications(dispatchDeps)).toEqual({ sent: 1, suppressed: 0, failed: 0, deferred: 0 });
    expect(sent.map((m) => [m.kind, m.seriesUid])).toEqual([['series_confirmation', uid]]);
  });

  it('an action whose first write fails lets go of the series: the next action is not busy', async () => {
    const deps = testDeps(store, clock);
    const uid = await createdSeries(deps, mona, { count: 3 });
    const crashing = testDeps(store, clock, {
      steps: (step) => {
        if (step.phase === 'first_write') throw new Error('crash at the first write');
      },
    });

    await expect(pauseSeries(crashing, mona, uid)).rejects.toThrow('crash at the first write');
    expect(await seriesStateOf(store, uid)).toMatchObject({ version: 1, status: 'active', hold_token: null });
    expect((await occurrenceRowsOf(store, uid)).map((o) => o.status)).toEqual(['confirmed', 'confirmed', 'confirmed']);

    expect((await pauseSeries(deps, mona, uid)).outcome).toEqual({ status: 200, data: { held: 3, superseded: false } });
    expect(await seriesStateOf(store, uid)).toMatchObject({ version: 2, status: 'paused', hold_token: null });
  });
});

// Two Stores on one database are two server processes. PostgreSQL only: two
// better-sqlite3 connections in one thread cannot wait on each other (see
// create-booking-race.test.ts).
const twoPostgresStores = sharedDatabases().filter((shared) => shared.name === 'postgres');

describe.each(twoPostgresStores)('series actions fenced across two Stores on one $name database', (shared) => {
  let first: Store;
  let second: Store;
  const clock = manualClock(S0);
  let mona: Principal;

  beforeAll(async () => {
    [first, second] = await shared.open();
    await loadSeriesWorkspace({ store: first, clock });
    mona = await principalOf({ store: second, clock }, SERIES_TOKEN.mona);
  });
  beforeEach(async () => {
    clock.set(S0);
    await resetSeriesData(first);
  });
  afterAll(() => shared.cleanup());

  /** The series events the outbox holds, by name (all carry the pinned clock's time, so their order is not kept). */
  const seriesEventsOf = async (uid: string) =>
    (await first.db.selectFrom('outbox').select('event_type').where('subject_uid', '=', uid).execute()).map((e) => e.event_type).sort();

  it('a pause on one Store writes nothing after an end on the other Store took the series over', async () => {
    const gate = stepGate();
    const one: ExecuteDeps = testDeps(first, clock, { steps: gate.hook });
    const two: ExecuteDeps = testDeps(second, clock);
    const uid = await createdSeries(one, mona, { count: 3 });

    const held = gate.holdAt(stepAt('pause', 'item', 1));
    const pausing = pauseSeries(one, mona, uid);
    await reachStep(held, pausing);
    expect((await endSeries(two, mona, uid)).outcome).toEqual({ status: 200, data: { canceled: 2, superseded: false } });
    held.release();
    expect((await pausing).outcome).toEqual({ status: 200, data: { held: 1, superseded: true } });

    const rows = await occurrenceRowsOf(second, uid);
    expect(rows.map((o) => [o.start_at, o.status, o.canceled_by, o.version])).toEqual([
      [MON(2), 'canceled', 'pause', 2],
      [MON(9), 'canceled', 'end', 2],
      [MON(16), 'canceled', 'end', 2],
    ]);
    expect(await owedRowsOf(second, uid)).toEqual([]);
    expect(await seriesStateOf(second, uid)).toMatchObject({ status: 'ended', version: 3, hold_token: null });
    // The overtaken pause recorded no series.paused event either.
    expect(await seriesEventsOf(uid)).toEqual(['series.created', 'series.ended']);
  });

  it('a resume on one Store books nothing after a pause on the other Store took the series over', async () => {
    const gate = stepGate();
    const one: ExecuteDeps = testDeps(first, clock, { steps: gate.hook });
    const two: ExecuteDeps = testDeps(second, clock);
    const uid = await createdSeries(one, mona, { count: 3 });
    expect((await pauseSeries(two, mona, uid)).outcome.data).toEqual({ held: 3, superseded: false });

    const held = gate.holdAt(stepAt('resume', 'item', 1));
    const resuming = resumeSeries(one, mona, uid);
    await reachStep(held, resuming);
    expect((await pauseSeries(two, mona, uid)).outcome).toEqual({ status: 200, data: { held: 1, superseded: false } });
    held.release();
    expect((await resuming).outcome).toEqual({ status: 200, data: { created: 1, skipped: [], owed: 3, superseded: true } });

    const rows = await occurrenceRowsOf(second, uid);
    expect(rows.filter((o) => o.status === 'confirmed')).toEqual([]);
    expect(rows.map((o) => [o.start_at, o.canceled_by])).toEqual([
      [MON(2), 'pause'],
      [MON(2), 'pause'],
      [MON(9), 'pause'],
      [MON(16), 'pause'],
    ]);
    expect((await owedRowsOf(second, uid)).map((o) => o.pattern_instant)).toEqual([MON(2), MON(9), MON(16)]);
    expect(await seriesStateOf(second, uid)).toMatchObject({ status: 'paused', version: 4, hold_token: null });
    expect(await seriesEventsOf(uid)).toEqual(['series.created', 'series.paused', 'series.paused']);
  });
});
