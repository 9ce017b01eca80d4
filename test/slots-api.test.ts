import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSlot, listSlots } from './support/booking-writes.js';
import { type ApiResponse, expectData, expectError } from './support/http.js';
import { startInProcess } from './support/in-process.js';
import { type TestServer, writeWorkspace } from './support/serve.js';
import { DAY_MS, dateOf, grid, iso, isoAt, MINUTE_MS, slotsAt, utcAt } from './support/slot-time.js';
import { ALL_SCOPES } from './support/workspace.js';

// docs/api/endpoints.md "Slots": GET /v1/slots and GET /v1/slots/check against the real
// binary. Hana works only on a few dates (date overrides, no weekly hours),
// so every expected slot and every `next_available` is exact whatever the
// time of day the test runs at.

const IDS = {
  hana: 'd2000000-0000-4000-8000-000000000001',
  kenji: 'd2000000-0000-4000-8000-000000000002',
  uma: 'd2000000-0000-4000-8000-000000000003',
  olga: 'd2000000-0000-4000-8000-000000000004',
  chat: 'd2e00000-0000-4000-8000-000000000001',
  notice: 'd2e00000-0000-4000-8000-000000000002',
  horizon: 'd2e00000-0000-4000-8000-000000000003',
  off: 'd2e00000-0000-4000-8000-000000000004',
  kenjiHour: 'd2e00000-0000-4000-8000-000000000005',
  buffered: 'd2e00000-0000-4000-8000-000000000007',
  dora: 'd2000000-0000-4000-8000-000000000005',
  doraHour: 'd2e00000-0000-4000-8000-000000000008',
  umaCall: 'd2e00000-0000-4000-8000-000000000006',
} as const;

const TOKENS = {
  hana: 'slots-secret-hana-all-scopes',
  hanaNoSlots: 'slots-secret-hana-no-slots-read',
  uma: 'slots-secret-uma-all-scopes',
  olga: 'slots-secret-olga-owner-all',
} as const;

const day = (offset: number, from: string, to: string) => ({ date: dateOf(offset), intervals: [[from, to]] });

