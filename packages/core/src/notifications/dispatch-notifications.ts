import type { Clock } from '../clock.js';
import type { IdGenerator } from '../ids.js';
import type { ManageLinkWriter } from '../manage-links/manage-link.js';
import type { BookingNotificationPayload, NotificationKind, NotificationPayload } from '../outbox/record-notification.js';
import { REMINDER_KIND } from '../reminders/schedule-reminders.js';
import { claimHold, HOLD_LEASE_MS, releaseHold } from '../series/series-hold.js';
import type { StepHook } from '../series/series-steps.js';
import type { Executor, Store } from '../storage/store.js';
import { toTimestamp } from '../time.js';
import { type ClaimedMail, claimDueMail } from './claim-mail.js';
import { composeMail, type StoredNotification } from './compose-mail.js';
import { type MailOutcome, recordMailOutcomes } from './mail-outcomes.js';
import type { Mail, Mailer, SentMail } from './mailer.js';
import { type ReminderPlan, type ReminderPlans, recordReminderEvent, reminderPlans } from './send-reminder.js';

export interface DispatchDeps {
  readonly store: Store;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly mailer: Mailer;
  readonly steps?: StepHook | undefined;
  /** Writes the manage link an attendee's booking mail carries (docs/booking-page.md); absent, the mail carries none. */
  readonly manageLinks?: ManageLinkWriter | undefined;
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
    const optedOut = await optedOutBookingMail(deps.store.db, batch);
    const plans = await reminderPlans(deps, batch);
    const settled = await Promise.allSettled(
      batch.map((notification) =>
        notification.kind === REMINDER_KIND
          ? sendReminder(deps, notification, plans)
          : sendClaimed(deps, notification, optedOut.has(notification.id)),
      ),
    );
    const sent = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    // Series mail wrote its own outcome while it held its series; the batch's other outcomes go in one
    // transaction, also when another mail of the batch failed with the database.
    await recordMailOutcomes(
      deps,
      sent.flatMap(({ outcome }) => (outcome ? [outcome] : [])),
    );
    const failure = settled.find((s) => s.status === 'rejected');
    if (failure) throw failure.reason;
    const results = sent.map(({ result }) => result);
    for (const result of results) report[result === 'send_failed' ? 'deferred' : result]++;
    handled += batch.length;
    if (results.includes('send_failed')) return { report, more: false };
    // Fewer than asked for: nothing else was due (or another dispatcher has it).
    if (batch.length < asked) return { report, more: false };
  }
  return { report, more: true };
}

/**
 * Sends one mail this dispatcher has claimed, and says how it went: the
 * outcome to record with the batch's, or none when it is recorded already.
 * A mail about a series records its outcome before letting the series go,
 * so that an action waiting for the series finds the mail's row final.
 */
async function sendClaimed(
  deps: DispatchDeps,
  notification: ClaimedMail,
  optedOut: boolean,
): Promise<{ result: MailResult; outcome?: MailOutcome }> {
  const seriesUid = notification.series_uid;
  if (seriesUid === null) return attempt(deps, notification, optedOut);
  const db = deps.store.db;
  const hold = await claimHold(db, deps, seriesUid, 'mail');
  if (hold === undefined) {
    const outcome: MailOutcome = { id: notification.id, kind: 'retry', nextAttemptAt: toTimestamp(deps.clock.now() + HELD_RETRY_MS) };
    return { result: 'deferred', outcome };
  }
  try {
    // Read while the series is held: an opt-out made up to now is obeyed.
    const { result, outcome } = await attempt(deps, notification, await seriesOptedOut(db, seriesUid));
    await recordMailOutcomes(deps, [outcome]);
    return { result };
  } finally {
    await releaseHold(db, seriesUid, hold);
  }
}

/** The send itself, told whether the attendee stopped this mail (read at send time): the mail written and handed to the mailer. */
async function attempt(
  deps: DispatchDeps,
  notification: ClaimedMail,
  optedOut: boolean,
): Promise<{ result: MailResult; outcome: MailOutcome }> {
  const { id } = notification;
  const seriesUid = notification.series_uid;
  if (optedOut) return { result: 'suppressed', outcome: { id, kind: 'suppressed' } };
  const payload = JSON.parse(notification.payload_json) as NotificationPayload;
  let manageUrl: string | undefined;
  try {
    manageUrl = await manageUrlOf(deps, notification, payload);
  } catch (error) {
    // The link's key could not be read (the database is away): tried again as a send that failed, never sent without it.
    return sendFailed(deps, notification, error);
  }
  const stored = {
    manageUrl,
    id,
    kind: notification.kind as NotificationKind,
    recipient: notification.recipient,
    seriesUid,
    bookingUid: notification.booking_uid,
    createdAt: notification.created_at,
    payload,
  } as StoredNotification;
  return deliver(deps, notification, stored, payload);
}

/** Writes a mail and hands it to the mailer: sent (its Message-ID kept with the row's `kept` payload), failed for good, or to try again. */
async function deliver(
  deps: DispatchDeps,
  notification: ClaimedMail,
  stored: StoredNotification,
  kept: object,
): Promise<{ result: MailResult; outcome: MailOutcome }> {
  const { id } = notification;
  const seriesUid = notification.series_uid;
  let mail: Mail;
  try {
    mail = composeMail(stored);
  } catch {
    // A mail that cannot be written never will be: retrying it would only hold up the queue.
    return { result: 'failed', outcome: { id, kind: 'failed', attempts: notification.attempts + 1 } };
  }
  let sent: SentMail | undefined;
  try {
    if (seriesUid !== null) await deps.steps?.({ action: 'mail', phase: 'sending', seriesUid });
    sent = await deps.mailer.send(mail);
  } catch (error) {
    return sendFailed(deps, notification, error);
  }
  return {
    result: 'sent',
    outcome: {
      id,
      kind: 'sent',
      // The Message-ID it left with, so a mail a recipient asks about can be found in the server's logs.
      payloadJson: sent?.messageId ? JSON.stringify({ ...kept, message_id: sent.messageId }) : undefined,
    },
  };
}

