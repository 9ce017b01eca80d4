import { takenTimes, withHostBookings } from '../availability/load-host-time.js';
import { checkStart, type StartRules } from '../availability/slot-rules.js';
import type { MemberTime } from '../availability/team-time.js';
import type { Clock } from '../clock.js';
import type { EventTypeWithHost, HostRecord } from '../event-types/resolve-event-type.js';
import type { HoldReader } from '../holds/held-times.js';
import type { IdGenerator } from '../ids.js';
import type { EventName } from '../outbox/record-event.js';
import { recordNotifications } from '../outbox/record-notification.js';
import { lockHosts } from '../storage/host-lock.js';
import type { Dialect, Executor } from '../storage/store.js';
import { rankHosts, recentLoads } from '../teams/round-robin.js';
import { MINUTE_MS } from '../time.js';
import { applyBookingChange } from './apply-change.js';
import { bookingTitle } from './attendee-name.js';
import { type BookingChange, bookingMail, recordBookingMail } from './booking-mail.js';
import { type BookingRow, hostedBy } from './booking-rows.js';
import type { Booking } from './booking-view.js';
import { syncStatusFor } from './new-booking.js';

// A round-robin booking handed to another host of its pool (docs/api/teams.md):
// by a reassign at its time, or by a reschedule to a time its host is busy at.
// Both choose the host the way a create does and tell the hosts alike.

/**
 * Locks the candidates together (in id order, as a create does), then answers
 * the first the rule prefers who is still free at `slot` under the lock:
 * checked as a create checks (its bookings and others' holds, with the type's
 * buffers; a type with limits judged whole). Undefined when none is.
 */
export async function firstFreeHost(
  trx: Executor,
  dialect: Dialect,
  eventType: EventTypeWithHost,
  team: readonly MemberTime[],
  slot: { readonly startMs: number; readonly endMs: number },
  reader: HoldReader,
  rules: StartRules = {},
): Promise<HostRecord | undefined> {
  const ids = team.map((m) => m.member.host.id);
  await lockHosts(trx, dialect, ids);
  const loads = await recentLoads(trx, eventType.id, ids, reader.nowMs);
  const widened = {
    startMs: slot.startMs - eventType.bufferBeforeMinutes * MINUTE_MS,
    endMs: slot.endMs + eventType.bufferAfterMinutes * MINUTE_MS,
  };
  for (const { host, time } of rankHosts(
    team.map((m) => ({ ...m.member, time: m.time })),
    loads,
  )) {
    const free =
      // Stryker disable next-line ConditionalExpression: equivalent for a plain type: the whole check finds the same bookings and holds, and the rest was checked before the write.
      time.policy.limits === undefined
        ? (await takenTimes(trx, host.id, widened, reader)).length === 0
        : checkStart(await withHostBookings(trx, time, host, slot, reader), slot.startMs, slot.endMs, rules).available;
    if (free) return host;
  }
  return undefined;
}

/**
 * Writes the booking over to `host` with `change` (a move's new times, or
 * nothing more): its host, title and calendar follow, `event` is recorded
 * with the host it left, the new host and the attendee get `mail`, and the
 * host it left gets `booking_canceled` alone, at the time they had it,
 * withdrawing their invite.
 */
export async function handOver(
  trx: Executor,
  deps: { clock: Clock; ids: IdGenerator },
  row: BookingRow,
  eventType: EventTypeWithHost,
  host: HostRecord,
  change: { readonly columns: Partial<BookingRow>; readonly event: EventName; readonly payload: Record<string, unknown> },
  mail: { readonly kind: 'booking_changed' | 'booking_rescheduled'; readonly change: BookingChange },
): Promise<Booking> {
  const previous = { user_id: row.host_user_id, username: row.host_username, email: row.host_email };
  const attendeeName = (JSON.parse(row.attendees_json) as { name: string }[])[0]!.name;
  const booking = await applyBookingChange(
    trx,
    deps,
    hostedBy(row, host),
    {
      ...change.columns,
      host_user_id: host.id,
      title: bookingTitle(eventType.name, host.name, attendeeName),
      calendar_sync_status: syncStatusFor(host),
    },
    change.event,
    (b) => ({ ...b, previous_host: previous, ...change.payload }),
  );
  await recordBookingMail(trx, deps, mail.kind, booking, { ...mail.change, host, seriesUid: row.series_uid });
  const reason = mail.change.reason ?? null;
  await recordNotifications(
    trx,
    deps,
    await bookingMail(
      trx,
      'booking_canceled',
      // Stryker disable next-line ArrayDeclaration: equivalent: no co-hosts either way; the host it leaves is `host`, and only they are told.
      { ...booking, host: previous, hosts: [previous], start_at: row.start_at, end_at: row.end_at },
      { reason, attendeeMail: false },
    ),
  );
  return booking;
}
