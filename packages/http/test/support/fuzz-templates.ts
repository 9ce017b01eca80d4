import { EVENT_TYPE, T0, USER } from './fuzz-workspace.js';

// A plausible valid body or query for each operation, made from a few small
// numbers. The fuzzer mutates these, so that besides refusals at the front
// door its cases also reach availability, series expansion and the writes.

/** The small numbers a template is built from; fast-check draws and shrinks them. */
export type Seeds = readonly [number, number, number, number, number, number];

const DAY_MS = 86_400_000;
const pick = <T>(values: readonly T[], seed: number): T => values[seed % values.length]!;
const pad = (n: number) => String(n).padStart(2, '0');

/** A weekday half-hour between 09:00 and 16:30 UTC within the next eight weeks: working hours on the hosts' grid. */
function slot(day: number, half: number): string {
  const offset = Math.floor((day % 40) / 5) * 7 + (day % 5);
  const minutes = 9 * 60 + (half % 16) * 30;
  return new Date(Date.parse(T0) - 8 * 3_600_000 + offset * DAY_MS + minutes * 60_000).toISOString();
}

const dateOf = (day: number) => new Date(Date.parse(T0) + (day % 60) * DAY_MS).toISOString().slice(0, 10);

const BOOKABLE = [
  EVENT_TYPE.meet,
  EVENT_TYPE.meet,
  EVENT_TYPE.meet,
  EVENT_TYPE.form,
  EVENT_TYPE.fixed,
  EVENT_TYPE.uma,
  EVENT_TYPE.ivo,
  EVENT_TYPE.off,
];
const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

/** Only the keys whose bit is set in `mask`; the rest are left out. */
function some<T>(fields: Record<string, T>, mask: number): Record<string, T> {
  return Object.fromEntries(Object.entries(fields).filter((_, i) => (mask >> i) & 1));
}

/** Bodies by operation name; an operation without one takes no body. */
export const BODY_TEMPLATES: Readonly<Record<string, (s: Seeds) => Record<string, unknown>>> = {
  create_booking: ([a, b, c, d, e]) => ({
    ...(e % 5 === 0 ? { username: 'olga', event_slug: 'meet' } : { event_type_id: pick(BOOKABLE, a) }),
    start: slot(b, c),
    attendee: { email: `guest${d}@example.test`, name: 'Fuzz Guest', ...(e % 3 === 0 ? { timezone: 'America/New_York' } : {}) },
    ...some({ timezone: 'Europe/Berlin', responses: { topic: 'fuzz', agenda: 'x' }, metadata: { n: d }, guests: ['g@example.test'] }, e),
  }),
  create_series: ([a, b, c, d, e, f]) => ({
    host_user_id: pick([USER.olga, USER.olga, USER.uma, USER.ivo], f),
    event_type_id: pick([EVENT_TYPE.weekly, EVENT_TYPE.weekly, EVENT_TYPE.single, EVENT_TYPE.meet], e),
    attendee: { email: `series${d}@example.test`, name: 'Fuzz Series' },
    frequency: a % 4 === 0 ? 'monthly_same_day' : 'weekly',
    weekdays: WEEKDAYS.filter((_, i) => ((b % 127) + 1) & (1 << i)),
    time: `${pad(9 + (c % 8))}:${c % 2 ? '30' : '00'}`,
    starts_on: dateOf(d),
    count: 1 + (e % 6),
    ...some({ location_url: 'https://meet.test/fuzz', notify_invitee: false, timezone: 'UTC', interval_weeks: 2 }, f),
  }),
  cancel_booking: ([a]) => (a % 2 ? { reason: 'fuzz' } : {}),
  reschedule_booking: ([a, b, c]) => ({ start: slot(a, b), ...some({ timezone: 'Asia/Tokyo', reason: 'moved' }, c) }),
  update_booking: ([a, b]) => pick([{ metadata: { k: a } }, { responses: { topic: 't' } }, { attendee_name: `Renamed ${a}` }], b),
  update_series: ([a, b]) =>
    pick(
      [
        { time: `${pad(9 + (a % 8))}:00` },
        { notify_invitee: a % 2 === 0 },
        { weekdays: ['mon', 'wed'] },
        { interval_weeks: 1 + (a % 8) },
        { location_url: 'https://meet.test/moved' },
        { frequency: 'monthly_same_day' },
      ],
      b,
    ),
  change_series_host: ([a]) => ({ host_user_id: pick([USER.uma, USER.olga, USER.ivo, USER.max], a) }),
  pause_series: () => ({}),
  resume_series: () => ({}),
  end_series: () => ({}),
};

/** Query parameters by operation name, as text. */
export const QUERY_TEMPLATES: Readonly<Record<string, (s: Seeds) => Record<string, string>>> = {
  list_bookings: ([a, b, c, d]) =>
    some(
      {
        limit: String(1 + (a % 100)),
        sort: pick(['start_at_desc', 'start_at_asc', 'created_at_desc', 'updated_at_asc', 'updated_at_desc'], b),
        status: pick(['confirmed', 'canceled', 'confirmed,canceled'], c),
        start_date: dateOf(d),
        end_date: slot(d + 5, a),
        event_type_id: EVENT_TYPE.meet,
        host_user_id: USER.olga,
        include_cancelled: b % 2 ? 'true' : 'false',
        attendee_email: 'bob@example.test',
        updated_since: T0,
      },
      c * 7 + d,
    ),
  list_series: ([a, b, c]) =>
    some(
      {
        limit: String(1 + (a % 100)),
        status: pick(['active', 'paused,ended', 'active,paused,ended'], b),
        host_user_id: USER.olga,
        event_type_id: EVENT_TYPE.weekly,
      },
      c,
    ),
  list_slots: ([a, b, c]) => ({
    ...(c % 3 === 0 ? { username: 'olga', event_slug: 'meet' } : { event_type_id: pick(BOOKABLE, a) }),
    start: dateOf(b),
    end: dateOf(b + 1 + (c % 31)),
    ...(c % 2 ? { timezone: 'Europe/Berlin' } : {}),
  }),
  check_slot: ([a, b, c]) => ({
    event_type_id: pick(BOOKABLE, a),
    start: slot(b, c),
    ...some({ timezone: 'UTC', end: slot(b, c + 1) }, c),
  }),
  list_people: ([a]) => some({ limit: String(1 + (a % 100)) }, a),
  list_event_types: ([a]) => some({ limit: String(1 + (a % 100)) }, a),
  whoami: () => ({}),
};
