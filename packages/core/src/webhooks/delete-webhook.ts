import type { Principal } from '../auth/principal.js';
import type { Executor } from '../storage/store.js';
import { findOwnWebhook } from './find-webhook.js';
import { toWebhook, type Webhook } from './webhook-view.js';

/**
 * Deletes the caller's webhook and every delivery of it, pending or done:
 * nothing is sent to it any more, and its history goes with it. Answers the
 * webhook as it was, so the caller can tell what it deleted. An attempt
 * already under way finishes; its result is not recorded.
 */
export async function deleteWebhook(trx: Executor, principal: Principal, id: string): Promise<Webhook> {
  const row = await findOwnWebhook(trx, principal, id);
  await trx.deleteFrom('webhook_deliveries').where('webhook_id', '=', row.id).execute();
  await trx.deleteFrom('webhooks').where('id', '=', row.id).execute();
  return toWebhook(row);
}
