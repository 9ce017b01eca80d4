import type { Principal } from '../auth/principal.js';
import { mayActFor } from '../auth/roles.js';
import type { CalendarReader } from '../availability/calendar-reader.js';
import { loadHostTime, policyOf, takenTimes, withHostBookings } from '../availability/load-host-time.js';
import { checkStart, type HostTime } from '../availability/slot-rules.js';
import { freeMembersAt, loadTeamTime, type MemberTime, teamCheck } from '../availability/team-time.js';
import type { Clock } from '../clock.js';
import type { ConferenceLinks } from '../conference-links.js';
import { ScheduleError } from '../errors.js';
import { bookingLocationOf } from '../event-types/booking-location.js';
import { checkAnswers } from '../event-types/questions.js';
import { type EventTypeWithHost, type HostRecord, type PoolMember, resolveEventType } from '../event-types/resolve-event-type.js';
import type { HoldReader } from '../holds/held-times.js';
import { ownHolds } from '../holds/holder.js';
import { useHold } from '../holds/use-hold.js';
import type { IdGenerator } from '../ids.js';
import { outboxRow } from '../outbox/record-event.js';
import { notificationRows } from '../outbox/record-notification.js';
import { reminderRows } from '../reminders/schedule-reminders.js';
import { lockHost, lockHosts } from '../storage/host-lock.js';
import type { Dialect, Executor } from '../storage/store.js';
import { rankHosts, recentLoads } from '../teams/round-robin.js';
import { MINUTE_MS, parseInstant, toTimestamp } from '../time.js';
import { type CreateBookingBody, eventTypeRefOf } from './booking-input.js';
import { bookingMail } from './booking-mail.js';
import { toBooking } from './booking-rows.js';
import type { Booking } from './booking-view.js';
import { newBookingRow } from './new-booking.js';
import { type NewBookingWrite, writeBookingRows, writeNewBooking } from './write-new-booking.js';

export interface BookingWriteDeps {
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly calendars: CalendarReader;
  readonly conferenceLinks: ConferenceLinks;
  readonly dialect: Dialect;
}

/**
 * Refuses a start the host is not free at, with the reason in `details`
 * (docs/api/choices.md: grid, working hours, notice and horizon all answer
 * `409 slot_unavailable`, as `GET /v1/slots` would not list it).
 */
export function unavailable(reason: string): ScheduleError {
  return new ScheduleError('slot_unavailable', 'The host is not free at this time.', { reason });
}

/**
 * True when no booking of the host that blocks time (confirmed, or pending
 * before its deadline), and no live hold of anyone but the reader, overlaps
 * the slot widened by its buffers. Run inside the write transaction: it
 * takes the host's lock first, so that this check and the write that follows
 * are one step. This is the check that makes double booking impossible;
 * earlier reads only give the caller a precise reason.
 */
export async function isStillFree(
  trx: Executor,
  dialect: Dialect,
  hostId: string,
  eventType: Pick<EventTypeWithHost, 'bufferBeforeMinutes' | 'bufferAfterMinutes'>,
  slot: { startMs: number; endMs: number },
  reader: HoldReader & { readonly exceptUid?: string | undefined },
): Promise<boolean> {
  await lockHost(trx, dialect, hostId);
  return (await takenTimes(trx, hostId, widen(eventType, slot), reader)).length === 0;
}

/** The time a booking of this event type keeps the host from other bookings: the slot and its buffers. */
function widen(
  eventType: Pick<EventTypeWithHost, 'bufferBeforeMinutes' | 'bufferAfterMinutes'>,
  slot: { startMs: number; endMs: number },
): { startMs: number; endMs: number } {
  return {
    startMs: slot.startMs - eventType.bufferBeforeMinutes * MINUTE_MS,
    endMs: slot.endMs + eventType.bufferAfterMinutes * MINUTE_MS,
  };
}

/** isStillFree, refusing with `409 slot_unavailable` when the slot was taken. */
export async function assertStillFree(...args: Parameters<typeof isStillFree>): Promise<void> {
  if (!(await isStillFree(...args))) throw unavailable('slot_busy');
}

/**
 * Under the host's lock, for a type with limits or seats: the host's
 * bookings read now, judged by the same checkStart as the reads before
 * (`409 slot_unavailable` with its reason when refused).
 */
