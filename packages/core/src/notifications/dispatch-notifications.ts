import type { Clock } from '../clock.js';
import type { IdGenerator } from '../ids.js';
import type { NotificationKind, NotificationPayload } from '../outbox/record-notification.js';
import { claimHold, HOLD_LEASE_MS, releaseHold } from '../series/series-hold.js';
import type { StepHook } from '../series/series-steps.js';
import type { Executor, Store } from '../storage/store.js';
import { toTimestamp } from '../time.js';
import { type ClaimedMail, claimDueMail } from './claim-mail.js';
import { composeMail, type StoredNotification } from './compose-mail.js';
import type { Mail, Mailer, SentMail } from './mailer.js';

export interface DispatchDeps {
  readonly store: Store;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly mailer: Mailer;
  readonly steps?: StepHook | undefined;
  /** Told of every send that failed: the error, and whether the mail waits for another attempt or was given up. */
  readonly onSendFailed?:
    | ((error: unknown, notification: { id: string; kind: string; attempts: number; givenUp: boolean }) => void)
    | undefined;
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

/** How one claimed mail ended this pass. */
type MailResult = 'sent' | 'suppressed' | 'failed' | 'deferred' | 'send_failed';

/** What a pass did, and whether it stopped at its limit with more mail perhaps due. */
export interface DispatchPass {
  readonly report: DispatchReport;
  readonly more: boolean;
}

/**
 * Sends the mail that is due, at most `limit` a pass, `concurrency` at a
 * time: each batch is claimed in one statement (claim-mail.ts), so several
 * processes dispatching at once never send one twice and never wait on each
 * other's mail. A mail about a series holds the series while it is sent
 * (docs/api/choices.md: an action arriving then gets `409 series_busy`), and
 * a series already held waits for a later pass. A send that fails ends the
 * pass once its batch is done (the mail waits for its next attempt, the
 * others for the next pass): a mail server that is down costs a pass at most
 * one batch of bounded sends.
 */
export async function dispatchNotifications(
  deps: DispatchDeps,
  options: { limit?: number; concurrency?: number } = {},
): Promise<DispatchReport> {
  return (await dispatchPass(deps, options)).report;
}

/** dispatchNotifications, also saying whether the pass was cut short by its limit (the loop then goes again at once). */
export async function dispatchPass(deps: DispatchDeps, options: { limit?: number; concurrency?: number } = {}): Promise<DispatchPass> {
  const limit = options.limit ?? 50;
  const width = Math.max(1, Math.min(options.concurrency ?? 1, limit));
  const report: DispatchReport = { sent: 0, suppressed: 0, failed: 0, deferred: 0 };
  let handled = 0;
  while (handled < limit) {
    const asked = Math.min(width, limit - handled);
    const batch = await claimDueMail(deps, { limit: asked, leaseMs: HOLD_LEASE_MS });
    const results = await Promise.all(batch.map((notification) => sendClaimed(deps, notification)));
    for (const result of results) report[result === 'send_failed' ? 'deferred' : result]++;
    handled += batch.length;
    if (results.includes('send_failed')) return { report, more: false };
    // Fewer than asked for: nothing else was due (or another dispatcher has it).
    if (batch.length < asked) return { report, more: false };
  }
  return { report, more: true };
}

/** Sends one mail this dispatcher has claimed, and records how it went. */
async function sendClaimed(deps: DispatchDeps, notification: ClaimedMail): Promise<MailResult> {
  const db = deps.store.db;
  const nowMs = deps.clock.now();
  const retryAt = (ms: number) =>
    db
      .updateTable('notifications')
      .set({ next_attempt_at: toTimestamp(nowMs + ms) })
      .where('id', '=', notification.id);

  const seriesUid = notification.series_uid;
  const hold = seriesUid === null ? undefined : await claimHold(db, deps, seriesUid, 'mail');
  if (seriesUid !== null && hold === undefined) {
    await retryAt(HELD_RETRY_MS).execute();
    return 'deferred';
  }
  try {
    if (await attendeeOptedOut(db, notification)) {
      await db.updateTable('notifications').set({ status: 'suppressed' }).where('id', '=', notification.id).execute();
      return 'suppressed';
    }
    const payload = JSON.parse(notification.payload_json) as NotificationPayload;
    let mail: Mail;
    try {
      mail = composeMail({
        id: notification.id,
        kind: notification.kind as NotificationKind,
        recipient: notification.recipient,
        seriesUid,
        bookingUid: notification.booking_uid,
        createdAt: notification.created_at,
        payload,
      } as StoredNotification);
    } catch {
      // A mail that cannot be written never will be: retrying it would only hold up the queue.
      await db
        .updateTable('notifications')
        .set({ status: 'failed', attempts: notification.attempts + 1 })
        .where('id', '=', notification.id)
        .execute();
      return 'failed';
    }
    let sent: SentMail | undefined;
    try {
      if (seriesUid !== null) await deps.steps?.({ action: 'mail', phase: 'sending', seriesUid });
      sent = await deps.mailer.send(mail);
    } catch (error) {
      const attempts = notification.attempts + 1;
      deps.onSendFailed?.(error, { id: notification.id, kind: notification.kind, attempts, givenUp: attempts >= MAX_SEND_ATTEMPTS });
      if (attempts >= MAX_SEND_ATTEMPTS) {
        await db.updateTable('notifications').set({ status: 'failed', attempts }).where('id', '=', notification.id).execute();
        return 'failed';
      }
      await retryAt(RETRY_BASE_MS * 2 ** (attempts - 1))
        .set({ attempts })
        .execute();
      return 'send_failed';
    }
    await db
      .updateTable('notifications')
      .set({
        status: 'sent',
        sent_at: toTimestamp(deps.clock.now()),
        attempts: notification.attempts + 1,
        // The Message-ID it left with, so a mail a recipient asks about can be found in the server's logs.
        ...(sent?.messageId ? { payload_json: JSON.stringify({ ...payload, message_id: sent.messageId }) } : {}),
      })
      .where('id', '=', notification.id)
      .execute();
    return 'sent';
  } finally {
    if (seriesUid !== null && hold !== undefined) await releaseHold(db, seriesUid, hold);
  }
}

/**
 * Whether the attendee stopped mail about this series since the mail was
 * queued: `notify_invitee` governs future sends (docs/api PATCH), so it is
 * read at send time. It covers the series' own mail and the attendee's
 * booking mail about one of its occurrences; the host's mail never.
 */
async function attendeeOptedOut(
  db: Executor,
  notification: { series_uid: string | null; booking_uid: string | null; payload_json: string },
): Promise<boolean> {
  if (notification.series_uid !== null) {
    const series = await db.selectFrom('series').select('notify_invitee').where('uid', '=', notification.series_uid).executeTakeFirst();
    return series !== undefined && series.notify_invitee !== 1;
  }
  if (notification.booking_uid === null || (JSON.parse(notification.payload_json) as { role?: unknown }).role !== 'attendee') return false;
  const series = await db
    .selectFrom('bookings')
    .innerJoin('series', 'series.uid', 'bookings.series_uid')
    .select('series.notify_invitee')
    .where('bookings.uid', '=', notification.booking_uid)
    .executeTakeFirst();
  return series !== undefined && series.notify_invitee !== 1;
}
