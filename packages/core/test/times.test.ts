import { Settings } from 'luxon';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Principal } from '../src/auth/principal.js';
import { MAX_LIVE_HOLDS } from '../src/bookings/create-hold.js';
import type { ManualClock } from '../src/clock.js';
import type { ExecuteDeps } from '../src/operations/execute.js';
import type { Executor, Store } from '../src/storage/store.js';
import { findTimes, holdTimes, spreadOptions } from '../src/times/find-times.js';
import { hostZone, hostZones } from '../src/times/host-zone.js';
import { addDays, dateIn, localTime, minuteOfDay, startOfDate } from '../src/times/local-time.js';
import { findTimesBodySchema } from '../src/times/times-input.js';
import { scheduleErrorOf } from './support/errors.js';
import { storeFixtures } from './support/stores.js';
import { openTokenWorld, TEAM_SCOPES } from './support/token-world.js';
import { callWebhooks } from './support/webhook-calls.js';

// docs/api/times.md: find_times answers a few options in the attendee's
// terms, each held and shown in both zones; book_time books one by its id.
// Uma works 09:00-17:00 in Berlin, Tess 09:00-17:00 in New York; the clock
// is Monday 2 March 2026, 07:00 in Berlin, before the US moves its clocks
// on Sunday 8 March (Berlin moves on 29 March).

const T0 = '2026-03-02T06:00:00.000Z';
const U = (n: number) => `e7000000-0000-4000-8000-00000000000${n}`;
const ID = { olga: U(1), uma: U(2), ulf: U(3), tess: U(4) };
const ET = {
  intro: 'e7100000-0000-4000-8000-000000000001',
  chat: 'e7100000-0000-4000-8000-000000000002',
  deep: 'e7100000-0000-4000-8000-000000000003',
  team: 'e7100000-0000-4000-8000-000000000004',
  tessChat: 'e7100000-0000-4000-8000-000000000005',
};
const hours = (timezone: string) => ({
  timezone,
  weekly: Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri'].map((d) => [d, [['09:00', '17:00']]])),
});
const user = (name: keyof typeof ID, timezone: string, extra: Record<string, unknown> = {}) => ({
  id: ID[name],
  username: name,
  email: `${name}@times.test`,
  name: name.toUpperCase(),
  timezone,
  schedule: hours(timezone),
  ...extra,
});
const type = (id: string, owner: string, slug: string, name: string, extra: Record<string, unknown> = {}) => ({
  id,
  owner,
  slug,
  name,
  duration_minutes: 30,
  minimum_notice_minutes: 0,
  ...extra,
});
const TOKENS = { olga: 'pat_times_olga_all', uma: 'pat_times_uma_all', umaSlots: 'pat_times_uma_slots', ulf: 'pat_times_ulf_all' };
type Caller = keyof typeof TOKENS;
const WORKSPACE = {
  organization: { name: 'Times' },
  users: [
    // Olga keeps no working hours: a host's zone is then their own.
    user('olga', 'Asia/Tokyo', { role: 'owner', schedule: undefined }),
    user('uma', 'Europe/Berlin'),
    // Ulf lives in London and works Berlin hours: his hours' zone is the one a meeting is read in.
    user('ulf', 'Europe/London', { schedule: hours('Europe/Berlin') }),
    user('tess', 'America/New_York'),
  ],
  event_types: [
    type(ET.intro, 'uma', 'intro', 'Intro call'),
    type(ET.chat, 'ulf', 'chat', 'Chat', { requires_confirmation: true }),
    type(ET.tessChat, 'tess', 'chat', 'Chat'),
    type(ET.deep, 'ulf', 'deep-dive', 'Deep dive', { duration_minutes: 60 }),
    type(ET.team, 'olga', 'team-demo', 'Team demo', { scheduling: 'round_robin', hosts: [{ username: 'uma' }, { username: 'tess' }] }),
  ],
  tokens: [
    { name: 'olga', user: 'olga', secret: TOKENS.olga, scopes: TEAM_SCOPES },
    { name: 'uma', user: 'uma', secret: TOKENS.uma, scopes: [...TEAM_SCOPES, 'availability:write'] },
    { name: 'umaSlots', user: 'uma', secret: TOKENS.umaSlots, scopes: ['slots:read'] },
    { name: 'ulf', user: 'ulf', secret: TOKENS.ulf, scopes: TEAM_SCOPES },
  ],
};

