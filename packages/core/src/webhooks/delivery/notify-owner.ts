import type { Clock } from '../../clock.js';
import type { IdGenerator } from '../../ids.js';
import type { Executor } from '../../storage/store.js';
import { toTimestamp } from '../../time.js';

/** What the `webhook_paused` mail says; the mail is written from it when it is sent. */
export interface WebhookPausedPayload {
  readonly webhook_id: string;
  readonly url: string;
  readonly description: string | null;
  readonly failing_since: string;
  readonly consecutive_failures: number;
}

/**
 * Queues the mail telling a webhook's owner it was paused after failing,
 * inside the transaction that paused it: the mail exists exactly when the
 * pause committed, and the mail dispatcher sends it with its retries.
 */
export async function notifyWebhookPaused(
  trx: Executor,
  deps: { clock: Clock; ids: IdGenerator },
  ownerUserId: string,
  payload: WebhookPausedPayload,
): Promise<void> {
  const owner = await trx.selectFrom('users').select('email').where('id', '=', ownerUserId).executeTakeFirstOrThrow();
  const now = toTimestamp(deps.clock.now());
  await trx
    .insertInto('notifications')
    .values({
      id: deps.ids.uuid(),
      kind: 'webhook_paused',
      series_uid: null,
      booking_uid: null,
      recipient: owner.email,
      payload_json: JSON.stringify(payload),
      status: 'pending',
      attempts: 0,
      next_attempt_at: now,
      created_at: now,
      sent_at: null,
    })
    .execute();
}