const workspace = {
  organization: { name: 'Slots Org' },
  limits: { pat_per_minute: 10_000 },
  users: [
    {
      id: IDS.hana,
      username: 'hana',
      email: 'hana@slots.test',
      name: 'Hana Host',
      timezone: 'UTC',
      role: 'user',
      schedule: {
        timezone: 'UTC',
        weekly: {},
        overrides: [
          day(-1, '09:00', '10:00'),
          day(1, '09:00', '10:00'),
          day(3, '09:00', '12:00'),
          day(4, '09:00', '10:00'),
          day(6, '09:00', '10:00'),
          day(13, '10:30', '11:00'),
        ],
      },
      calendars: [{ kind: 'static', busy: [{ start: isoAt(3, 11), end: isoAt(3, 11, 30) }] }],
    },
    {
      id: IDS.kenji,
      username: 'kenji',
      email: 'kenji@slots.test',
      name: 'Kenji Host',
      timezone: 'Asia/Tokyo',
      role: 'user',
      // 09:00–11:00 in Tokyo (UTC+9, no DST) is 00:00–02:00 UTC on the same date.
      schedule: { timezone: 'Asia/Tokyo', weekly: {}, overrides: [day(3, '09:00', '11:00')] },
    },
    {
      id: IDS.dora,
      username: 'dora',
      email: 'dora@slots.test',
      name: 'Dora Berlin',
      timezone: 'Europe/Berlin',
      role: 'user',
      schedule: {
        timezone: 'Europe/Berlin',
        weekly: Object.fromEntries(['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'].map((d) => [d, [['00:00', '24:00']]])),
      },
    },
    { id: IDS.uma, username: 'uma', email: 'uma@slots.test', name: 'Uma User', timezone: 'UTC', role: 'user' },
    { id: IDS.olga, username: 'olga', email: 'olga@slots.test', name: 'Olga Owner', timezone: 'UTC', role: 'owner' },
  ],
  event_types: [
    { id: IDS.chat, owner: 'hana', slug: 'chat', name: 'Chat', duration_minutes: 30, minimum_notice_minutes: 0, future_limit_days: 60 },
    {
      id: IDS.notice,
      owner: 'hana',
      slug: 'notice',
      name: 'Two days notice',
      duration_minutes: 30,
      minimum_notice_minutes: 2 * 24 * 60,
      future_limit_days: 60,
    },
    {
      id: IDS.horizon,
      owner: 'hana',
      slug: 'horizon',
      name: 'Five day horizon',
      duration_minutes: 30,
      minimum_notice_minutes: 0,
      future_limit_days: 5,
    },
    {
      id: IDS.buffered,
      owner: 'hana',
      slug: 'buffered',
      name: 'Half an hour free after',
      duration_minutes: 30,
      minimum_notice_minutes: 0,
      buffer_after_minutes: 30,
    },
    { id: IDS.off, owner: 'hana', slug: 'off', name: 'Retired', duration_minutes: 30, status: 'off', minimum_notice_minutes: 0 },
    {
      id: IDS.kenjiHour,
      owner: 'kenji',
      slug: 'hour',
      name: 'Hour',
      duration_minutes: 60,
      minimum_notice_minutes: 0,
      future_limit_days: 60,
    },
    {
      id: IDS.doraHour,
      owner: 'dora',
      slug: 'hour',
      name: 'Hour',
      duration_minutes: 60,
      minimum_notice_minutes: 0,
      future_limit_days: 400,
    },
    { id: IDS.umaCall, owner: 'uma', slug: 'call', name: 'Call', duration_minutes: 30, minimum_notice_minutes: 0 },
  ],
  tokens: [
    { name: 'hana', user: 'hana', secret: TOKENS.hana, scopes: [...ALL_SCOPES] },
    { name: 'hana-no-slots', user: 'hana', secret: TOKENS.hanaNoSlots, scopes: ALL_SCOPES.filter((s) => s !== 'slots:read') },
    { name: 'uma', user: 'uma', secret: TOKENS.uma, scopes: [...ALL_SCOPES] },
    { name: 'olga', user: 'olga', secret: TOKENS.olga, scopes: [...ALL_SCOPES] },
  ],
  bookings: [
    { event_type: 'chat', host: 'hana', start: isoAt(3, 10), attendee: { email: 'taken@example.com', name: 'Taken' } },
    // A canceled booking frees its time.
    {
      event_type: 'chat',
      host: 'hana',
      start: isoAt(3, 9, 30),
      attendee: { email: 'gone@example.com', name: 'Gone' },
      status: 'canceled',
      cancelled_at: isoAt(-1),
    },
    { event_type: 'chat', host: 'hana', start: isoAt(6, 9, 30), attendee: { email: 'late@example.com', name: 'Late' } },
  ],
};

/** Hana's free 30-minute starts on day 3: 09:00–12:00 less the booking at 10:00 and the busy 11:00–11:30. */
const DAY3_FREE = [utcAt(3, 9), utcAt(3, 9, 30), utcAt(3, 10, 30), utcAt(3, 11, 30)];

let server: TestServer;

beforeAll(async () => {
  server = await startInProcess({ workspace: writeWorkspace(workspace), db: ':memory:' });
});

afterAll(async () => {
  await server?.stop();
});

const list = (params: Record<string, string | undefined>, token: string = TOKENS.hana) => listSlots(server.url, token, params);
const check = (params: Record<string, string | undefined>, token: string = TOKENS.hana) => checkSlot(server.url, token, params);

