import { sql } from 'kysely';
import type { Executor, Store } from '../storage/store.js';

/** How a claimed mail's row ends a send, written after it. */
export type MailOutcome =
  | { readonly id: string; readonly kind: 'sent'; readonly sentAt: string; readonly payloadJson?: string | undefined }
  | { readonly id: string; readonly kind: 'suppressed' }
  | { readonly id: string; readonly kind: 'failed'; readonly attempts: number }
  | { readonly id: string; readonly kind: 'retry'; readonly nextAttemptAt: string; readonly attempts?: number | undefined };

/**
 * Writes the outcomes of a batch in one transaction: one commit for the
 * batch instead of one per mail, which was most of what a mail cost the
 * database. Mail sent without a Message-ID to keep (the logging mailer) is
 * marked sent in one statement; the rest row by row.
 */
export async function recordMailOutcomes(store: Store, outcomes: readonly MailOutcome[]): Promise<void> {
  if (outcomes.length === 0) return;
  if (outcomes.length === 1) return writeOutcomes(store.db, outcomes);
  await store.db.transaction().execute((trx) => writeOutcomes(trx, outcomes));
}

async function writeOutcomes(db: Executor, outcomes: readonly MailOutcome[]): Promise<void> {
  const plainSent = new Map<string, string[]>();
  for (const outcome of outcomes) {
    const row = db.updateTable('notifications').where('id', '=', outcome.id);
    switch (outcome.kind) {
      case 'sent':
        if (outcome.payloadJson === undefined) {
          plainSent.set(outcome.sentAt, [...(plainSent.get(outcome.sentAt) ?? []), outcome.id]);
          break;
        }
        await row
          .set({ status: 'sent', sent_at: outcome.sentAt, attempts: sql`attempts + 1`, payload_json: outcome.payloadJson })
          .execute();
        break;
      case 'suppressed':
        await row.set({ status: 'suppressed' }).execute();
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
  for (const [sentAt, ids] of plainSent) {
    await db
      .updateTable('notifications')
      .set({ status: 'sent', sent_at: sentAt, attempts: sql`attempts + 1` })
      .where('id', 'in', ids)
      .execute();
  }
}
