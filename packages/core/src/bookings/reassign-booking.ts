import { z } from 'zod';
import type { Principal } from '../auth/principal.js';
import { mayActFor } from '../auth/roles.js';
import type { CalendarReader } from '../availability/calendar-reader.js';
import { policyOf } from '../availability/load-host-time.js';
import type { StartRules } from '../availability/slot-rules.js';
import { freeMembersAt, loadTeamTime, type MemberTime } from '../availability/team-time.js';
import type { Clock } from '../clock.js';
import { type IfMatch, matchesVersion } from '../conditional.js';
import { ScheduleError } from '../errors.js';
import { type EventTypeWithHost, eventTypeById } from '../event-types/resolve-event-type.js';
import { ownHolds } from '../holds/holder.js';
import type { IdGenerator } from '../ids.js';
import type { Dialect, Executor } from '../storage/store.js';
import { MINUTE_MS } from '../time.js';
import { uuid } from '../validation/fields.js';
import type { BookingRow } from './booking-rows.js';
import type { Booking } from './booking-view.js';
import { unavailable } from './create-booking.js';
import { findVisibleBooking } from './find-booking.js';
import { firstFreeHost, handOver } from './hand-over.js';

// `POST /v1/bookings/:uid/reassign` (docs/api/teams.md "Reassign"): a
// round-robin booking handed to another free host of its pool, by the rule
// or to the one named. The booking keeps its uid, time and attendee; its
// host, title and calendar follow the new host.

export const reassignBookingBodySchema = z.object({
  host_user_id: uuid
    .optional()
    .meta({ description: 'The host to hand it to (one of the pool you may act for); default: the next by the rule.' }),
  reason: z.string().max(1024, 'must be at most 1024 characters').optional().meta({ description: 'Why; passed on to the hosts.' }),
});
export type ReassignBookingBody = z.output<typeof reassignBookingBodySchema>;

export interface ReassignDeps {
  readonly db: Executor;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly calendars: CalendarReader;
  readonly dialect: Dialect;
}

/** A booking moved to another host needs only that host working and free at its time, as a series' host change. */
const MOVE_RULES: StartRules = { grid: false, bookingWindow: false };

export interface PreparedReassign {
  readonly row: BookingRow;
  readonly eventType: EventTypeWithHost;
  /** The other hosts of the pool free at the booking's time, read before the write. */
  readonly team: readonly MemberTime[];
}

/**
 * Checks a reassign before any write: the caller may act for the booking's
 * host, the booking is confirmed or pending and has not started, its type is
 * round robin, and another host of the pool (the one named, who must be one
 * the caller may act for) is free at its time.
 */
export async function prepareReassign(
  deps: ReassignDeps,
  principal: Principal,
  uid: string,
  body: ReassignBookingBody,
): Promise<PreparedReassign> {
  const row = await findVisibleBooking(deps.db, principal, uid);
  if (!mayActFor(principal.actsFor, row.host_user_id)) throw new ScheduleError('booking_not_found', 'No booking with this uid.', { uid });
  if (row.status !== 'confirmed' && row.status !== 'pending') {
    throw new ScheduleError(
      'booking_already_cancelled',
      `Only a confirmed or pending booking can be reassigned; this one is ${row.status}.`,
      {},
    );
  }
  if (Date.parse(row.start_at) <= deps.clock.now()) {
    throw new ScheduleError('booking_in_past', 'The booking has already started or finished.', { start_at: row.start_at });
  }
  const eventType = (await eventTypeById(deps.db, row.event_type_id))!;
  if (eventType.scheduling !== 'round_robin') {
    throw new ScheduleError('invalid_change', 'Only a booking of a round-robin event type can be reassigned.', { fields: [] });
  }
  // The hosts round robin chooses from; fixed hosts stay on the booking whoever hosts it.
  const others = eventType.pool.filter((m) => !m.fixed && m.host.id !== row.host_user_id);
  const named = body.host_user_id === undefined ? others : others.filter((m) => m.host.id === body.host_user_id);
  if (body.host_user_id !== undefined && (named.length === 0 || !mayActFor(principal.actsFor, body.host_user_id))) {
    throw new ScheduleError('host_not_allowed', 'host_user_id is not another host of this pool that this caller may act for.', {
      fields: ['host_user_id'],
    });
  }
  const slot = { startMs: Date.parse(row.start_at), endMs: Date.parse(row.end_at) };
  const policy = { ...policyOf(eventType), durationMinutes: (slot.endMs - slot.startMs) / MINUTE_MS };
  // Stryker disable next-line ObjectLiteral,BooleanLiteral: speed only: the write checks each host's bookings under the lock (hand-over.ts) and refuses alike.
  const members = await loadTeamTime(deps, policy, named, slot, { withBookings: false });
  const team = freeMembersAt(members, slot.startMs, slot.endMs, MOVE_RULES);
  // Stryker disable next-line ConditionalExpression: speed only: with no host free the write finds none either and answers the same 409.
  if (team.length === 0) throw unavailable('slot_busy');
  return { row, eventType, team };
}

/**
 * Hands the booking to the first host the rule prefers among those still
 * free under their locks (taken together, in id order, as a create's): its
 * `host_user_id`, title and calendar change, `booking.host_changed` is
 * recorded, the new host and the attendee get `booking_changed`, and the
 * host it leaves gets `booking_cancelled`, so their invite is withdrawn.
 */
export async function reassignBooking(
  trx: Executor,
  deps: ReassignDeps,
  principal: Principal,
  prepared: PreparedReassign,
  ifMatch: IfMatch | undefined,
  body: ReassignBookingBody,
): Promise<Booking> {
  const { eventType, team } = prepared;
  const slot = { startMs: Date.parse(prepared.row.start_at), endMs: Date.parse(prepared.row.end_at) };
  const reader = { nowMs: deps.clock.now(), holder: ownHolds(principal) };
  const host = await firstFreeHost(trx, deps.dialect, eventType, team, slot, reader, MOVE_RULES);
  const row = await findVisibleBooking(trx, principal, prepared.row.uid);
  if (ifMatch !== undefined && !matchesVersion(ifMatch, row.version)) {
    throw new ScheduleError('version_conflict', `The booking is at version ${row.version}.`, { current_version: row.version });
  }
  // A move or another reassign since the read: judged again from the top by the caller's retry.
  if (row.version !== prepared.row.version) {
    throw new ScheduleError('version_conflict', 'The booking changed while this request ran; read it and retry.', {
      current_version: row.version,
    });
  }
  if (host === undefined) throw unavailable('slot_busy');
  const reason = body.reason ?? null;
  return handOver(
    trx,
    deps,
    row,
    eventType,
    host,
    { columns: {}, event: 'booking.host_changed', payload: { reason } },
    { kind: 'booking_changed', change: { changed: 'host', reason } },
  );
}