export async function assertStillBookable(
  trx: Executor,
  time: HostTime,
  host: EventTypeWithHost['host'],
  slot: { startMs: number; endMs: number },
  reader: HoldReader & { readonly exceptUid?: string | undefined },
): Promise<void> {
  const check = checkStart(await withHostBookings(trx, time, host, slot, reader), slot.startMs);
  if (!check.available) throw unavailable(check.reason);
}

/** Validates a create against the event type and the host's time, before any write. */
export async function prepareBooking(
  deps: BookingWriteDeps & { db: Executor },
  principal: Principal,
  body: CreateBookingBody,
): Promise<PreparedBooking> {
  const eventType = await resolveEventType(deps.db, principal, eventTypeRefOf(body));
  checkAnswers(eventType.questions, body.responses);
  if (eventType.status !== 'on') throw new ScheduleError('event_type_inactive', 'This event type is not taking bookings.', {});
  const startMs = parseInstant(body.start)!.epochMs;
  const nowMs = deps.clock.now();
  if (startMs < nowMs) throw new ScheduleError('slot_in_past', 'The start is in the past.', {});
  const endMs = startMs + eventType.durationMinutes * MINUTE_MS;
  const holdId = body.hold_id;
  const policy = policyOf(eventType);
  const base = { eventType, startMs, endMs, holder: ownHolds(principal), holdId };
  if (eventType.scheduling !== 'single') {
    // Each host's bookings are checked under the hosts' locks in the write (insertTeamBooking).
    const pool = chosenPool(principal, eventType, body.host_user_id);
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: speed only: the write checks each host's bookings under the locks and refuses alike.
    const members = await loadTeamTime(deps, policy, pool, { startMs, endMs }, { withBookings: false });
    const check = teamCheck(members, startMs);
    if (!check.available) throw unavailable(check.reason);
    return { ...base, time: undefined, team: freeMembersAt(members, startMs) };
  }
  if (body.host_user_id !== undefined && body.host_user_id !== eventType.host.id) throw notInPool();
  // A hold vouches for the host's time as of when it was made; the write uses it up or refuses (holds/use-hold.ts).
  // A type with limits or seats is judged again in the write whatever vouches for it, from this time.
  const time =
    holdId === undefined || policy.limits !== undefined
      ? await loadHostTime(deps, policy, eventType.host, { startMs, endMs }, { withBookings: false })
      : undefined;
  if (time !== undefined && holdId === undefined) {
    // The host's bookings and holds are checked once, in the write under the host's lock (insertBooking).
    const check = checkStart(time, startMs);
    if (!check.available) throw unavailable(check.reason);
  }
  return { ...base, time, team: undefined };
}

const notInPool = () =>
  new ScheduleError('host_not_allowed', 'host_user_id is not a host of this event type that this caller may act for.', {
    fields: ['host_user_id'],
  });

/**
 * The hosts a team create may book: the whole pool, or with the host the
 * caller asked for, who must be in it and someone the caller may act for
 * (docs/api/teams.md "Who may do what"). Round robin then books that host
 * (with its fixed hosts); a collective booking makes them its `host`. A
 * fixed host of round robin meets every booking, so naming one chooses
 * nothing: refused alike.
 */
function chosenPool(principal: Principal, eventType: EventTypeWithHost, hostUserId: string | undefined): readonly PoolMember[] {
  if (hostUserId === undefined) return eventType.pool;
  const member = eventType.pool.find((m) => m.host.id === hostUserId);
  const chooses = eventType.scheduling === 'collective' || member?.fixed === false;
  if (member === undefined || !chooses || !mayActFor(principal.actsFor, member.host.id)) throw notInPool();
  return [member, ...eventType.pool.filter((m) => m.fixed && m !== member)];
}

/** A create checked before its write: the event type, the slot, the hold it turns into, and the host's time read. */
export interface PreparedBooking {
  readonly eventType: EventTypeWithHost;
  readonly startMs: number;
  readonly endMs: number;
  /** The caller's holds leave their time free for this booking (holds/holder.ts). */
  readonly holder: string;
  readonly holdId?: string | undefined;
  /** Without bookings; undefined when a hold vouches for a type without limits or seats, and for a team type. */
  readonly time: HostTime | undefined;
  /** A team type's hosts free at the start before the write, each with their time read without bookings. */
  readonly team: readonly MemberTime[] | undefined;
}

/**
 * Inserts the booking, with its event and mail, once the slot is confirmed
 * free: `booking.created` and `booking_created`, or for an event type that
 * requires confirmation a `pending` booking with `booking.requested` and
 * `booking_requested` (the host asked to answer, the attendee told to wait).
 */
