import type { Principal } from '../auth/principal.js';
import { applyBookingChange } from '../bookings/apply-change.js';
import { bookingTitle } from '../bookings/attendee-name.js';
import { hostedBy } from '../bookings/booking-rows.js';
import { isStillFree } from '../bookings/create-booking.js';
import { syncStatusFor } from '../bookings/new-booking.js';
import { receivesBookings } from '../event-types/calendar.js';
import type { HostRecord } from '../event-types/resolve-event-type.js';
import { ownHolds } from '../holds/holder.js';
import { recordEvent } from '../outbox/record-event.js';
import { toTimestamp } from '../time.js';
import { allowedHost, assertPoolHost } from './create-series.js';
import { mailOccurrence, occurrenceMailOf } from './occurrence-mail.js';
import { currentOccurrence, futureOccurrences } from './occurrences.js';
import { seriesBookingOf } from './replace-owed.js';
import { type Finish, finishAction, runItem, startAction } from './series-action.js';
import { coversAll, HOST_MOVE_RULES, isFreeFor, loadSeriesHostTime } from './series-availability.js';
import type { SeriesDeps } from './series-deps.js';
import { findVisibleSeries, loadSeries, type SeriesAttendee, toSeries } from './series-rows.js';
import { statusOnStart } from './series-state.js';
import type { HostChangeResult, HostStop } from './series-view.js';

/**
 * Whether bookings can be written to the host's calendars. A host with no
 * calendars keeps bookings here only (`not_applicable`), which is fine; a
 * host whose every calendar is read-only (an ics feed) cannot take them.
 */
export function acceptsBookings(host: HostRecord): boolean {
  return host.calendars.length === 0 || host.calendars.some(receivesBookings);
}

/**
 * `POST /v1/series/:uid/host`: moves each future confirmed occurrence to the
 * new host, one committed step each, then the series itself; the status does
 * not change. It stops early, saying why in `stopped_by`, when the new host
 * has no writable calendar, is not free at an occurrence, or another action
 * took the series over; what moved stays moved and the call can be repeated.
 */
export async function changeSeriesHost(
  deps: SeriesDeps,
  principal: Principal,
  uid: string,
  newHostId: string,
  finish: Finish<HostChangeResult>,
): Promise<HostChangeResult> {
  const db = deps.store.db;
  const row = await findVisibleSeries(db, principal, uid);
  // Stryker disable next-line StringLiteral,ConditionalExpression,EqualityOperator: for any action but an end only the status counts here (ended refuses), so neither the action's name nor the unfinished-end flag changes the answer; startAction checks again with its own.
  statusOnStart('change_host', row.status, row.ending === 1);
  const newHost = await allowedHost(db, principal, newHostId);
  const { eventType } = await seriesBookingOf(db, row);
  assertPoolHost(eventType, newHost, 'host_user_id');
  const needsMove = (await futureOccurrences(db, row.uid, deps.clock.now())).filter((o) => o.host_user_id !== newHost.id);
  // Read before the first write, so an unreadable calendar changes nothing.
  const read = await loadSeriesHostTime(
    deps,
    eventType,
    newHost,
    needsMove.map((o) => Date.parse(o.start_at)),
    HOST_MOVE_RULES,
  );

  const attendeeName = (JSON.parse(row.attendee_json) as SeriesAttendee).name;
  // Stryker disable next-line ArrowFunction: no changes and undefined both spread to nothing in the first write.
  const started = await startAction(deps, 'change_host', row.uid, () => ({}));
  const occurrences = await futureOccurrences(db, row.uid, deps.clock.now());
  const mail = await occurrenceMailOf(db, started.series, eventType, newHost);
  const unchanged = occurrences.filter((o) => o.host_user_id === newHost.id).length;
  const toMove = occurrences.filter((o) => o.host_user_id !== newHost.id);

  let moved = 0;
  let stoppedBy: HostStop | null = toMove.length > 0 && !acceptsBookings(newHost) ? 'no_writable_calendar' : null;
  // An occurrence booked since the read (a resume in between) can lie outside it: read again, as replace-owed.ts does.
  const starts = toMove.map((o) => Date.parse(o.start_at));
  const time =
    stoppedBy !== null || coversAll(read, starts, HOST_MOVE_RULES)
      ? read.time
      : (await loadSeriesHostTime(deps, eventType, newHost, starts, HOST_MOVE_RULES)).time;
  for (const [index, occurrence] of toMove.entries()) {
    if (stoppedBy !== null) break;
    const slot = { startMs: Date.parse(occurrence.start_at), endMs: Date.parse(occurrence.end_at) };
    const free = isFreeFor(time, slot.startMs, HOST_MOVE_RULES);
    const step = await runItem(deps, started, index, async (trx) => {
      const current = await currentOccurrence(trx, occurrence.uid);
      // Stryker disable next-line OptionalChaining: bookings are never deleted, so the occurrence listed above is always found.
      if (current?.status !== 'confirmed' || slot.startMs <= deps.clock.now()) return 'gone' as const;
      const reader = { nowMs: deps.clock.now(), holder: ownHolds(principal), exceptUid: current.uid };
      if (!free || !(await isStillFree(trx, deps.store.dialect, newHost.id, eventType, slot, reader))) return 'busy' as const;
      const changed = await applyBookingChange(
        trx,
        deps,
        hostedBy(current, newHost),
        {
          host_user_id: newHost.id,
          title: bookingTitle(eventType.name, newHost.name, attendeeName),
          calendar_sync_status: syncStatusFor(newHost),
        },
        'booking.host_changed',
        (booking) => ({ ...booking, series_uid: row.uid }),
      );
      // The new ORGANIZER and title reach the attendee's calendar as an update: a REQUEST of the same UID, next SEQUENCE (RFC 5546).
      await mailOccurrence(trx, deps, mail, 'booking_changed', changed, { changed: 'host' });
      return 'moved' as const;
    });
    // Stryker disable next-line StringLiteral: any stop word ends the run here, and the finish, which no longer owns the series, says superseded.
    if (!step.ran) stoppedBy = 'superseded';
    else if (step.value === 'busy') stoppedBy = 'slot_unavailable';
    else if (step.value === 'moved') moved++;
  }

  return finishAction(deps, started, finish, async (trx, owns) => {
    if (!owns) stoppedBy = 'superseded';
    if (stoppedBy === null) {
      await trx
        .updateTable('series')
        .set({ host_user_id: newHost.id, updated_at: toTimestamp(deps.clock.now()) })
        .where('uid', '=', row.uid)
        .execute();
      await recordEvent(trx, deps, 'series.host_changed', row.uid, { ...toSeries(await loadSeries(trx, row.uid)), moved, unchanged });
    }
    return { moved, unchanged, stopped_by: stoppedBy, superseded: stoppedBy === 'superseded' };
  });
}
