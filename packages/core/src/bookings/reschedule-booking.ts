import type { Principal } from '../auth/principal.js';
import { loadHostTime, policyOf } from '../availability/load-host-time.js';
import { checkStart, type HostTime, type SlotPolicy } from '../availability/slot-rules.js';
import { freeMembersAt, loadTeamTime, type MemberTime } from '../availability/team-time.js';
import { ScheduleError } from '../errors.js';
import { type EventTypeWithHost, eventTypeById, findHost, type HostRecord } from '../event-types/resolve-event-type.js';
import { ownHolds } from '../holds/holder.js';
import { lockHosts } from '../storage/host-lock.js';
import type { Executor } from '../storage/store.js';
import { parseInstant, toTimestamp } from '../time.js';
import { applyBookingChange } from './apply-change.js';
import type { RescheduleBookingBody } from './booking-input.js';
import { recordBookingMail } from './booking-mail.js';
import { assertNotice } from './booking-notice.js';
import { type BookingRow, coHostsOf } from './booking-rows.js';
import type { Booking } from './booking-view.js';
import { assertStillBookable, assertStillFree, type BookingWriteDeps, memberStillFree, unavailable } from './create-booking.js';
import { findVisibleBooking } from './find-booking.js';
import { firstFreeHost, handOver } from './hand-over.js';

export interface PreparedMove {
  readonly row: BookingRow;
  readonly eventType: EventTypeWithHost;
  readonly host: HostRecord;
  readonly startMs: number;
  readonly endMs: number;
  /** The host's time the move was checked against, re-checked under the lock for a type with limits or seats. */
  readonly time: HostTime;
  /**
   * A round-robin booking whose host is busy at the new start: the pool's
   * other hosts free there before the write, one of whom takes it over
   * (docs/api/teams.md "After the booking").
   */
  readonly team?: readonly MemberTime[] | undefined;
  /** The booking's co-hosts (collective, or round robin's fixed hosts), each free at the new start before the write. */
  readonly coHosts: readonly MemberTime[];
}

/**
 * Checks a reschedule before any write (docs/api/endpoints.md "The Booking object", docs/api/choices.md
 * "Bookings"): the booking is confirmed, has not started, its event type
 * allows rescheduling, the booking starts no sooner than the type's
 * reschedule notice (booking-notice.ts), and the host is free at the new start for the same
 * duration (the booking's own time does not count against it).
 */
export async function prepareMove(
  deps: BookingWriteDeps & { db: Executor },
  principal: Principal,
  uid: string,
  body: RescheduleBookingBody,
): Promise<PreparedMove> {
  const row = await findVisibleBooking(deps.db, principal, uid);
  if (row.status !== 'confirmed') throw new ScheduleError('booking_already_cancelled', 'Only a confirmed booking can be rescheduled.', {});
  const nowMs = deps.clock.now();
  if (Date.parse(row.start_at) <= nowMs) {
    throw new ScheduleError('booking_in_past', 'The booking has already started or finished.', { start_at: row.start_at });
  }
  const [eventType, host] = await Promise.all([eventTypeById(deps.db, row.event_type_id), findHost(deps.db, row.host_user_id)]);
  // Stryker disable next-line ConditionalExpression,LogicalOperator,StringLiteral,ObjectLiteral: unreachable, kept for the types: the row was just read through inner joins on both, and no writer deletes an event type or a user
  if (!eventType || !host) throw new ScheduleError('booking_not_found', 'No booking with this uid.', { uid });
  if (!eventType.allowReschedule) throw new ScheduleError('reschedule_not_allowed', 'This event type does not allow rescheduling.', {});
  assertNotice('reschedule', principal, row, row.reschedule_notice_minutes, nowMs, body.override_notice);
  const startMs = parseInstant(body.start)!.epochMs;
  if (startMs < nowMs) throw new ScheduleError('slot_in_past', 'The new start is in the past.', {});
  const endMs = startMs + (Date.parse(row.end_at) - Date.parse(row.start_at));
  const policy = { ...policyOf(eventType), durationMinutes: (endMs - startMs) / 60_000 };
  const options = { exceptBookingUid: row.uid, holder: ownHolds(principal) };
  const time = await loadHostTime(deps, policy, host, { startMs, endMs }, options);
  const coHosts = await coHostTimes(deps, policy, row, { startMs, endMs }, options);
  const check = checkStart(time, startMs);
  if (check.available) return { row, eventType, host, startMs, endMs, time, coHosts };
  if (eventType.scheduling === 'round_robin' && check.reason === 'slot_busy') {
    // Only a host round robin chooses from takes it over; the fixed hosts stay the booking's.
    // Stryker disable next-line ConditionalExpression: equivalent for the host's own entry: they are busy at the start, so never free to take it over.
    const others = eventType.pool.filter((m) => !m.fixed && m.host.id !== host.id);
    const members = await loadTeamTime(deps, policy, others, { startMs, endMs }, { withBookings: false });
    const team = freeMembersAt(members, startMs);
    // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent: with no host free the write finds none and answers the same slot_busy.
    if (team.length > 0) return { row, eventType, host, startMs, endMs, time, team, coHosts };
  }
  throw unavailable(check.reason);
}

/**
 * The booking's co-hosts' time at the new start: each must be free there, as
 * its host must (`409 slot_unavailable` with the first one's reason), since
 * a collective meeting moves with everyone in it.
 */
