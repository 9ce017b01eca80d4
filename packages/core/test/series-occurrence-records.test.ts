import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Principal } from '../src/auth/principal.js';
import { type ManualClock, manualClock } from '../src/clock.js';
import { type ExecuteDeps, execute } from '../src/operations/execute.js';
import { previewSeriesOperation } from '../src/operations/series-operations.js';
import { ENDED_REASON } from '../src/series/end-series.js';
import { loadSeries } from '../src/series/series-rows.js';
import type { CreateSeriesResult } from '../src/series/series-view.js';
import type { Store } from '../src/storage/store.js';
import { outboxOf } from './support/booking-calls.js';
import { testDeps } from './support/deps.js';
import { scheduleErrorOf } from './support/errors.js';
import { principalOf } from './support/organization.js';
import { createSeries, endSeries } from './support/series-calls.js';
import { ATTENDEE, importedBooking, resetSeriesWorkspace, seriesBody, skippedAt } from './support/series-expect.js';
import { loadSeriesWorkspace, S0, SERIES_TOKEN } from './support/series-workspace.js';
import { storeFixtures } from './support/stores.js';

// What a series leaves on its occurrences' rows and in the outbox beyond its
// answer: the attendee's phone, the event of each canceled occurrence; and
// the refusals a preview and a step's own lookup give.

const NOBODY = '7a000000-0000-4000-8000-0000000000ff';

describe.each(storeFixtures())('series occurrence records on $name', (fixture) => {
  let store: Store;
  let clock: ManualClock;
  let deps: ExecuteDeps;
  let hana: Principal;

  beforeAll(async () => {
    store = await fixture.open();
    clock = manualClock(S0);
    deps = testDeps(store, clock);
    await loadSeriesWorkspace({ store, clock });
    hana = await principalOf({ store, clock }, SERIES_TOKEN.hana);
  });
  beforeEach(async () => {
    clock.set(S0);
    await resetSeriesWorkspace({ store, clock });
  });
  afterAll(() => fixture.cleanup());

  const created = async (body: unknown) => (await createSeries(deps, hana, body)).outcome.data as CreateSeriesResult;
  /** The attendees each occurrence of a series stores, in start order. */
  const storedAttendees = async (seriesUid: string) =>
    (await store.db.selectFrom('bookings').select('attendees_json').where('series_uid', '=', seriesUid).orderBy('start_at').execute()).map(
      (r) => JSON.parse(r.attendees_json) as unknown,
    );

  it("stores the attendee's phone on every occurrence, though the Booking view does not show it", async () => {
    const { series } = await created(seriesBody({ count: 2 }));
    const stored = { email: ATTENDEE.email, name: 'Bob Stone', timezone: 'UTC', phone: ATTENDEE.phone };
    expect(await storedAttendees(series.uid)).toEqual([[stored], [stored]]);
  });

  it('stores no phone at all for an attendee who gave none', async () => {
    const { series } = await created(seriesBody({ count: 1, attendee: { email: 'dana@example.com', name: 'Dana' } }));
    expect(await storedAttendees(series.uid)).toEqual([[{ email: 'dana@example.com', name: 'Dana', timezone: 'UTC' }]]);
  });

  it('an end records booking.canceled for each occurrence it cancels, with the reason and the series uid', async () => {
    const { series, occurrences } = await created(seriesBody({ count: 2 }));
    await endSeries(deps, hana, series.uid);
    const canceled = (await outboxOf(store)).filter((e) => e.event_type === 'booking.canceled');
    expect(canceled.map((e) => e.subject_uid).sort()).toEqual(occurrences.map((o) => o.uid).sort());
    for (const event of canceled) {
      expect(event.payload).toMatchObject({
        uid: event.subject_uid,
        status: 'canceled',
        version: 2,
        reason: ENDED_REASON,
        series_uid: series.uid,
      });
    }
  });

  it("a preview refuses with 409 no_dates_free when only the host's bookings take every date", async () => {
    await resetSeriesWorkspace({ store, clock }, [
      importedBooking('90000000-0000-4000-8000-000000000001', 'hana', '2026-03-02T10:00:00Z'),
      importedBooking('90000000-0000-4000-8000-000000000002', 'hana', '2026-03-04T10:00:00Z'),
    ]);
    const preview = execute(deps, previewSeriesOperation, hana, { params: {}, query: {}, body: seriesBody({ count: 2 }) }, 'req-preview');
    expect(await scheduleErrorOf(preview)).toEqual({
      code: 'no_dates_free',
      message: 'The host is free on none of the pattern dates; nothing was created.',
      details: { skipped: [skippedAt('2026-03-02', '2026-03-02T10:00Z', 'busy'), skippedAt('2026-03-04', '2026-03-04T10:00Z', 'busy')] },
      retryAfterSeconds: undefined,
    });
  });

  it('a step that loads a series gone from the store fails with 404 series_not_found, naming the uid', async () => {
    expect(await scheduleErrorOf(loadSeries(store.db, NOBODY))).toEqual({
      code: 'series_not_found',
      message: 'No series with this uid.',
      details: { uid: NOBODY },
      retryAfterSeconds: undefined,
    });
  });
});
