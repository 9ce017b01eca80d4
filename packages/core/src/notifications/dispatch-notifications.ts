import type { Clock } from '../clock.js';
import type { IdGenerator } from '../ids.js';
import type { NotificationKind, NotificationPayload } from '../outbox/record-notification.js';
import { claimHold, HOLD_LEASE_MS, releaseHold } from '../series/series-hold.js';
import type { StepHook } from '../series/series-steps.js';
import type { Store } from '../storage/store.js';
import { toTimestamp } from '../time.js';
import { composeMail } from './compose-mail.js';
import type { Mailer } from './mailer.js';

export interface DispatchDeps {
  readonly store: Store;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly mailer: Mailer;
  readonly steps?: StepHook | undefined;
}

/** What one dispatch pass did. */
export interface DispatchReport {
  sent: number;
  /** The attendee opted out (`notify_invitee` false) after the mail was queued. */
  suppressed: number;
  /** Gave up after the last attempt. */
  failed: number;
  /** Not sent this pass: the series was held by an action, or the send failed and waits for its next attempt. */
  deferred: number;
}

/** A mail that could not be handed over is tried this many times, further apart each time. */
export const MAX_SEND_ATTEMPTS = 8;
const RETRY_BASE_MS = 2_000;
/** A series held by an action is looked at again after this. */
const HELD_RETRY_MS = 1_000;

/**
 * Sends the mail that is due. A mail about a series holds the series while it
 * is sent (docs/api/choices.md: an action arriving then gets `409 series_busy`), and
 * a series already held waits for a later pass. Each mail is claimed first,
 * so several processes dispatching at once never send one twice.
 */
export async function dispatchNotifications(deps: DispatchDeps, options: { limit?: number } = {}): Promise<DispatchReport> {
  const db = deps.store.db;
  const report: DispatchReport = { sent: 0, suppressed: 0, failed: 0, deferred: 0 };
  const due = await db
    .selectFrom('notifications')
    .selectAll()
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', toTimestamp(deps.clock.now()))
    .orderBy('next_attempt_at')
    .orderBy('created_at')
    .limit(options.limit ?? 50)
    .execute();

  for (const notification of due) {
    const nowMs = deps.clock.now();
    const retryAt = (ms: number) =>
      db
        .updateTable('notifications')
        .set({ next_attempt_at: toTimestamp(nowMs + ms) })
        .where('id', '=', notification.id);
    // Claimed for the length of a send: another dispatcher skips it meanwhile, and a dispatcher that dies frees it.
    const claimed = await retryAt(HOLD_LEASE_MS)
      .where('status', '=', 'pending')
      .where('next_attempt_at', '=', notification.next_attempt_at)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) continue;

    const seriesUid = notification.series_uid;
    const hold = seriesUid === null ? undefined : await claimHold(db, deps, seriesUid, 'mail');
    if (seriesUid !== null && hold === undefined) {
      await retryAt(HELD_RETRY_MS).execute();
      report.deferred++;
      continue;
    }
    try {
      const series =
        seriesUid === null
          ? undefined
          : await db.selectFrom('series').select('notify_invitee').where('uid', '=', seriesUid).executeTakeFirst();
      // notify_invitee governs future sends (docs/api PATCH), so it is read at send time.
      if (series && series.notify_invitee !== 1) {
        await db.updateTable('notifications').set({ status: 'suppressed' }).where('id', '=', notification.id).execute();
        report.suppressed++;
        continue;
      }
      const payload = JSON.parse(notification.payload_json) as NotificationPayload;
      const mail = composeMail(notification.kind as NotificationKind, notification.recipient, seriesUid, payload);
      try {
        if (seriesUid !== null) await deps.steps?.({ action: 'mail', phase: 'sending', seriesUid });
        await deps.mailer.send(mail);
      } catch {
        const attempts = notification.attempts + 1;
        if (attempts >= MAX_SEND_ATTEMPTS) {
          await db.updateTable('notifications').set({ status: 'failed', attempts }).where('id', '=', notification.id).execute();
          report.failed++;
        } else {
          await retryAt(RETRY_BASE_MS * 2 ** (attempts - 1))
            .set({ attempts })
            .execute();
          report.deferred++;
        }
        continue;
      }
      await db
        .updateTable('notifications')
        .set({ status: 'sent', sent_at: toTimestamp(deps.clock.now()), attempts: notification.attempts + 1 })
        .where('id', '=', notification.id)
        .execute();
      report.sent++;
    } finally {
      if (seriesUid !== null && hold !== undefined) await releaseHold(db, seriesUid, hold);
    }
  }
  return report;
}
