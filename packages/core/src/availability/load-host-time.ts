import type { ExpressionBuilder } from 'kysely';
import type { Clock } from '../clock.js';
import { ScheduleError } from '../errors.js';
import type { EventTypeWithHost, HostRecord } from '../event-types/resolve-event-type.js';
import { type HoldReader, heldTimes } from '../holds/held-times.js';
import { runPrepared } from '../storage/prepared-query.js';
import type { Database } from '../storage/schema.js';
import type { Executor } from '../storage/store.js';
import { MINUTE_MS, toTimestamp } from '../time.js';
import { type Interval, overlaps } from './busy.js';
import { type CalendarReader, CalendarUnreadable } from './calendar-reader.js';
import { type Capacity, capacityOf, type Limits } from './capacity.js';
import { busyOf, type HostTime, type SlotPolicy } from './slot-rules.js';
import { timeOffBusy } from './time-off-busy.js';

/** How long a caller should wait after a conflict calendar could not be read. */
export const CALENDAR_RETRY_AFTER_SECONDS = 30;

export function policyOf(eventType: EventTypeWithHost): SlotPolicy {
  return {
    status: eventType.status,
    durationMinutes: eventType.durationMinutes,
    slotIntervalMinutes: eventType.slotIntervalMinutes,
    minimumNoticeMinutes: eventType.minimumNoticeMinutes,
    futureLimitDays: eventType.futureLimitDays,
    bufferBeforeMinutes: eventType.bufferBeforeMinutes,
    bufferAfterMinutes: eventType.bufferAfterMinutes,
    limits: limitsOf(eventType),
  };
}

/** The type's limits and seats, or undefined for a type with neither (its checks then read nothing more). */
export function limitsOf(eventType: Pick<EventTypeWithHost, 'id' | 'maxPerDay' | 'maxPerWeek' | 'seats'>): Limits | undefined {
  const { maxPerDay, maxPerWeek, seats } = eventType;
  if (maxPerDay === null && maxPerWeek === null && seats === null) return undefined;
  return { eventTypeId: eventType.id, maxPerDay, maxPerWeek, seats };
}

/**
 * Which bookings hold the host's time and count against limits and seats
 * (docs/api/choices.md "Limits and seats", "Pending bookings"): confirmed
 * ones, and pending ones until their start, the deadline of the host's
 * answer. The one place this is said.
 */
export const blocksTime = (now: string) => (eb: ExpressionBuilder<Database, 'bookings'>) =>
  eb.or([eb('bookings.status', '=', 'confirmed'), eb.and([eb('bookings.status', '=', 'pending'), eb('bookings.start_at', '>', now)])]);

/**
 * No booking lasts longer than this (event types are at most a day long),
 * which bounds how far back an overlapping booking can start.
 */
export const MAX_BOOKING_MS = 24 * 60 * MINUTE_MS;

/**
 * The host's bookings that block time, overlapping a window given by
 * overlapBounds: confirmed ones, and pending ones still awaiting the host
 * (start after `now`). A pending booking stops blocking at its start, the
 * deadline for its answer, whether or not the pass that declines it
 * (bookings/decline-unanswered.ts) has run yet.
 */
export const overlappingBookings = (db: Executor, hostId: string, lowest: string, before: string, after: string, now: string) =>
  db
    .selectFrom('bookings')
    .select(['start_at', 'end_at', 'uid', 'event_type_id'])
    .where('host_user_id', '=', hostId)
    .where(blocksTime(now))
    // The lower bound keeps this a short range scan of (host, start_at), not a scan of the host's whole history.
    .where('start_at', '>', lowest)
    .where('start_at', '<', before)
    .where('end_at', '>', after)
    // And the bookings the host co-hosts (a collective type's), by the same range over booking_hosts.
    .unionAll(
      db
        .selectFrom('booking_hosts')
        .innerJoin('bookings', 'bookings.uid', 'booking_hosts.booking_uid')
        .select(['bookings.start_at', 'bookings.end_at', 'bookings.uid', 'bookings.event_type_id'])
        .where('booking_hosts.user_id', '=', hostId)
        .where(blocksTime(now))
        .where('booking_hosts.start_at', '>', lowest)
        .where('booking_hosts.start_at', '<', before)
        .where('booking_hosts.end_at', '>', after),
    );

