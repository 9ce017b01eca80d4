import type { Principal } from '../auth/principal.js';
import { ScheduleError } from '../errors.js';
import { isUuid } from '../ids.js';
import type { Executor } from '../storage/store.js';
import { toTimestamp } from '../time.js';
import { findOwnWebhook } from './find-webhook.js';
import { requireActive } from './require-active.js';
import type { WebhookDeps } from './webhook-deps.js';
import { type Delivery, toDelivery } from './webhook-view.js';

/**
 * Sends one delivery again: the same row is due now, with its attempts
 * counted from zero, so it gets the whole retry schedule again. It keeps its
 * id and its envelope, so the receiver sees the same `webhook-id` and event
 * id as before: one that deduplicates by `webhook-id` and saw it succeed will
 * skip it unless it allows replays. A delivery still pending is simply
 * brought forward. The last attempt's status, body and error stay shown until
 * the next attempt replaces them.
 */
export async function redeliver(
  trx: Executor,
  deps: WebhookDeps,
  principal: Principal,
  webhookId: string,
  deliveryId: string,
): Promise<Delivery> {
  const webhook = await findOwnWebhook(trx, principal, webhookId);
  const id = isUuid(deliveryId) ? deliveryId.toLowerCase() : deliveryId;
  const found = await trx
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('id', '=', id)
    .where('webhook_id', '=', webhook.id)
    .executeTakeFirst();
  if (!found) throw new ScheduleError('delivery_not_found', 'This webhook has no delivery with this id.', { id: deliveryId });
  requireActive(webhook);
  const row = await trx
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', attempts: 0, next_attempt_at: toTimestamp(deps.clock.now()), delivered_at: null })
    .where('id', '=', found.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return toDelivery(row);
}
