import type { Clock } from '../clock.js';
import type { IdGenerator } from '../ids.js';
import type { Executor } from '../storage/store.js';
import { mailOccurrence, type OccurrenceMail } from './occurrence-mail.js';
import { cancelOccurrence, currentOccurrence } from './occurrences.js';
import { addOwed } from './owed.js';

/** The reason a held occurrence shows: the series will replace it. */
export const HELD_REASON = 'Held by the series; a replacement is owed.';

/**
 * Holds one occurrence (docs/api/series.md "Owed, held and moved"): if it is still
 * confirmed, has not started and was not moved by the invitee, it is
 * canceled (with no mail to the attendee for a pause, a cancellation for a
 * PATCH) and one owed entry records its pattern instant. Read again in this
 * step's transaction, so an invitee's move or cancel that landed first is
 * respected. True when it was held.
 */
export async function holdOccurrence(
  trx: Executor,
  deps: { clock: Clock; ids: IdGenerator },
  bookingUid: string,
  by: { readonly action: 'pause' } | { readonly action: 'update'; readonly mail: OccurrenceMail },
): Promise<boolean> {
  const row = await currentOccurrence(trx, bookingUid);
  if (
    !row ||
    // Stryker disable next-line ConditionalExpression: a booking gets its series and its pattern instant together (newBookingRow), so one outside a series is refused by the pattern instant's check as well.
    row.series_uid === null ||
    row.pattern_instant === null
  ) {
    return false;
  }
  if (row.status !== 'confirmed' || row.moved_by_invitee === 1 || Date.parse(row.start_at) <= deps.clock.now()) return false;
  const held = await cancelOccurrence(trx, deps, row, by.action, HELD_REASON);
  // A pause tells the attendee nothing (api.md); a PATCH moved the meeting, so its old time leaves the attendee's calendar now.
  if (by.action === 'update') await mailOccurrence(trx, deps, by.mail, 'booking_canceled', held);
  await addOwed(trx, deps, row.series_uid, { patternInstant: row.pattern_instant, bookingUid: row.uid });
  return true;
}