/** overlappingBookings' bounds for a window: the earliest start to look from, then the window's end and start. */
export function overlapBounds(window: Interval): [lowest: string, before: string, after: string] {
  return [toTimestamp(window.startMs - MAX_BOOKING_MS), toTimestamp(window.endMs), toTimestamp(window.startMs)];
}

/**
 * The host's bookings that block time (overlappingBookings) at `nowMs` and
 * overlap `window`, except one being moved and, when given, those of one
 * event type (a seated type's own, which its seat groups account for).
 */
export async function blockingBookings(
  db: Executor,
  hostId: string,
  window: Interval,
  nowMs: number,
  exceptUid?: string,
  exceptEventTypeId?: string,
): Promise<Interval[]> {
  const rows = await runPrepared(db, overlappingBookings, [hostId, ...overlapBounds(window), toTimestamp(nowMs)]);
  const out: Interval[] = [];
  for (const r of rows) {
    if (r.uid !== exceptUid && r.event_type_id !== exceptEventTypeId)
      out.push({ startMs: Date.parse(r.start_at), endMs: Date.parse(r.end_at) });
  }
  return out;
}

/** A limit counts the ISO week around a start; this reach covers any week (and a DST day) from any start of a window. */
const WEEK_REACH_MS = 8 * 24 * 60 * MINUTE_MS;

/** One event type's active bookings of a host starting in a window, for its limits and seats. */
const typeBookingsQuery = (db: Executor, hostId: string, eventTypeId: string, from: string, to: string, now: string) =>
  db
    .selectFrom('bookings')
    .select(['start_at', 'end_at', 'uid'])
    .where('host_user_id', '=', hostId)
    .where(blocksTime(now))
    .where('start_at', '>=', from)
    .where('start_at', '<', to)
    .where('event_type_id', '=', eventTypeId)
    .unionAll(
      db
        .selectFrom('booking_hosts')
        .innerJoin('bookings', 'bookings.uid', 'booking_hosts.booking_uid')
        .select(['bookings.start_at', 'bookings.end_at', 'bookings.uid'])
        .where('booking_hosts.user_id', '=', hostId)
        .where(blocksTime(now))
        .where('booking_hosts.start_at', '>=', from)
        .where('booking_hosts.start_at', '<', to)
        .where('bookings.event_type_id', '=', eventTypeId),
    );

/**
 * The host's bookings and others' live holds as a check of `policy` over
 * `window` needs them: the busy intervals, and for a type with limits or
 * seats its own bookings and holds across the weeks the window touches (a
 * hold takes a seat and counts against a limit as the booking it may
 * become). Read the same way before a write and under the host's lock in
 * it, so both judge alike.
 */
