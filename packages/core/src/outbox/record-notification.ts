import type { Clock } from '../clock.js';
import type { IdGenerator } from '../ids.js';
import type { Executor } from '../storage/store.js';
import { toTimestamp } from '../time.js';

/** The mail that series actions send (issue: a confirmation on create, one notice on end). */
export type NotificationKind = 'series_confirmation' | 'series_ended';

/** What a notification says, kept as data so the mail is written when it is sent. */
export interface NotificationPayload {
  readonly attendee_name: string;
  readonly event_type_name: string;
  readonly host_name: string;
  readonly timezone: string;
  /** The occurrences the mail lists: booked (confirmation) or canceled (end). */
  readonly occurrences: readonly { start_at: string; end_at: string }[];
  /** Dates the confirmation reports as not booked. */
  readonly skipped?: readonly { date: string; start_at: string }[];
  readonly location_url?: string | null;
}

/**
 * Queues a mail inside the writing transaction: it exists exactly when the
 * change it reports committed, and a dispatcher sends it afterwards.
 */
export async function recordNotification(
  trx: Executor,
  deps: { clock: Clock; ids: IdGenerator },
  notification: { kind: NotificationKind; seriesUid: string; recipient: string; payload: NotificationPayload },
): Promise<void> {
  const now = toTimestamp(deps.clock.now());
  await trx
    .insertInto('notifications')
    .values({
      id: deps.ids.uuid(),
      kind: notification.kind,
      series_uid: notification.seriesUid,
      recipient: notification.recipient,
      payload_json: JSON.stringify(notification.payload),
      status: 'pending',
      attempts: 0,
      next_attempt_at: now,
      created_at: now,
      sent_at: null,
    })
    .execute();
}