export async function insertBooking(
  trx: Executor,
  deps: BookingWriteDeps,
  body: CreateBookingBody,
  prepared: PreparedBooking,
): Promise<Booking> {
  if (prepared.team !== undefined) return insertTeamBooking(trx, deps, body, prepared, prepared.team);
  const { eventType, startMs, endMs } = prepared;
  const { booking, write } = await bookingWrite(trx, deps, body, prepared, eventType.host);
  await lockHost(trx, deps.dialect, eventType.host.id);
  const nowMs = deps.clock.now();
  if (prepared.holdId !== undefined)
    await useHold(trx, prepared.holder, prepared.holdId, { eventTypeId: eventType.id, startMs, endMs, nowMs });
  const reader = { nowMs, holder: prepared.holder };
  if (prepared.time?.policy.limits !== undefined) {
    // Limits and seats count the type's bookings, which the one-statement check cannot: a sequential check, under the same lock.
    await assertStillBookable(trx, prepared.time, eventType.host, { startMs, endMs }, reader);
    await writeBookingRows(trx, write);
    return booking;
  }
  const written = await writeNewBooking(trx, deps.dialect, write, widen(eventType, { startMs, endMs }), reader);
  if (!written) throw unavailable('slot_busy');
  return booking;
}

/**
 * A team create (docs/api/teams.md): the hosts free before the write are
 * locked together, in one fixed order, then checked under the locks as a
 * single host's create is. Every fixed host (all of a collective pool) must
 * still be free; the hosts to choose from are tried in the order the rule
 * prefers them (teams/round-robin.ts), and the first still free takes the
 * booking. A host who became busy meanwhile is passed over, never
 * double-booked; a fixed one leaves the slot taken.
 */
async function insertTeamBooking(
  trx: Executor,
  deps: BookingWriteDeps,
  body: CreateBookingBody,
  prepared: PreparedBooking,
  team: readonly MemberTime[],
): Promise<Booking> {
  const { eventType, startMs, endMs } = prepared;
  await lockHosts(
    trx,
    deps.dialect,
    // Stryker disable next-line ArrowFunction: PostgreSQL only: SQLite holds the whole database for the write, and its row locks are no-ops.
    team.map((m) => m.member.host.id),
  );
  const nowMs = deps.clock.now();
  // A team type takes no holds (docs/api/holds.md), so any hold named here is another type's: hold_mismatch, or not found.
  if (prepared.holdId !== undefined)
    await useHold(trx, prepared.holder, prepared.holdId, { eventTypeId: eventType.id, startMs, endMs, nowMs });
  const reader = { nowMs, holder: prepared.holder };
  const slot = { startMs, endMs };
  const fixed = team.filter((m) => m.member.fixed);
  for (const m of fixed) if (!(await memberStillFree(trx, eventType, m, slot, reader))) throw unavailable('slot_busy');
  const rotating = team.filter((m) => !m.member.fixed);
  if (rotating.length === 0) {
    // A collective booking: its first host (the pool's, or the one asked for) is its `host`, the others its co-hosts.
    const [first, ...others] = fixed;
    // Stryker disable next-line ConditionalExpression,StringLiteral: unreachable, kept for the types: prepareBooking found the team free, so a collective team has a host.
    if (first === undefined) throw unavailable('slot_busy');
    const booked = await writeTeamBooking(trx, deps, body, prepared, first, others, reader);
    // Stryker disable next-line ConditionalExpression,StringLiteral: unreachable, kept for the types: the loop above found `first` free under the same locks.
    if (booked === undefined) throw unavailable('slot_busy');
    return booked;
  }
  const loads = await recentLoads(
    trx,
    eventType.id,
    rotating.map((m) => m.member.host.id),
    nowMs,
  );
  for (const member of rankHosts(
    rotating.map((m) => ({ ...m.member, time: m.time })),
    loads,
  )) {
    const booked = await writeTeamBooking(trx, deps, body, prepared, { member, time: member.time }, fixed, reader);
    if (booked !== undefined) return booked;
  }
  throw unavailable('slot_busy');
}

/**
 * Books `host` with `coHosts` (checked free already, under their locks) if
 * the host is still free under theirs; undefined, nothing written, if not.
 * Without co-hosts or limits, the check and the write are one statement, as
 * a single host's create.
 */
