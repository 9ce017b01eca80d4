import type { Principal } from '../auth/principal.js';
import { recordEvent } from '../outbox/record-event.js';
import { attendeeMailOn, recordNotification } from '../outbox/record-notification.js';
import { toTimestamp } from '../time.js';
import { mailOccurrence, occurrenceMailOf } from './occurrence-mail.js';
import { cancelOccurrence, currentOccurrence, endedOccurrences, futureOccurrences } from './occurrences.js';
import { clearOwed, listOwed } from './owed.js';
import { mailHeldCancel, seriesBookingOf } from './replace-owed.js';
import { type Finish, finishAction, runItem, startAction } from './series-action.js';
import type { SeriesDeps } from './series-deps.js';
import { findVisibleSeries, loadSeries, type SeriesAttendee, toSeries } from './series-rows.js';
import { statusOnStart } from './series-state.js';
import type { EndResult } from './series-view.js';

export const ENDED_REASON = 'The series was ended.';

/**
 * `POST /v1/series/:uid/end`: the series is ended by its first write (owed
 * entries cleared, `ended_at` set), then every future confirmed occurrence
 * is canceled for good, one committed step each, each with its
 * cancellation to the attendee. The last step sends one notice listing every
 * date the end canceled (unless the attendee is not notified). An end cut
 * short is finished by running end again; a finished end is terminal like
 * every ended series.
 */
export async function endSeries(deps: SeriesDeps, principal: Principal, uid: string, finish: Finish<EndResult>): Promise<EndResult> {
  const db = deps.store.db;
  const row = await findVisibleSeries(db, principal, uid);
  statusOnStart('end', row.status, row.ending === 1);
  const { eventType, host } = await seriesBookingOf(db, row);
  const mail = await occurrenceMailOf(db, row, eventType, host);
  const started = await startAction(deps, 'end', row.uid, async (trx, current) => {
    // What a pause held and nothing replaced is still in the attendee's calendar: its cancellation goes now.
    for (const owed of await listOwed(trx, row.uid)) await mailHeldCancel(trx, deps, mail, owed.heldBookingUid);
    await clearOwed(trx, row.uid);
    return { ending: 1, ended_at: current.ended_at ?? toTimestamp(deps.clock.now()) };
  });

  let canceled = 0;
  for (const [index, occurrence] of (await futureOccurrences(db, row.uid, deps.clock.now())).entries()) {
    const step = await runItem(deps, started, index, async (trx) => {
      const current = await currentOccurrence(trx, occurrence.uid);
      // Stryker disable next-line OptionalChaining: bookings are never deleted, so the occurrence listed above is always found.
      if (current?.status !== 'confirmed' || Date.parse(current.start_at) <= deps.clock.now()) return false;
      const canceled = await cancelOccurrence(trx, deps, current, 'end', ENDED_REASON);
      await mailOccurrence(trx, deps, mail, 'booking_canceled', canceled, { reason: ENDED_REASON });
      return true;
    });
    // Taken over: the epoch moved and never moves back, so the finish no longer owns the series and says superseded.
    if (!step.ran) break;
    if (step.value) canceled++;
  }

  return finishAction(deps, started, finish, async (trx, owns) => {
    if (owns) {
      await trx.updateTable('series').set({ ending: 0 }).where('uid', '=', row.uid).execute();
      const series = await loadSeries(trx, row.uid);
      await recordEvent(trx, deps, 'series.ended', row.uid, { ...toSeries(series), canceled });
      const dates = await endedOccurrences(trx, row.uid);
      if (series.notify_invitee === 1 && dates.length > 0 && (await attendeeMailOn(trx, series.event_type_id))) {
        const { eventType, host } = await seriesBookingOf(trx, series);
        const attendee = JSON.parse(series.attendee_json) as SeriesAttendee;
        await recordNotification(trx, deps, {
          kind: 'series_ended',
          seriesUid: row.uid,
          recipient: attendee.email,
          payload: {
            attendee_name: attendee.name,
            attendee_email: attendee.email,
            event_type_name: eventType.name,
            host_name: host.name,
            host_email: host.email,
            timezone: series.timezone,
            occurrences: dates,
          },
        });
      }
    }
    return { canceled, superseded: !owns };
  });
}