interface Options {
  event_type: { id: string; slug: string; scheduling: string };
  host: { username: string };
  host_timezone: string;
  attendee_timezone: string;
  from: string;
  to: string;
  options: { option_id: string; start: string; end: string; attendee_time: string; host_time: string; held_until: string | null }[];
  not_held_reason: string | null;
}
interface Booked {
  uid: string;
  status: string;
  start_at: string;
  attendee_time: string;
  host_time: string;
  hosts: string[];
  warnings: { code: string; message: string }[];
}

const toIso = (ms: number) => new Date(ms).toISOString();
const BOB = { email: 'bob@example.com', name: 'Bob', timezone: 'America/New_York' };

describe.each(storeFixtures())('find_times and book_time on $name', (fixture) => {
  let store: Store;
  let clock: ManualClock;
  let deps: ExecuteDeps;
  let who: Record<Caller, Principal>;

  beforeAll(async () => {
    ({ store, clock, deps, who } = await openTokenWorld(fixture, T0, WORKSPACE, TOKENS));
  });
  afterAll(() => fixture.cleanup());
  beforeEach(async () => {
    clock.set(T0);
    await store.db.deleteFrom('holds').execute();
    await store.db.deleteFrom('booking_hosts').execute();
    await store.db.deleteFrom('bookings').execute();
  });

  const find = async (body: Record<string, unknown>, caller: Caller = 'uma', key?: string) => {
    const executed = await callWebhooks(deps, who[caller], 'find_times', { body, ...(key ? { key } : {}) });
    expect(executed.outcome.status).toBe(200);
    return executed.outcome.data as Options;
  };
  const book = async (body: Record<string, unknown>, caller: Caller = 'uma') => {
    const executed = await callWebhooks(deps, who[caller], 'book_time', { body });
    expect(executed.outcome.status).toBe(201);
    return executed.outcome.data as Booked;
  };
  const liveHolds = async () => (await store.db.selectFrom('holds').select('id').execute()).length;

  it("offers the caller's only type on the first free start of each of three days, held 10 minutes, in their own zone", async () => {
    const found = await find({});
    expect(found).toMatchObject({
      event_type: { id: ET.intro, slug: 'intro', scheduling: 'single' },
      host: { username: 'uma' },
      host_timezone: 'Europe/Berlin',
      attendee_timezone: 'Europe/Berlin',
      from: '2026-03-02',
      to: '2026-03-08',
      not_held_reason: null,
    });
    expect(found.options.map((o) => [o.start, o.attendee_time, o.held_until])).toEqual([
      ['2026-03-02T08:00:00.000Z', 'Mon 2026-03-02 09:00 Europe/Berlin (UTC+01:00)', '2026-03-02T06:10:00.000Z'],
      ['2026-03-03T08:00:00.000Z', 'Tue 2026-03-03 09:00 Europe/Berlin (UTC+01:00)', '2026-03-02T06:10:00.000Z'],
      ['2026-03-04T08:00:00.000Z', 'Wed 2026-03-04 09:00 Europe/Berlin (UTC+01:00)', '2026-03-02T06:10:00.000Z'],
    ]);
    for (const option of found.options) {
      expect(option.host_time).toBe(option.attendee_time);
      expect(option.end).toBe(new Date(Date.parse(option.start) + 30 * 60_000).toISOString());
    }
    expect(await liveHolds()).toBe(3);
    // Held: anyone else finds the first start busy.
    const check = await callWebhooks(deps, who.olga, 'check_slot', { query: { event_type_id: ET.intro, start: found.options[0]!.start } });
    expect(check.outcome.data).toMatchObject({ available: false, reason: 'slot_busy' });
  });

  it("reads days and part of day in the attendee's zone and shows each start in both zones, with each zone's offset that day", async () => {
    const found = await find({
      host: 'uma',
      attendee_timezone: 'America/New_York',
      part_of_day: 'morning',
      from: '2026-03-06',
      to: '2026-03-09',
      count: 2,
    });
    // Uma's 09:00-17:00 in Berlin is 03:00-11:00 in New York: a New York morning starts at 05:00 there, 11:00 in Berlin.
    expect(found.options.map((o) => [o.attendee_time, o.host_time])).toEqual([
      ['Fri 2026-03-06 05:00 America/New_York (UTC-05:00)', 'Fri 2026-03-06 11:00 Europe/Berlin (UTC+01:00)'],
      // New York moved its clocks on Sunday: the same wall-clock morning is an hour nearer Berlin's.
      ['Mon 2026-03-09 05:00 America/New_York (UTC-04:00)', 'Mon 2026-03-09 10:00 Europe/Berlin (UTC+01:00)'],
    ]);
    const afternoon = await find({ host: 'uma', attendee_timezone: 'America/New_York', part_of_day: 'afternoon' });
    expect(afternoon.options).toEqual([]);
    expect(afternoon.not_held_reason).toBeNull();
  });

  it('fills from the earliest remaining starts once every day has one, and answers them in time order', () => {
    const at = (iso: string) => ({ startMs: Date.parse(iso), endMs: Date.parse(iso) + 1 });
    const slots = [at('2026-03-02T08:00:00Z'), at('2026-03-02T09:00:00Z'), at('2026-03-02T10:00:00Z'), at('2026-03-03T08:00:00Z')];
    expect(spreadOptions(slots, 3, 'UTC')).toEqual([slots[0], slots[1], slots[3]]);
    expect(spreadOptions(slots, 1, 'UTC')).toEqual([slots[0]]);
    // A day is the attendee's: 23:30 UTC on the 2nd is the 3rd in Tokyo, the same day as 08:00 UTC on the 3rd.
    const late = [at('2026-03-02T23:30:00Z'), at('2026-03-03T08:00:00Z'), at('2026-03-04T01:00:00Z')];
    expect(spreadOptions(late, 2, 'Asia/Tokyo')).toEqual([late[0], late[2]]);
  });

  it('books a held option: 201, the booking in both zones, the other options of the same search let go', async () => {
    const found = await find({ attendee_timezone: 'America/New_York', part_of_day: 'morning' });
    const chosen = found.options[1]!;
    const booked = await book({ option_id: chosen.option_id, attendee: BOB });
    expect(booked).toMatchObject({
      status: 'confirmed',
      start_at: chosen.start,
      attendee_time: chosen.attendee_time,
      host_time: chosen.host_time,
      hosts: ['uma'],
      warnings: [],
    });
    expect(await liveHolds()).toBe(0);
    const shown = await callWebhooks(deps, who.uma, 'get_booking', { params: { uid: booked.uid } });
    expect(shown.outcome.data).toMatchObject({ attendees: [{ email: 'bob@example.com', name: 'Bob', timezone: 'America/New_York' }] });
  });

  it('lets go of every sibling even when the clock moves while the options are held (one instant for all of them)', async () => {
    let ms = Date.parse(T0);
    const ticking = { ...deps, clock: { now: () => ms++ } };
    const found = (await callWebhooks(ticking, who.uma, 'find_times', { body: {} })).outcome.data as Options;
    expect(new Set(found.options.map((o) => o.held_until)).size).toBe(1);
    await callWebhooks(ticking, who.uma, 'book_time', { body: { option_id: found.options[2]!.option_id, attendee: BOB } });
    expect(await liveHolds()).toBe(0);
  });

  it("warns, and still books, when the attendee already meets the host that day in the attendee's zone", async () => {
    const first = await find({ from: '2026-03-03', to: '2026-03-03', count: 2 });
    const one = await book({ option_id: first.options[0]!.option_id, attendee: { email: 'Bob@Example.com', timezone: 'Europe/Berlin' } });
    expect(one.warnings).toEqual([]);
    const again = await find({ from: '2026-03-03', to: '2026-03-03', count: 1 });
    const two = await book({ option_id: again.options[0]!.option_id, attendee: { email: 'bob@example.com', timezone: 'Europe/Berlin' } });
    expect(two.warnings).toEqual([
      {
        code: 'attendee_booked_same_day',
        message: `bob@example.com already meets uma that day: booking ${one.uid} at Tue 2026-03-03 09:00 Europe/Berlin (UTC+01:00).`,
      },
    ]);
    // Another day is no warning; a canceled meeting is none either.
    await callWebhooks(deps, who.uma, 'cancel_booking', { params: { uid: one.uid }, body: {} });
    const third = await find({ from: '2026-03-03', to: '2026-03-03', count: 1 });
    expect(
      (await book({ option_id: third.options[0]!.option_id, attendee: { email: 'bob@example.com', timezone: 'Europe/Berlin' } })).warnings,
    ).toEqual([expect.objectContaining({ message: expect.stringContaining(two.uid) })]);
  });

  it('offers a team type unheld, named by the type alone, and books it by the rule with an option id of type and start', async () => {
    const found = await find({ event_type: 'team-demo' }, 'olga');
    expect(found).toMatchObject({
      event_type: { id: ET.team, scheduling: 'round_robin' },
      not_held_reason: 'team_type',
      host_timezone: 'Asia/Tokyo',
    });
    const first = found.options[0]!;
    expect(first).toMatchObject({ option_id: `${ET.team}@${first.start}`, held_until: null });
    expect(await liveHolds()).toBe(0);
    const booked = await book({ option_id: first.option_id, attendee: BOB }, 'olga');
    expect(['uma', 'tess']).toContain(booked.hosts[0]);
    expect(booked.start_at).toBe(first.start);
  });

  it('holds nothing when told not to, or when the token may not book; such a token cannot book_time either', async () => {
    const unheld = await find({ hold: false });
    expect(unheld.not_held_reason).toBe('not_asked');
    expect(unheld.options.every((o) => o.held_until === null && o.option_id.startsWith(`${ET.intro}@`))).toBe(true);
    const slotsOnly = await find({}, 'umaSlots');
    expect(slotsOnly.not_held_reason).toBe('no_booking_scope');
    expect(await liveHolds()).toBe(0);
    expect(
      await scheduleErrorOf(
        callWebhooks(deps, who.umaSlots, 'book_time', { body: { option_id: unheld.options[0]!.option_id, attendee: BOB } }),
      ),
    ).toMatchObject({ code: 'insufficient_scope' });
    // The unheld option books while its start is free.
    expect((await book({ option_id: unheld.options[0]!.option_id, attendee: BOB })).start_at).toBe(unheld.options[0]!.start);
  });

  it('holds what it can once the caller reaches its live holds on the host, and says why the rest are not', async () => {
    for (let i = 0; i < MAX_LIVE_HOLDS - 1; i++) {
      const start = new Date(Date.parse(i < 10 ? '2026-03-10T08:00:00Z' : '2026-03-11T03:00:00Z') + i * 30 * 60_000).toISOString();
      await callWebhooks(deps, who.uma, 'create_hold', { body: { event_type_id: ET.intro, start } });
    }
    const found = await find({});
    expect(found.options.map((o) => o.held_until !== null)).toEqual([true, false, false]);
    expect(found.not_held_reason).toBe('hold_limit_reached');
  });

  it('names the type from a host with several by slug or name (any case), and refuses ambiguity, strangers and windows it cannot search', async () => {
    expect((await find({ host: 'ulf', event_type: 'DEEP DIVE' }, 'olga')).event_type.id).toBe(ET.deep);
    // Without a host: the caller's own only type; a slug alone, anyone's the caller may act for.
    expect((await find({}, 'olga')).event_type.id).toBe(ET.team);
    expect((await find({ event_type: 'chat' }, 'ulf')).event_type.id).toBe(ET.chat);
    expect(await scheduleErrorOf(callWebhooks(deps, who.olga, 'find_times', { body: { event_type: 'chat' } }))).toEqual({
      code: 'validation_error',
      message: 'Several event types fit: tess/chat ("Chat"), ulf/chat ("Chat"). Name one in event_type.',
      details: { fields: ['event_type'] },
    });
    expect((await find({ host: 'ulf@times.test', event_type: 'chat' }, 'olga')).event_type.id).toBe(ET.chat);
    expect((await find({ event_type: ET.chat }, 'olga')).event_type.id).toBe(ET.chat);
    const refused = (body: Record<string, unknown>, caller: Caller = 'olga') =>
      scheduleErrorOf(callWebhooks(deps, who[caller], 'find_times', { body }));
    expect(await refused({ host: 'ulf' })).toEqual({
      code: 'validation_error',
      message: 'Several event types fit: ulf/chat ("Chat"), ulf/deep-dive ("Deep dive"). Name one in event_type.',
      details: { fields: ['event_type'] },
    });
    expect(await refused({ host: 'nobody' })).toEqual({
      code: 'person_not_found',
      message: 'No one you may book for is called nobody.',
      details: { host: 'nobody' },
    });
    // Ulf may not act for Uma: her types are as unknown to him as a stranger.
    expect(await refused({ host: 'uma' }, 'ulf')).toMatchObject({ code: 'person_not_found' });
    expect(await refused({ event_type: 'intro' }, 'ulf')).toMatchObject({ code: 'event_type_not_found' });
    expect(await refused({ host: 'uma', event_type: 'nope' })).toEqual({
      code: 'event_type_not_found',
      message: 'No bookable event type fits; list_event_types shows them.',
      details: {},
    });
    expect(await refused({ from: '2026-03-05', to: '2026-03-04' }, 'uma')).toEqual({
      code: 'validation_error',
      message: 'to: must be on or after from.',
      details: { fields: ['to'] },
    });
    expect(await refused({ from: '2026-03-01', to: '2026-04-01' }, 'uma')).toEqual({
      code: 'validation_error',
      message: 'to: at most 31 days from from.',
      details: { fields: ['to'] },
    });
    expect((await find({ from: '2026-03-01', to: '2026-03-31' }, 'uma')).options).toHaveLength(3);
    expect(await refused({ count: 6 }, 'uma')).toMatchObject({ code: 'validation_error', details: { fields: ['count'] } });
  });

  it("refuses an option id that is none, another caller's hold, and books an expired hold's start while it is still free", async () => {
    const found = await find({});
    const bookAs = (caller: Caller, optionId: string) =>
      scheduleErrorOf(callWebhooks(deps, who[caller], 'book_time', { body: { option_id: optionId, attendee: BOB } }));
    expect(await bookAs('uma', 'tomorrow at ten')).toEqual({
      code: 'validation_error',
      message: 'option_id: not an option_id find_times gave.',
      details: { fields: ['option_id'] },
    });
    expect(await bookAs('uma', `${ET.intro}@yesterday`)).toMatchObject({ code: 'validation_error', details: { fields: ['option_id'] } });
    expect(await bookAs('olga', found.options[0]!.option_id)).toEqual({
      code: 'hold_not_found',
      message: 'No hold with this option_id; find_times again.',
      details: { option_id: found.options[0]!.option_id },
    });
    clock.set('2026-03-02T06:11:00.000Z');
    const late = await book({ option_id: found.options[0]!.option_id, attendee: BOB });
    expect(late.start_at).toBe(found.options[0]!.start);
    // An expired hold is not used, so nothing is let go: the three rows stay until they are swept, none of them live.
    expect(await liveHolds()).toBe(3);
  });

  it("reads a part of day's bounds exactly: a morning ends before 12:00, an afternoon starts at it (Ulf's hour-long type, his Berlin hours)", async () => {
    const day = {
      host: 'ulf',
      event_type: 'deep-dive',
      attendee_timezone: 'Europe/Berlin',
      from: '2026-03-03',
      to: '2026-03-03',
      count: 5,
    };
    const morning = await find({ ...day, part_of_day: 'morning' }, 'olga');
    expect(morning.host_timezone).toBe('Europe/Berlin');
    expect(morning.options.map((o) => o.host_time.slice(15, 20))).toEqual(['09:00', '10:00', '11:00']);
    const afternoon = await find({ ...day, part_of_day: 'afternoon' }, 'olga');
    expect(afternoon.options.map((o) => o.host_time.slice(15, 20))).toEqual(['12:00', '13:00', '14:00', '15:00', '16:00']);
  });

  it('answers no options, not an error, for a window that is past or ends now, and searches a 31-day window across a DST change', async () => {
    expect((await find({ from: '2026-02-01', to: '2026-02-03' })).options).toEqual([]);
    clock.set('2026-03-02T23:00:00.000Z'); // midnight in Berlin: the 2nd has just ended there
    expect((await find({ from: '2026-03-02', to: '2026-03-02' })).options).toEqual([]);
    clock.set(T0);
    // 31 New York days around the end of summer time are 31 days and an hour.
    const autumn = await find({ attendee_timezone: 'America/New_York', from: '2026-10-15', to: '2026-11-14', hold: false });
    expect(autumn.to).toBe('2026-11-14');
  });

  it('books with the zone searched in, UTC when none is given, passes the answers on, and answers where the booking lives', async () => {
    const found = await find({ from: '2026-03-03', to: '2026-03-03', count: 2 });
    const executed = await callWebhooks(deps, who.uma, 'book_time', {
      body: { option_id: found.options[0]!.option_id, attendee: { email: 'kim@example.com' } },
    });
    const booked = executed.outcome.data as Booked;
    expect(executed.outcome).toMatchObject({ status: 201, version: 1, location: `/v1/bookings/${booked.uid}` });
    expect(booked.attendee_time).toBe('Tue 2026-03-03 08:00 UTC (UTC+00:00)');
    expect(booked.host_time).toBe('Tue 2026-03-03 09:00 Europe/Berlin (UTC+01:00)');
    const shown = await callWebhooks(deps, who.uma, 'get_booking', { params: { uid: booked.uid } });
    expect(shown.outcome.data).toMatchObject({ timezone: 'UTC', attendees: [{ timezone: 'UTC' }] });
    // Answers are passed to the create as given (a type without a form keeps them, as a host's notes).
    const more = await find({ from: '2026-03-04', to: '2026-03-04', count: 1 });
    const answered = await book({ option_id: more.options[0]!.option_id, attendee: BOB, responses: { topic: 'x' } });
    const kept = await callWebhooks(deps, who.uma, 'get_booking', { params: { uid: answered.uid } });
    expect(kept.outcome.data).toMatchObject({ responses: { topic: 'x' } });
  });

  it('still uses a hold at the last instant before it expires, and its promise holds against time off added since', async () => {
    const found = await find({ from: '2026-03-03', to: '2026-03-03', count: 1 });
    const option = found.options[0]!;
    await callWebhooks(deps, who.uma, 'create_time_off', {
      params: { user_id: 'me' },
      body: { start: option.start, end: option.end, reason: 'Dentist' },
    });
    clock.set(new Date(Date.parse(option.held_until!) - 1).toISOString());
    expect((await book({ option_id: option.option_id, attendee: BOB })).start_at).toBe(option.start);
    await store.db.deleteFrom('time_off').execute();
  });

  it('books an expired hold at its very expiry without it, which time off then refuses', async () => {
    const found = await find({ from: '2026-03-03', to: '2026-03-03', count: 1 });
    const option = found.options[0]!;
    clock.set(option.held_until!);
    expect((await book({ option_id: option.option_id, attendee: BOB })).start_at).toBe(option.start);
  });

  it('warns of a pending booking of the attendee too, and never of another attendee that day', async () => {
    const day = {
      host: 'ulf',
      event_type: 'chat',
      from: '2026-03-04',
      to: '2026-03-04',
      count: 3,
      attendee_timezone: 'Europe/Berlin',
      hold: false,
    };
    const found = await find(day, 'olga');
    const first = await book(
      { option_id: found.options[0]!.option_id, attendee: { email: 'bob@example.com', timezone: 'Europe/Berlin' } },
      'olga',
    );
    expect(first.status).toBe('pending');
    const other = await book(
      { option_id: found.options[1]!.option_id, attendee: { email: 'eve@example.com', timezone: 'Europe/Berlin' } },
      'olga',
    );
    expect(other.warnings).toEqual([]);
    const again = await book(
      { option_id: found.options[2]!.option_id, attendee: { email: 'bob@example.com', timezone: 'Europe/Berlin' } },
      'olga',
    );
    expect(again.warnings.map((w) => w.message)).toEqual([
      `bob@example.com already meets ulf that day: booking ${first.uid} at Wed 2026-03-04 09:00 Europe/Berlin (UTC+01:00).`,
    ]);
  });

  it('offers unheld a start taken between the search and the hold, and still holds the rest', async () => {
    const times = { db: store.db, dialect: store.dialect, clock, ids: deps.ids, calendars: deps.calendars };
    const found = await findTimes(times, who.uma, findTimesBodySchema.parse({ count: 2 }));
    await callWebhooks(deps, who.olga, 'create_booking', {
      body: { event_type_id: ET.intro, start: toIso(found.chosen[0]!.startMs), attendee: { email: 'eve@example.com' } },
    });
    const answer = await holdTimes(store.db, times, who.uma, found);
    expect(answer.options.map((o) => o.held_until !== null)).toEqual([false, true]);
    expect(answer.not_held_reason).toBe('slot_taken');
  });

  it('lets a fault of the database end the call rather than offer the time unheld', async () => {
    const times = { db: store.db, dialect: store.dialect, clock, ids: deps.ids, calendars: deps.calendars };
    const found = await findTimes(times, who.uma, findTimesBodySchema.parse({}));
    const broken = new Proxy({} as Executor, {
      get() {
        throw new Error('disk full');
      },
    });
    await expect(holdTimes(broken, times, who.uma, found)).rejects.toThrow('disk full');
  });

  it("reads each host's zone: their hours' zone, else their own; UTC for no one; nothing read for no one", async () => {
    expect(await hostZone(store.db, ID.ulf)).toBe('Europe/Berlin');
    expect(await hostZone(store.db, ID.olga)).toBe('Asia/Tokyo');
    expect(await hostZone(store.db, U(9))).toBe('UTC');
    expect(await hostZones(store.db, [])).toEqual(new Map());
    expect(await hostZones(store.db, [ID.uma, ID.uma])).toEqual(new Map([[ID.uma, 'Europe/Berlin']]));
  });

  it('answers a retry with the same idempotency key with the same options, holding nothing more', async () => {
    const first = await find({}, 'uma', 'same-key');
    const again = await find({}, 'uma', 'same-key');
    expect(again).toEqual(first);
    expect(await liveHolds()).toBe(3);
  });
});

