import { sql } from 'kysely';
import type { Clock } from '../clock.js';
import type { Executor, Store } from '../storage/store.js';
import { toTimestamp } from '../time.js';

/** How a claimed mail's row ends a send, written after it. */
export type MailOutcome =
  | { readonly id: string; readonly kind: 'sent'; readonly payloadJson?: string | undefined }
  | { readonly id: string; readonly kind: 'suppressed' }
  /** A reminder whose moment passed beyond its grace window (docs/reminders.md). */
  | { readonly id: string; readonly kind: 'expired' }
  | { readonly id: string; readonly kind: 'failed'; readonly attempts: number }
  | { readonly id: string; readonly kind: 'retry'; readonly nextAttemptAt: string; readonly attempts?: number | undefined };

/**
 * Writes the outcomes of a batch in one transaction: one commit for the
 * batch instead of one per mail, which was most of what a mail cost the
 * database. Mail sent without a Message-ID to keep (the logging mailer) is
 * marked sent in one statement; the rest row by row. `sent_at` is when the
 * batch is recorded, which is after its last send by no more than that
 * send's bounded time (milliseconds as a rule).
 */
export async function recordMailOutcomes(deps: { store: Store; clock: Clock }, outcomes: readonly MailOutcome[]): Promise<void> {
  if (outcomes.length === 0) return;
  const sentAt = toTimestamp(deps.clock.now());
  if (outcomes.length === 1) return writeOutcomes(deps.store.db, sentAt, outcomes);
  await deps.store.db.transaction().execute((trx) => writeOutcomes(trx, sentAt, outcomes));
}

async function writeOutcomes(db: Executor, sentAt: string, outcomes: readonly MailOutcome[]): Promise<void> {
  const plainSent: string[] = [];
  for (const outcome of outcomes) {
    const row = db.updateTable('notifications').where('id', '=', outcome.id);
    switch (outcome.kind) {
      case 'sent':
        if (outcome.payloadJson === undefined) {
          plainSent.push(outcome.id);
          break;
        }
        await row.set({ status: 'sent', sent_at: sentAt, attempts: sql`attempts + 1`, payload_json: outcome.payloadJson }).execute();
        break;
      case 'suppressed':
      case 'expired':
        await row.set({ status: outcome.kind }).execute();
        break;
      case 'failed':
        await row.set({ status: 'failed', attempts: outcome.attempts }).execute();
        break;
      case 'retry':
        await row
          .set({ next_attempt_at: outcome.nextAttemptAt, ...(outcome.attempts === undefined ? {} : { attempts: outcome.attempts }) })
          .execute();
        break;
    }
  }
  if (plainSent.length > 0) {
    await db
      .updateTable('notifications')
      .set({ status: 'sent', sent_at: sentAt, attempts: sql`attempts + 1` })
      .where('id', 'in', plainSent)
      .execute();
  }
}