/** A slots list: the data object with exactly docs/api's keys and `computed_at` within the request. */
async function expectList(res: Promise<ApiResponse>): Promise<{ event_type_id: string; timezone: string; slots: unknown[] }> {
  const before = Date.now();
  const data = expectData(await res);
  const after = Date.now();
  expect(Object.keys(data).sort()).toEqual(['computed_at', 'event_type_id', 'slots', 'timezone']);
  expect(data.computed_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  // The request started before `before` was read at the latest; allow the clock's millisecond rounding.
  expect(Date.parse(data.computed_at)).toBeGreaterThanOrEqual(before - 1000);
  expect(Date.parse(data.computed_at)).toBeLessThanOrEqual(after);
  const { computed_at: _, ...rest } = data;
  return rest;
}

describe('GET /v1/slots', () => {
  it('lists the free slots of one day exactly: a booking and a static-calendar busy time are omitted, a canceled booking is not', async () => {
    const data = await expectList(list({ event_type_id: IDS.chat, start: isoAt(3), end: isoAt(4) }));
    expect(data).toEqual({ event_type_id: IDS.chat, timezone: 'UTC', slots: slotsAt(DAY3_FREE, 30) });
  });

  it('names the event type by username and event_slug just as by id', async () => {
    const data = await expectList(list({ username: 'hana', event_slug: 'chat', start: isoAt(3), end: isoAt(4) }));
    expect(data).toEqual({ event_type_id: IDS.chat, timezone: 'UTC', slots: slotsAt(DAY3_FREE, 30) });
  });

  it('spans several days, in start order', async () => {
    const data = await expectList(list({ event_type_id: IDS.chat, start: isoAt(1), end: isoAt(5) }));
    const starts = [utcAt(1, 9), utcAt(1, 9, 30), ...DAY3_FREE, utcAt(4, 9), utcAt(4, 9, 30)];
    expect(data.slots).toEqual(slotsAt(starts, 30));
  });

  it('start is inclusive and end exclusive, for slot starts', async () => {
    const data = await expectList(list({ event_type_id: IDS.chat, start: isoAt(3, 9, 30), end: isoAt(3, 11, 30) }));
    expect(data.slots).toEqual(slotsAt([utcAt(3, 9, 30), utcAt(3, 10, 30)], 30));
    // A window starting inside a slot does not list that slot.
    const inside = await expectList(list({ event_type_id: IDS.chat, start: isoAt(3, 9, 10), end: isoAt(3, 10) }));
    expect(inside.slots).toEqual(slotsAt([utcAt(3, 9, 30)], 30));
  });

  it('accepts offsets and dates as ISO 8601 bounds', async () => {
    const offset = await expectList(
      list({ event_type_id: IDS.chat, start: `${dateOf(3)}T11:30:00+02:00`, end: `${dateOf(3)}T13:00:00+02:00` }),
    );
    expect(offset.slots).toEqual(slotsAt([utcAt(3, 9, 30), utcAt(3, 10, 30)], 30));
    const dates = await expectList(list({ event_type_id: IDS.chat, start: dateOf(3), end: dateOf(4) }));
    expect(dates.slots).toEqual(slotsAt(DAY3_FREE, 30));
  });

  it('past slots are not listed', async () => {
    const data = await expectList(list({ event_type_id: IDS.chat, start: isoAt(-1), end: isoAt(2) }));
    expect(data.slots).toEqual(slotsAt([utcAt(1, 9), utcAt(1, 9, 30)], 30));
  });

  it('an empty window of free time is an empty list', async () => {
    const data = await expectList(list({ event_type_id: IDS.chat, start: isoAt(7), end: isoAt(13) }));
    expect(data).toEqual({ event_type_id: IDS.chat, timezone: 'UTC', slots: [] });
  });

  it('minimum notice and the future limit keep slots out of the list', async () => {
    const notice = await expectList(list({ event_type_id: IDS.notice, start: isoAt(1), end: isoAt(5) }));
    expect(notice.slots).toEqual(slotsAt([...DAY3_FREE, utcAt(4, 9), utcAt(4, 9, 30)], 30));
    const horizon = await expectList(list({ event_type_id: IDS.horizon, start: isoAt(3), end: isoAt(8) }));
    // Day 6 lies beyond five days from now.
    expect(horizon.slots).toEqual(slotsAt([...DAY3_FREE, utcAt(4, 9), utcAt(4, 9, 30)], 30));
  });

  it("the event type's buffer must be clear of bookings and busy times too", async () => {
    // 09:30 would end its buffer inside the 10:00 booking, 10:30 inside the 11:00 busy time.
    const data = await expectList(list({ event_type_id: IDS.buffered, start: isoAt(3), end: isoAt(4) }));
    expect(data.slots).toEqual(slotsAt([utcAt(3, 9), utcAt(3, 11, 30)], 30));
  });

  describe('a working day of 00:00–24:00 in Europe/Berlin on the days its clocks change', () => {
    /** Europe/Berlin's UTC offset at an instant, in minutes. */
    const berlinOffset = (ms: number): number => {
      const name = new Intl.DateTimeFormat('en-US', { timeZone: 'Europe/Berlin', timeZoneName: 'longOffset' })
        .formatToParts(new Date(ms))
        .find((p) => p.type === 'timeZoneName')!.value;
      const m = /GMT([+-])(\d{2}):(\d{2})/.exec(name)!;
      return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
    };
    // The next two days (from tomorrow) on which Berlin's offset at noon differs from the day before: one of each kind.
    const changes: { day: number; from: number; to: number }[] = [];
    for (let d = 1; d < 400 && changes.length < 2; d++) {
      const from = berlinOffset(utcAt(d - 1, 12));
      const to = berlinOffset(utcAt(d, 12));
      if (from !== to) changes.push({ day: d, from, to });
    }

    it.each(changes.map((c) => [c.to > c.from ? 'spring forward: 23 hourly slots' : 'fall back: 25 hourly slots', c] as const))(
      '%s',
      async (_, change) => {
        const localMidnight = utcAt(change.day) - change.from * MINUTE_MS;
        const nextLocalMidnight = utcAt(change.day + 1) - change.to * MINUTE_MS;
        const data = await expectList(
          list({ event_type_id: IDS.doraHour, start: iso(localMidnight), end: iso(nextLocalMidnight) }, TOKENS.olga),
        );
        expect(data.timezone).toBe('Europe/Berlin');
        expect(data.slots).toEqual(slotsAt(grid(localMidnight, nextLocalMidnight, 60), 60));
        expect(data.slots).toHaveLength(24 - (change.to - change.from) / 60);
      },
    );
  });

  describe('timezone', () => {
    it('is echoed when given; slots stay in UTC', async () => {
      const data = await expectList(list({ event_type_id: IDS.chat, start: isoAt(3), end: isoAt(4), timezone: 'America/New_York' }));
      expect(data).toEqual({ event_type_id: IDS.chat, timezone: 'America/New_York', slots: slotsAt(DAY3_FREE, 30) });
    });

    it("defaults to the schedule's zone, whose wall clock places the slots", async () => {
      const data = await expectList(list({ event_type_id: IDS.kenjiHour, start: isoAt(2), end: isoAt(5) }, TOKENS.olga));
      expect(data).toEqual({ event_type_id: IDS.kenjiHour, timezone: 'Asia/Tokyo', slots: slotsAt([utcAt(3, 0), utcAt(3, 1)], 60) });
    });

    it('defaults to UTC for a host without a schedule (free around the clock)', async () => {
      const data = await expectList(list({ event_type_id: IDS.umaCall, start: isoAt(3, 10), end: isoAt(3, 12) }, TOKENS.uma));
      expect(data).toEqual({
        event_type_id: IDS.umaCall,
        timezone: 'UTC',
        slots: slotsAt(grid(utcAt(3, 10), utcAt(3, 12), 30), 30),
      });
    });

    it('an unknown zone is 400 invalid_query_param', async () => {
      const res = await list({ event_type_id: IDS.chat, start: isoAt(3), end: isoAt(4), timezone: 'Mars/Olympus' });
      expectError(res, 400, 'invalid_query_param', { param: 'timezone' });
    });
  });

  describe('400 invalid_query_param', () => {
    const cases: [string, Record<string, string | undefined>, string][] = [
      ['start missing', { end: isoAt(4) }, 'start'],
      ['end missing', { start: isoAt(3) }, 'end'],
      ['start malformed', { start: 'tomorrow', end: isoAt(4) }, 'start'],
      ['start an impossible date', { start: `${dateOf(3).slice(0, 4)}-13-01T00:00:00Z`, end: isoAt(4) }, 'start'],
      ['end malformed', { start: isoAt(3), end: 'later' }, 'end'],
      ['end equal to start', { start: isoAt(3), end: isoAt(3) }, 'end'],
      ['end before start', { start: isoAt(4), end: isoAt(3) }, 'end'],
      ['a window of 31 days and a millisecond', { start: isoAt(3), end: iso(utcAt(3) + 31 * DAY_MS + 1) }, 'end'],
      ['event_type_id not a UUID', { event_type_id: 'chat', start: isoAt(3), end: isoAt(4) }, 'event_type_id'],
    ];
    it.each(cases)('%s', async (_, params, param) => {
      const query = 'event_type_id' in params ? params : { event_type_id: IDS.chat, ...params };
      const res = await list(query);
      expectError(res, 400, 'invalid_query_param', { param });
      expect(res.body.error.message).toContain(param);
    });

    it('no event type named: event_type_id, or username without event_slug', async () => {
      for (const ref of [{}, { username: 'hana' }, { event_slug: 'chat' }]) {
        expectError(await list({ ...ref, start: isoAt(3), end: isoAt(4) }), 400, 'invalid_query_param', { param: 'event_type_id' });
        expectError(await check({ ...ref, start: isoAt(3, 9) }), 400, 'invalid_query_param', { param: 'event_type_id' });
      }
    });

    it('a window of exactly 31 days is allowed', async () => {
      const data = await expectList(list({ event_type_id: IDS.chat, start: isoAt(3), end: iso(utcAt(3) + 31 * DAY_MS) }));
      expect(data.slots).toEqual(slotsAt([...DAY3_FREE, utcAt(4, 9), utcAt(4, 9, 30), utcAt(6, 9), utcAt(13, 10, 30)], 30));
    });
  });

  describe('404 event_type_not_found', () => {
    const cases: [string, Record<string, string>, string][] = [
      ['an unknown id', { event_type_id: 'd2e00000-0000-4000-8000-0000000000ff' }, TOKENS.hana],
      ["another user's event type, for a user-role token", { event_type_id: IDS.chat }, TOKENS.uma],
      ["another user's event type by username and slug", { username: 'hana', event_slug: 'chat' }, TOKENS.uma],
      ['an unknown username', { username: 'nobody', event_slug: 'chat' }, TOKENS.hana],
      ['an unknown slug', { username: 'hana', event_slug: 'nope' }, TOKENS.hana],
      ["a slug of someone else's username", { username: 'uma', event_slug: 'chat' }, TOKENS.olga],
    ];
    it.each(cases)('%s', async (_, ref, token) => {
      for (const res of [
        await list({ ...ref, start: isoAt(3), end: isoAt(4) }, token),
        await check({ ...ref, start: isoAt(3, 9) }, token),
      ]) {
        expectError(res, 404, 'event_type_not_found', {});
      }
    });

    it('an owner reads any event type of the organization', async () => {
      const data = await expectList(list({ event_type_id: IDS.chat, start: isoAt(3), end: isoAt(4) }, TOKENS.olga));
      expect(data.slots).toEqual(slotsAt(DAY3_FREE, 30));
    });
  });

  it('403 insufficient_scope without slots:read, on both endpoints', async () => {
    for (const res of [
      await list({ event_type_id: IDS.chat, start: isoAt(3), end: isoAt(4) }, TOKENS.hanaNoSlots),
      await check({ event_type_id: IDS.chat, start: isoAt(3, 9) }, TOKENS.hanaNoSlots),
    ]) {
      expectError(res, 403, 'insufficient_scope', { required_scope: 'slots:read' });
    }
  });
});

describe('GET /v1/slots/check', () => {
  const expectCheck = async (params: Record<string, string | undefined>, expected: Record<string, unknown>, token?: string) => {
    const data = expectData(await check(params, token));
    expect(data).toEqual(expected);
  };
  const unavailable = (reason: string, next: string | null) => ({ available: false, reason, next_available: next });

  it('a free slot is available, with the duration', async () => {
    await expectCheck({ event_type_id: IDS.chat, start: isoAt(3, 9) }, { available: true, duration_minutes: 30 });
    await expectCheck({ username: 'hana', event_slug: 'chat', start: isoAt(3, 11, 30) }, { available: true, duration_minutes: 30 });
    await expectCheck({ event_type_id: IDS.kenjiHour, start: isoAt(3, 1) }, { available: true, duration_minutes: 60 }, TOKENS.olga);
  });

  it('a start written with an offset names the same instant', async () => {
    await expectCheck({ event_type_id: IDS.chat, start: `${dateOf(3)}T11:30:00+02:00` }, { available: true, duration_minutes: 30 });
  });

  it('an explicit end equal to start + duration is the default', async () => {
    await expectCheck({ event_type_id: IDS.chat, start: isoAt(3, 9), end: isoAt(3, 9, 30) }, { available: true, duration_minutes: 30 });
  });

  describe('slot_busy', () => {
    it('a booking covers the slot; next_available is the next free start', async () => {
      await expectCheck({ event_type_id: IDS.chat, start: isoAt(3, 10) }, unavailable('slot_busy', isoAt(3, 10, 30)));
    });

    it('a static-calendar busy time covers the slot', async () => {
      await expectCheck({ event_type_id: IDS.chat, start: isoAt(3, 11) }, unavailable('slot_busy', isoAt(3, 11, 30)));
    });

    it('an end reaching into a booking makes the slot busy; the search starts at that end', async () => {
      await expectCheck(
        { event_type_id: IDS.chat, start: isoAt(3, 9, 30), end: isoAt(3, 10, 30) },
        unavailable('slot_busy', isoAt(3, 10, 30)),
      );
    });

    it('a start off the slot grid (docs/api/choices.md)', async () => {
      await expectCheck({ event_type_id: IDS.chat, start: isoAt(3, 9, 10) }, unavailable('slot_busy', isoAt(3, 10, 30)));
    });

    it("the event type's buffer reaches a booking", async () => {
      await expectCheck({ event_type_id: IDS.buffered, start: isoAt(3, 9, 30) }, unavailable('slot_busy', isoAt(3, 11, 30)));
    });

    it('a start outside working hours (docs/api/choices.md)', async () => {
      await expectCheck({ event_type_id: IDS.chat, start: isoAt(3, 13) }, unavailable('slot_busy', isoAt(4, 9)));
      // Right at the end of the working day.
      await expectCheck({ event_type_id: IDS.chat, start: isoAt(4, 10) }, unavailable('slot_busy', isoAt(6, 9)));
    });

    it('next_available is null when nothing is free within 7 days after the end', async () => {
      // Booked 09:30–10:00 on day 6; the next free start is day 13 10:30, 7 days and 30 minutes after the end.
      await expectCheck({ event_type_id: IDS.chat, start: isoAt(6, 9, 30) }, unavailable('slot_busy', null));
    });

    it('next_available finds a start just under 7 days after the end', async () => {
      // Ends day 6 11:30; day 13 10:30 is 6 days 23 hours later.
      await expectCheck({ event_type_id: IDS.chat, start: isoAt(6, 11) }, unavailable('slot_busy', isoAt(13, 10, 30)));
    });
  });

  it('in_past: a start before now, even one on the grid of a past working day', async () => {
    await expectCheck({ event_type_id: IDS.chat, start: isoAt(-1, 9) }, unavailable('in_past', isoAt(1, 9)));
    // In the past wins over minimum notice.
    await expectCheck({ event_type_id: IDS.notice, start: isoAt(-1, 9) }, unavailable('in_past', isoAt(3, 9)));
  });

  it('outside_minimum_notice: next_available honours the notice too', async () => {
    await expectCheck({ event_type_id: IDS.notice, start: isoAt(1, 9) }, unavailable('outside_minimum_notice', isoAt(3, 9)));
  });

  it('outside_future_limit: nothing later is within the horizon, so next_available is null', async () => {
    await expectCheck({ event_type_id: IDS.horizon, start: isoAt(6, 9) }, unavailable('outside_future_limit', null));
    // The same start inside another event type's horizon is free.
    await expectCheck({ event_type_id: IDS.chat, start: isoAt(6, 9) }, { available: true, duration_minutes: 30 });
  });

  it('event_type_inactive: nothing is offered, and it wins over every other reason', async () => {
    await expectCheck({ event_type_id: IDS.off, start: isoAt(3, 9) }, unavailable('event_type_inactive', null));
    await expectCheck({ event_type_id: IDS.off, start: isoAt(-1, 9) }, unavailable('event_type_inactive', null));
    await expectCheck({ username: 'hana', event_slug: 'off', start: isoAt(3, 10) }, unavailable('event_type_inactive', null));
  });

  it('timezone is accepted and does not change the answer', async () => {
    await expectCheck({ event_type_id: IDS.chat, start: isoAt(3, 10), timezone: 'Asia/Tokyo' }, unavailable('slot_busy', isoAt(3, 10, 30)));
  });

  describe('400 invalid_query_param', () => {
    const cases: [string, Record<string, string>, string][] = [
      ['end equal to start', { start: isoAt(3, 9), end: isoAt(3, 9) }, 'end'],
      ['end before start', { start: isoAt(3, 9), end: iso(utcAt(3, 9) - MINUTE_MS) }, 'end'],
      ['end malformed', { start: isoAt(3, 9), end: 'soon' }, 'end'],
      ['start missing', {}, 'start'],
      ['start malformed', { start: 'now' }, 'start'],
    ];
    it.each(cases)('%s', async (_, params, param) => {
      expectError(await check({ event_type_id: IDS.chat, ...params }), 400, 'invalid_query_param', { param });
    });
  });
});