async function writeTeamBooking(
  trx: Executor,
  deps: BookingWriteDeps,
  body: CreateBookingBody,
  prepared: PreparedBooking,
  host: MemberTime,
  coHosts: readonly MemberTime[],
  reader: HoldReader,
): Promise<Booking | undefined> {
  const slot = { startMs: prepared.startMs, endMs: prepared.endMs };
  const { booking, write } = await bookingWrite(
    trx,
    deps,
    body,
    prepared,
    host.member.host,
    coHosts.map((m) => m.member.host),
  );
  // Stryker disable next-line ConditionalExpression,BlockStatement: speed only: the checks and writes one by one judge and write the same.
  if (coHosts.length === 0 && host.time.policy.limits === undefined) {
    return (await writeNewBooking(trx, deps.dialect, write, widen(prepared.eventType, slot), reader)) ? booking : undefined;
  }
  if (!(await memberStillFree(trx, prepared.eventType, host, slot, reader))) return undefined;
  await writeBookingRows(trx, write);
  return booking;
}

/**
 * Under the caller's lock of the host: whether one host of a team is still
 * free for the slot, judged as a single host's create judges it (limits and
 * seats by checkStart, the rest by takenTimes).
 */
export async function memberStillFree(
  trx: Executor,
  eventType: Pick<EventTypeWithHost, 'bufferBeforeMinutes' | 'bufferAfterMinutes'>,
  { member, time }: MemberTime,
  slot: { startMs: number; endMs: number },
  reader: HoldReader & { readonly exceptUid?: string | undefined },
): Promise<boolean> {
  // Stryker disable next-line ConditionalExpression: equivalent for a plain type: the whole check finds the same bookings and holds, and the rest was checked before the write.
  if (time.policy.limits !== undefined)
    return checkStart(await withHostBookings(trx, time, member.host, slot, reader), slot.startMs).available;
  return (await takenTimes(trx, member.host.id, widen(eventType, slot), reader)).length === 0;
}

/** The row, event and mail of a new booking with this host, and its view, built from what is written. */
async function bookingWrite(
  trx: Executor,
  deps: BookingWriteDeps,
  body: CreateBookingBody,
  prepared: PreparedBooking,
  host: HostRecord,
  coHosts: readonly HostRecord[] = [],
): Promise<{ booking: Booking; write: NewBookingWrite }> {
  const { eventType, startMs } = prepared;
  const uid = deps.ids.uuid();
  const utm = Object.fromEntries(
    (['utm_source', 'utm_medium', 'utm_campaign'] as const).filter((k) => body[k] !== undefined).map((k) => [k, body[k]]),
  );
  const row = newBookingRow(
    {
      uid,
      eventType,
      host,
      coHosts,
      startMs,
      timezone: body.timezone,
      attendee: body.attendee,
      guests: body.guests,
      location: bookingLocationOf(eventType.location, deps.conferenceLinks, uid),
      metadata: { ...body.metadata, ...utm },
      responses: body.responses,
      status: eventType.requiresConfirmation ? 'pending' : 'confirmed',
    },
    toTimestamp(deps.clock.now()),
  );
  // The view is built from what is written; reading the row back would only repeat it.
  const booking = toBooking(
    { ...row, host_username: host.username, host_email: host.email, event_type_slug: eventType.slug },
    // Stryker disable next-line StringLiteral: only 'list' changes the view (no responses); any other value gives this single view.
    'single',
  );
  const requested = eventType.requiresConfirmation;
  // Stryker disable next-line ObjectLiteral: speed only: without these bookingMail reads the same host, event type name and mail setting itself (the line's StringLiteral mutant is killed).
  const mail = await bookingMail(trx, requested ? 'booking_requested' : 'booking_created', booking, {
    eventType: { name: eventType.name, rules: eventType.reminders, hostOn: host.reminders },
    host,
    attendeeMail: eventType.attendeeMail,
  });
  const event = outboxRow(deps, requested ? 'booking.requested' : 'booking.created', uid, booking);
  // Its reminders queue with it, from what was read with the type and host (schedule-reminders.ts).
  const reminders = reminderRows(deps, row, {
    rules: eventType.reminders,
    hostOn: host.reminders,
    attendeeSilenced: !eventType.attendeeMail,
    hostEmail: host.email,
  });
  return { booking, write: { row, event, mail: [...notificationRows(deps, mail), ...reminders] } };
}