describe('local time', () => {
  afterEach(() => {
    Settings.defaultLocale = 'en-US';
    Settings.defaultZone = 'system';
  });

  it('writes English and the zone asked for whatever the process is set to', () => {
    Settings.defaultLocale = 'de-DE';
    Settings.defaultZone = 'Asia/Tokyo';
    const at = Date.parse('2026-10-25T00:30:00Z');
    expect(localTime(at, 'Europe/Berlin')).toBe('Sun 2026-10-25 02:30 Europe/Berlin (UTC+02:00)');
    expect(localTime(at, 'Mars/Base')).toBe('Sun 2026-10-25 00:30 UTC (UTC+00:00)');
    expect(startOfDate('2026-03-08', 'America/New_York')).toBe(Date.parse('2026-03-08T05:00:00Z'));
    expect(startOfDate('2026-03-08', 'UTC')).toBe(Date.parse('2026-03-08T00:00:00Z'));
  });

  it('counts minutes of the day, and days across a month and a leap day', () => {
    expect(minuteOfDay(Date.parse('2026-03-02T12:30:00Z'), 'UTC')).toBe(750);
    expect(minuteOfDay(Date.parse('2026-03-02T12:30:00Z'), 'Asia/Kolkata')).toBe(18 * 60);
    expect(addDays('2026-02-28', 1)).toBe('2026-03-01');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(dateIn(Date.parse('2026-03-02T23:30:00Z'), 'Asia/Tokyo')).toBe('2026-03-03');
  });

  it('names the weekday, date, time, zone and offset, and reads an unknown zone as UTC', () => {
    const at = Date.parse('2026-10-25T00:30:00Z');
    expect(localTime(at, 'Europe/Berlin')).toBe('Sun 2026-10-25 02:30 Europe/Berlin (UTC+02:00)');
    expect(localTime(at + 3_600_000, 'Europe/Berlin')).toBe('Sun 2026-10-25 02:30 Europe/Berlin (UTC+01:00)');
    expect(localTime(at, 'UTC')).toBe('Sun 2026-10-25 00:30 UTC (UTC+00:00)');
    expect(localTime(at, 'Mars/Base')).toBe('Sun 2026-10-25 00:30 UTC (UTC+00:00)');
    expect(localTime(at, 'Asia/Kolkata')).toBe('Sun 2026-10-25 06:00 Asia/Kolkata (UTC+05:30)');
  });
});