export async function hostBookings(
  db: Executor,
  policy: SlotPolicy,
  host: Pick<HostRecord, 'id' | 'timezone' | 'schedule'>,
  window: Interval,
  reader: HoldReader & { readonly exceptUid?: string | undefined },
): Promise<{ busy: Interval[]; capacity: Capacity | undefined }> {
  const limits = policy.limits;
  if (limits === undefined) return { busy: await takenTimes(db, host.id, window, reader), capacity: undefined };
  const seated = limits.seats === null ? undefined : limits.eventTypeId;
  const range = [toTimestamp(window.startMs - WEEK_REACH_MS), toTimestamp(window.endMs + WEEK_REACH_MS)];
  const [bookings, holds, own] = await Promise.all([
    blockingBookings(db, host.id, window, reader.nowMs, reader.exceptUid, seated),
    // One read of the host's holds across the weeks: they are few, and this runs under the host's lock.
    heldTimes(db, host.id, [range[0]!, range[1]!, range[0]!], reader),
    runPrepared(db, typeBookingsQuery, [host.id, limits.eventTypeId, ...range, toTimestamp(reader.nowMs)]),
  ]);
  const ownType = holds.filter((h) => h.eventTypeId === limits.eventTypeId);
  const busy = [...bookings, ...holds.filter((h) => h.eventTypeId !== seated && overlaps(h, window))];
  const intervals = [
    ...own.filter((r) => r.uid !== reader.exceptUid).map((r) => ({ startMs: Date.parse(r.start_at), endMs: Date.parse(r.end_at) })),
    ...ownType,
  ];
  // Days and weeks are the host's, in the zone their working hours are read in.
  return { busy, capacity: capacityOf(limits, intervals, host.schedule?.timezone ?? host.timezone) };
}

/**
 * What keeps a new booking of the host out of `window`: the host's confirmed
 * bookings (except one being moved) and the live holds of everyone but the
 * reader (docs/api/holds.md). Every write checks this under the host's lock,
 * and every read of availability takes the same two, so a held time is busy
 * alike in slots, checks, creates, reschedules and series.
 */
export async function takenTimes(
  db: Executor,
  hostId: string,
  window: Interval,
  reader: HoldReader & { readonly exceptUid?: string | undefined },
): Promise<Interval[]> {
  const [bookings, holds] = await Promise.all([
    blockingBookings(db, hostId, window, reader.nowMs, reader.exceptUid),
    heldTimes(db, hostId, overlapBounds(window), reader),
  ]);
  return [...bookings, ...holds];
}

/**
 * Reads the host's conflict calendars. One that cannot be read makes
 * availability unknown: `503 availability_unavailable` with `Retry-After`,
 * and nothing is booked (docs/workspace.md).
 */
export async function calendarBusy(
  deps: { db: Executor; calendars: CalendarReader },
  host: HostRecord,
  window: Interval,
): Promise<Interval[]> {
  try {
    return await withoutOwnBookings(deps.db, host.id, await deps.calendars.busy(host.calendars, window, host.timezone));
  } catch (error) {
    if (error instanceof CalendarUnreadable) {
      throw new ScheduleError(
        'availability_unavailable',
        (w) => `The host's conflict calendar could not be read; nothing was booked. Retry with the same ${w.name.idempotency_key}.`,
        {},
        CALENDAR_RETRY_AFTER_SECONDS,
        { cause: error },
      );
    }
    throw error;
  }
}

/**
 * The host's busy time besides their bookings: their conflict calendars and
 * their time off. Every reader of availability (slots, checks, bookings,
 * reschedules, series) takes it from here, so time off blocks each alike.
 */
export async function hostBusy(deps: { db: Executor; calendars: CalendarReader }, host: HostRecord, window: Interval): Promise<Interval[]> {
  const [calendar, timeOff] = await Promise.all([calendarBusy(deps, host, window), timeOffBusy(deps.db, host.id, window)]);
  return [...calendar, ...timeOff];
}

/**
 * A host's calendar holds the events this service wrote for the host's
 * bookings, and the invites of bookings they co-host (docs/calendars.md). The booking is the truth about its own time:
 * its event is left out, so a reschedule is not blocked by the event of the
 * booking it moves, nor a freed slot by the event of a canceled booking the
 * calendar still shows until the sync removes it. An event of ours for
 * someone else's booking (an invite the host accepted) still counts.
 */