async function coHostTimes(
  deps: BookingWriteDeps & { db: Executor },
  policy: SlotPolicy,
  row: BookingRow,
  slot: { startMs: number; endMs: number },
  options: Parameters<typeof loadHostTime>[4],
): Promise<MemberTime[]> {
  const out: MemberTime[] = [];
  for (const { user_id } of coHostsOf(row)) {
    const host = await findHost(deps.db, user_id);
    // Stryker disable next-line ConditionalExpression: unreachable, kept for the types: no writer deletes a user.
    if (host === undefined) continue;
    const time = await loadHostTime(deps, policy, host, slot, options);
    const check = checkStart(time, slot.startMs);
    if (!check.available) throw unavailable(check.reason);
    // Stryker disable next-line BooleanLiteral: only a team's reads look at `fixed`; a co-host here is only checked.
    out.push({ member: { host, weight: 1, priority: 0, fixed: true }, time });
  }
  return out;
}

/** Moves the booking in place: same uid, new start and end, version bumped, `booking.rescheduled` recorded. */
export async function moveBooking(
  trx: Executor,
  deps: BookingWriteDeps,
  principal: Principal,
  move: PreparedMove,
  body: RescheduleBookingBody,
): Promise<Booking> {
  const reader = { nowMs: deps.clock.now(), holder: ownHolds(principal), exceptUid: move.row.uid };
  // Stryker disable next-line ConditionalExpression,EqualityOperator: speed only: without co-hosts this locks the host alone, as the check below does, and checks no one.
  if (move.coHosts.length > 0) {
    // Every host the move may involve, locked together in id order (as a create's); the locks taken after this are held already.
    // Stryker disable next-line ArrayDeclaration: PostgreSQL only: SQLite holds the whole database for the write, and its row locks are no-ops.
    const involved = [move.host, ...move.coHosts.map((m) => m.member.host), ...(move.team ?? []).map((m) => m.member.host)];
    await lockHosts(
      trx,
      deps.dialect,
      // Stryker disable next-line ArrowFunction: PostgreSQL only, as above.
      involved.map((h) => h.id),
    );
    for (const m of move.coHosts) if (!(await memberStillFree(trx, move.eventType, m, move, reader))) throw unavailable('slot_busy');
  }
  if (move.team !== undefined) return moveToAnotherHost(trx, deps, principal, move, move.team, body, reader);
  // The booking itself is left out, so a move within its day does not count it twice; a seat moves to a start with a seat left.
  if (move.time.policy.limits !== undefined) await assertStillBookable(trx, move.time, move.host, move, reader);
  else await assertStillFree(trx, deps.dialect, move.host.id, move.eventType, move, reader);
  // Read again under the lock: a cancel or another move may have landed since the checks.
  const row = await findVisibleBooking(trx, principal, move.row.uid);
  if (row.status !== 'confirmed') throw new ScheduleError('booking_already_cancelled', 'Only a confirmed booking can be rescheduled.', {});
  // Another move since the checks may have brought the booking inside the notice.
  assertNotice('reschedule', principal, row, row.reschedule_notice_minutes, deps.clock.now(), body.override_notice);
  const change = {
    start_at: toTimestamp(move.startMs),
    end_at: toTimestamp(move.endMs),
    timezone: body.timezone ?? row.timezone,
    // An occurrence moved here stays in its series as "moved" (docs/api/series.md "Owed, held and moved");
    // only a series reads the flag, so a booking outside one may carry it too.
    moved_by_invitee: 1,
  };
  const booking = await applyBookingChange(trx, deps, row, change, 'booking.rescheduled', (booking) => ({
    ...booking,
    previous_start_at: row.start_at,
    previous_end_at: row.end_at,
    reason: body.reason ?? null,
  }));
  await recordBookingMail(trx, deps, 'booking_rescheduled', booking, {
    previous: { start_at: row.start_at, end_at: row.end_at },
    reason: body.reason ?? null,
    seriesUid: row.series_uid,
    eventType: { name: move.eventType.name, rules: move.eventType.reminders, hostOn: move.host.reminders },
    host: move.host,
  });
  return booking;
}

/**
 * A round-robin booking moved to a start its host is busy at: the first free
 * host of the rest of the pool takes it over (hand-over.ts), in the same
 * write as the move, with `booking.rescheduled` naming the host it left.
 */
async function moveToAnotherHost(
  trx: Executor,
  deps: BookingWriteDeps,
  principal: Principal,
  move: PreparedMove,
  team: readonly MemberTime[],
  body: RescheduleBookingBody,
  reader: { nowMs: number; holder: string },
): Promise<Booking> {
  const host = await firstFreeHost(trx, deps.dialect, move.eventType, team, move, reader);
  const row = await findVisibleBooking(trx, principal, move.row.uid);
  if (row.status !== 'confirmed') throw new ScheduleError('booking_already_cancelled', 'Only a confirmed booking can be rescheduled.', {});
  assertNotice('reschedule', principal, row, row.reschedule_notice_minutes, deps.clock.now(), body.override_notice);
  if (host === undefined) throw unavailable('slot_busy');
  const reason = body.reason ?? null;
  return handOver(
    trx,
    deps,
    row,
    move.eventType,
    host,
    {
      columns: {
        start_at: toTimestamp(move.startMs),
        end_at: toTimestamp(move.endMs),
        timezone: body.timezone ?? row.timezone,
        moved_by_invitee: 1,
      },
      event: 'booking.rescheduled',
      payload: { previous_start_at: row.start_at, previous_end_at: row.end_at, reason },
    },
    { kind: 'booking_rescheduled', change: { previous: { start_at: row.start_at, end_at: row.end_at }, reason } },
  );
}