/**
 * A reminder this dispatcher claimed (docs/reminders.md), judged against the
 * booking as it is now (send-reminder.ts): dropped when no longer owed,
 * expired when its moment passed beyond the grace window, else mailed, or
 * for a webhook rule recorded as a `booking.reminder` event in the same
 * transaction that marks it sent (so that one is never sent twice).
 */
async function sendReminder(
  deps: DispatchDeps,
  notification: ClaimedMail,
  plans: ReminderPlans,
): Promise<{ result: MailResult; outcome?: MailOutcome }> {
  const { id } = notification;
  let manageUrl: string | undefined;
  let plan: ReminderPlan;
  try {
    if (plans instanceof Error) throw plans;
    plan = plans.get(id)!;
    // The attendee's link; the mail shows it before the meeting only (compose-mail.ts).
    if (plan.kind === 'mail' && plan.payload.role === 'attendee') {
      manageUrl = await deps.manageLinks?.(plan.bookingUid, plan.endAt);
    }
  } catch (error) {
    // The database is away: tried again as a send that failed, never sent unchecked.
    return sendFailed(deps, notification, error);
  }
  switch (plan.kind) {
    case 'drop':
      return { result: 'suppressed', outcome: { id, kind: 'suppressed' } };
    case 'expired':
      return { result: 'suppressed', outcome: { id, kind: 'expired' } };
    case 'webhook':
      try {
        await recordReminderEvent(deps, id, plan.bookingUid, plan.payload);
      } catch (error) {
        return sendFailed(deps, notification, error);
      }
      return { result: 'sent' };
    case 'mail':
      return deliver(
        deps,
        notification,
        {
          id,
          kind: 'booking_reminder',
          recipient: plan.recipient,
          seriesUid: null,
          bookingUid: plan.bookingUid,
          createdAt: notification.created_at,
          payload: plan.payload,
          manageUrl,
        },
        JSON.parse(notification.payload_json),
      );
  }
}

/** A send that failed: tried again later, further apart each time, until the last attempt is given up. */
function sendFailed(deps: DispatchDeps, notification: ClaimedMail, error: unknown): { result: MailResult; outcome: MailOutcome } {
  const { id } = notification;
  const attempts = notification.attempts + 1;
  const givenUp = attempts >= MAX_SEND_ATTEMPTS;
  deps.onSendFailed?.(error, { id, kind: notification.kind, attempts, givenUp });
  if (givenUp) return { result: 'failed', outcome: { id, kind: 'failed', attempts } };
  const nextAttemptAt = toTimestamp(deps.clock.now() + RETRY_BASE_MS * 2 ** (attempts - 1));
  return { result: 'send_failed', outcome: { id, kind: 'retry', nextAttemptAt, attempts } };
}

/** Kinds of booking mail after which the attendee still has a meeting to move or cancel. */
const MANAGED_KINDS: ReadonlySet<string> = new Set([
  'booking_created',
  'booking_rescheduled',
  'booking_changed',
  // A request awaiting the host, and one confirmed: the attendee may still withdraw or cancel it.
  'booking_requested',
  'booking_confirmed',
]);

/** The manage link an attendee's mail about a live booking carries; none for the host's, a cancellation or series mail. */
async function manageUrlOf(deps: DispatchDeps, notification: ClaimedMail, payload: NotificationPayload): Promise<string | undefined> {
  const uid = notification.booking_uid;
  if (deps.manageLinks === undefined || uid === null || !MANAGED_KINDS.has(notification.kind)) return undefined;
  const booking = payload as BookingNotificationPayload;
  return booking.role === 'attendee' ? deps.manageLinks(uid, booking.end_at) : undefined;
}

/**
 * Whether the attendee stopped mail about this series since the mail was
 * queued: `notify_invitee` governs future sends (docs/api PATCH), so it is
 * read at send time. It covers the series' own mail (this) and the
 * attendee's booking mail about one of its occurrences (below); the host's
 * mail never.
 */
async function seriesOptedOut(db: Executor, seriesUid: string): Promise<boolean> {
  const series = await db.selectFrom('series').select('notify_invitee').where('uid', '=', seriesUid).executeTakeFirst();
  return series !== undefined && series.notify_invitee !== 1;
}

/** The attendee's booking mail of a batch whose booking is an occurrence of a series that stopped its attendee's mail: one read a batch. */
async function optedOutBookingMail(db: Executor, batch: readonly ClaimedMail[]): Promise<Set<string>> {
  // A reminder's opt-out is read with its booking (send-reminder.ts).
  const attendeeMail = batch.filter(
    (n) =>
      n.kind !== REMINDER_KIND &&
      n.series_uid === null &&
      n.booking_uid !== null &&
      (JSON.parse(n.payload_json) as { role?: unknown }).role === 'attendee',
  );
  if (attendeeMail.length === 0) return new Set();
  const stopped = await db
    .selectFrom('bookings')
    .innerJoin('series', 'series.uid', 'bookings.series_uid')
    .select('bookings.uid')
    .where('bookings.uid', 'in', [...new Set(attendeeMail.map((n) => n.booking_uid!))])
    .where('series.notify_invitee', '<>', 1)
    .execute();
  const uids = new Set(stopped.map((row) => row.uid));
  return new Set(attendeeMail.filter((n) => uids.has(n.booking_uid!)).map((n) => n.id));
}
