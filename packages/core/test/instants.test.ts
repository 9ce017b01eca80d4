import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../src/auth/principal.js';
import { manualClock } from '../src/clock.js';
import { listBookingsOperation } from '../src/operations/booking-operations.js';
import { type ExecuteDeps, execute } from '../src/operations/execute.js';
import type { Store } from '../src/storage/store.js';
import { namesItsOffset } from '../src/time.js';
import { checkSlot, createBooking, listSlots } from './support/booking-calls.js';
import { ET, loadBookingWorkspace, T0, TOKEN } from './support/booking-workspace.js';
import { testDeps } from './support/deps.js';
import { scheduleErrorOf } from './support/errors.js';
import { principalOf } from './support/organization.js';
import { storeFixtures } from './support/stores.js';

// docs/api/overview.md "Instants, dates and zones": an instant sent to the API carries Z or
// a numeric offset. `2026-03-02T10:00` read as UTC would silently book the
// wrong hour for anyone not in UTC, so it is refused, naming the field.

describe('namesItsOffset', () => {
  it.each(['2026-03-02T10:00:00Z', '2026-03-02T10:00z', '2026-03-02T10:00:00+01:00', '2026-03-02T10:00:00-0500', '2026-03-02T10:00+01'])(
    '%s names its offset',
    (text) => expect(namesItsOffset(text)).toBe(true),
  );
  it.each(['2026-03-02T10:00', '2026-03-02T10:00:00.000', '2026-03-02T10', '2026-03-02'])('%s does not', (text) =>
    expect(namesItsOffset(text)).toBe(false),
  );
});

describe.each(storeFixtures())('zone-less instants on $name', (fixture) => {
  let store: Store;
  let deps: ExecuteDeps;
  let hana: Principal;

  beforeAll(async () => {
    store = await fixture.open();
    const clock = manualClock(T0);
    deps = testDeps(store, clock);
    await loadBookingWorkspace({ store, clock });
    hana = await principalOf({ store, clock }, TOKEN.hana);
  });
  afterAll(() => fixture.cleanup());

  const RULE = /must name its offset: Z or ±HH:MM/;
  const refusal = async (work: Promise<unknown>) => {
    try {
      await work;
    } catch (error) {
      return error as { code: string; details: unknown; message: string };
    }
    throw new Error('expected a refusal');
  };

  it('a create whose start has no offset is 400 validation_error naming start; with one it books', async () => {
    const body = { event_type_id: ET.meet, start: '2026-03-02T10:00', attendee: { email: 'bob@example.com' }, timezone: 'Europe/Berlin' };
    const refused = await refusal(createBooking(deps, hana, body, 'zone-less'));
    expect({ code: refused.code, details: refused.details }).toEqual({ code: 'validation_error', details: { fields: ['start'] } });
    expect(refused.message).toMatch(RULE);
    const booked = await createBooking(deps, hana, { ...body, start: '2026-03-02T11:00:00+01:00' }, 'with-offset');
    expect((booked.outcome.data as { start_at: string }).start_at).toBe('2026-03-02T10:00:00.000Z');
  });

  it('a query instant without an offset is 400 invalid_query_param naming it; a bare date stays a date', async () => {
    const list = (query: Record<string, unknown>) =>
      execute(deps, listBookingsOperation, hana, { params: {}, query, body: undefined }, 'req-list');
    expect(await scheduleErrorOf(list({ updated_since: '2026-03-01T00:00' }))).toEqual({
      code: 'invalid_query_param',
      message: 'updated_since: must name its offset: Z or ±HH:MM (2026-12-09T11:00:00Z, 2026-12-09T11:00:00+01:00).',
      details: { param: 'updated_since' },
      retryAfterSeconds: undefined,
    });
    expect((await list({ start_date: '2026-03-01', end_date: '2026-03-31' })).outcome.status).toBe(200);
    expect(
      await scheduleErrorOf(listSlots(deps, hana, { event_type_id: ET.meet, start: '2026-03-02T09:00', end: '2026-03-03T00:00:00Z' })),
    ).toEqual({
      code: 'invalid_query_param',
      message: 'start: must name its offset: Z or ±HH:MM (2026-12-09T11:00:00Z, 2026-12-09T11:00:00+01:00).',
      details: { param: 'start' },
      retryAfterSeconds: undefined,
    });
    expect(await scheduleErrorOf(checkSlot(deps, hana, { event_type_id: ET.meet, start: '2026-03-02T10:00' }))).toEqual({
      code: 'invalid_query_param',
      message: 'start: must name its offset: Z or ±HH:MM (2026-12-09T11:00:00Z, 2026-12-09T11:00:00+01:00).',
      details: { param: 'start' },
      retryAfterSeconds: undefined,
    });
  });
});
