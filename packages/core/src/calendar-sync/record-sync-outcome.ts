import { syncStatusFor } from '../bookings/new-booking.js';
import type { CalDavFailure } from '../caldav/caldav-failure.js';
import type { Clock } from '../clock.js';
import type { Store } from '../storage/store.js';
import { toTimestamp } from '../time.js';
import type { ClaimedSync } from './claim-syncs.js';
import { nextAttemptDelay } from './retry-schedule.js';
import type { SyncAttempt } from './sync-booking.js';

/** How an attempt ended, for logs and metrics. */
export type SyncOutcome = 'synced' | 'retry' | 'failed' | 'superseded' | 'lease_lost';

/**
 * Records an attempt in one transaction, under the claim's lease (a process
 * whose lease ran out writes nothing). Where the event now is is always
 * recorded. The status moves only if the booking was not queued again
 * meanwhile (same generation): `synced` once done, a retry at the next delay
 * after a failure, `failed` after the last delay, and at once when another
 * program's object sits at the event's name (it is left there). The booking shows the status and the event's URL; its
 * `updated_at` moves with the status, so the catch-up sweep sees it.
 */
export async function recordSyncOutcome(
  deps: { store: Store; clock: Clock; retryDelaysMs: readonly number[] },
  claimed: ClaimedSync,
  attempt: SyncAttempt,
): Promise<SyncOutcome> {
  const nowMs = deps.clock.now();
  const now = toTimestamp(nowMs);
  const { location, failure } = attempt;
  return deps.store.db.transaction().execute(async (trx) => {
    const current = await trx
      .selectFrom('calendar_syncs')
      .select(['generation', 'lease'])
      .where('booking_uid', '=', claimed.booking_uid)
      .executeTakeFirst();
    // Stryker disable next-line OptionalChaining: a claimed row is never deleted (nor is its booking); the chaining only types it.
    if (current?.lease !== claimed.lease) return 'lease_lost';
    const sameState = current.generation === claimed.generation;
    const place = {
      href: location?.href ?? null,
      etag: location?.etag ?? null,
      account_user_id: location?.accountUserId ?? null,
      account_url: location?.accountUrl ?? null,
      account_username: location?.accountUsername ?? null,
      lease: null,
      locked_until: null,
      updated_at: now,
    };
    const eventId = location?.href ?? '';
    if (!sameState) {
      // Queued again while this attempt ran: the newer state is written by the next claim.
      await trx.updateTable('calendar_syncs').set(place).where('booking_uid', '=', claimed.booking_uid).execute();
      await trx.updateTable('bookings').set({ calendar_event_id: eventId }).where('uid', '=', claimed.booking_uid).execute();
      return 'superseded';
    }
    let outcome: SyncOutcome;
    let status: 'synced' | 'failed' | 'not_applicable' | 'pending';
    if (failure === undefined) {
      outcome = 'synced';
      // Done: in its calendar, or removed from it; a host with no CalDAV account says what it always does.
      // Stryker disable next-line ConditionalExpression: an event written means a host with a CalDAV booking account, whose status is pending, made synced below.
      status = location === null ? syncStatusFor({ calendars: attempt.hostCalendars }) : 'synced';
      if (status === 'pending') status = 'synced';
      await trx
        .updateTable('calendar_syncs')
        .set({ ...place, status: 'synced', attempts: 0, last_error: null })
        .where('booking_uid', '=', claimed.booking_uid)
        .execute();
    } else {
      const attempts = claimed.attempts + 1;
      // Another program's object at the event's name stays there until someone moves it: no retry would help.
      const delay = failure.reason === 'foreign_object' ? null : nextAttemptDelay(attempts, deps.retryDelaysMs);
      outcome = delay === null ? 'failed' : 'retry';
      status = delay === null ? 'failed' : 'pending';
      await trx
        .updateTable('calendar_syncs')
        .set({
          ...place,
          status: delay === null ? 'failed' : 'pending',
          attempts,
          next_attempt_at: toTimestamp(nowMs + (delay ?? 0)),
          last_error: describe(failure),
        })
        .where('booking_uid', '=', claimed.booking_uid)
        .execute();
    }
    const booking = trx.updateTable('bookings').where('uid', '=', claimed.booking_uid);
    if (status === 'pending') await booking.set({ calendar_event_id: eventId }).execute();
    else await booking.set({ calendar_sync_status: status, calendar_event_id: eventId, updated_at: now }).execute();
    return outcome;
  });
}

/** The failure as stored and logged: its reason and message, which never hold a password. */
function describe(failure: CalDavFailure): string {
  return `${failure.reason}: ${failure.message}`.slice(0, 1000);
}
