import type { Executor } from '../storage/store.js';

/**
 * Ends a webhook's deliveries that are still pending: they are marked
 * `failed` with `reason` as their last error, and no attempt follows. A
 * paused webhook must send nothing, and what it would have sent stays listed,
 * so its owner can redeliver any of it after resuming. An attempt already
 * under way finishes, and its result stands.
 */
export async function stopPendingDeliveries(trx: Executor, webhookId: string, reason: string): Promise<void> {
  await trx
    .updateTable('webhook_deliveries')
    .set({ status: 'failed', last_error: reason })
    .where('webhook_id', '=', webhookId)
    .where('status', '=', 'pending')
    .execute();
}