async function withoutOwnBookings(db: Executor, hostId: string, busy: Interval[]): Promise<Interval[]> {
  // Stryker disable next-line ArrayDeclaration,ConditionalExpression: a seeded uid, or an undefined one, for an interval without a uid names no booking, so the query finds the same own bookings (the line's other mutants of these kinds, which claim no uids, are killed by load-host-time.test.ts).
  const claimed = [...new Set(busy.flatMap((b) => (b.bookingUid === undefined ? [] : [b.bookingUid])))];
  const own = new Set<string>();
  // Chunked: a calendar may carry many of our events, and a statement has a parameter limit.
  // Stryker disable next-line EqualityOperator: PostgreSQL only: `<=` runs one more query with an empty `in ()`, which SQLite answers with no rows and PostgreSQL refuses (three load-host-time.test.ts cases fail with it on PostgreSQL).
  for (let i = 0; i < claimed.length; i += 500) {
    const uids = claimed.slice(i, i + 500);
    const rows = await db
      .selectFrom('bookings')
      .select('uid')
      .where('host_user_id', '=', hostId)
      .where('uid', 'in', uids)
      .unionAll(db.selectFrom('booking_hosts').select('booking_uid as uid').where('user_id', '=', hostId).where('booking_uid', 'in', uids))
      .execute();
    for (const row of rows) own.add(row.uid);
  }
  // Stryker disable next-line ConditionalExpression: own holds only uids read from rows, never undefined, so without the first test an interval without a uid is still kept (the line's mutants keeping all or none are killed by load-host-time.test.ts).
  return busy.filter((b) => b.bookingUid === undefined || !own.has(b.bookingUid));
}

/**
 * Everything needed to decide a host's free time across `range` for a slot
 * policy. `reachMinutes` widens the read so that bookings just outside the
 * range still count against slots at its edges.
 */
export async function loadHostTime(
  deps: { db: Executor; clock: Clock; calendars: CalendarReader },
  policy: SlotPolicy,
  host: HostRecord,
  range: Interval,
  options: {
    exceptBookingUid?: string | undefined;
    /** Whose holds leave their time free (holds/holder.ts ownHolds); by default no one's. */
    holder?: string | undefined;
    /**
     * False leaves the host's bookings and holds out: for a caller that
     * checks them itself under the host's lock (a create), where reading them
     * here too would only repeat that check. Both answer `slot_busy`.
     */
    withBookings?: boolean;
  } = {},
): Promise<HostTime> {
  const reach = (policy.bufferBeforeMinutes + policy.bufferAfterMinutes + policy.durationMinutes) * MINUTE_MS;
  const window = { startMs: range.startMs - reach, endMs: range.endMs + reach };
  const nowMs = deps.clock.now();
  const reader = { nowMs, holder: options.holder ?? '', exceptUid: options.exceptBookingUid };
  const [taken, calendar] = await Promise.all([
    // Stryker disable next-line ArrayDeclaration: a seeded entry has no startMs or endMs, and busyOf (mergeIntervals) drops an interval of no length.
    options.withBookings === false ? { busy: [], capacity: undefined } : hostBookings(deps.db, policy, host, window, reader),
    hostBusy(deps, host, window),
  ]);
  return { policy, schedule: host.schedule, zone: host.timezone, busy: busyOf(taken.busy, calendar), nowMs, capacity: taken.capacity };
}

/**
 * A host time read without bookings (or read before the lock) completed
 * with the bookings and others' holds read now in `db`, under the host's lock: what a write
 * re-checks before it books a type with limits or seats.
 */
export async function withHostBookings(
  db: Executor,
  time: HostTime,
  host: Pick<HostRecord, 'id' | 'timezone' | 'schedule'>,
  slot: Interval,
  reader: HoldReader & { readonly exceptUid?: string | undefined },
): Promise<HostTime> {
  const { policy } = time;
  const reach = (policy.bufferBeforeMinutes + policy.bufferAfterMinutes + policy.durationMinutes) * MINUTE_MS;
  const bookings = await hostBookings(db, policy, host, { startMs: slot.startMs - reach, endMs: slot.endMs + reach }, reader);
  return { ...time, busy: busyOf(time.busy, bookings.busy), capacity: bookings.capacity };
}
