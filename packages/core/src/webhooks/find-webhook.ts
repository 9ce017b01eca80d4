import type { Principal } from '../auth/principal.js';
import { ScheduleError } from '../errors.js';
import { isUuid } from '../ids.js';
import type { Executor } from '../storage/store.js';

/** The `404 webhook_not_found` of an id, whatever made it unknown. */
export function webhookNotFound(id: string): ScheduleError {
  return new ScheduleError('webhook_not_found', 'No webhook with this id.', { id });
}

/**
 * The caller's own webhook with this id. A webhook belongs to the account
 * that made it, whatever that account's role: an admin does not see another
 * user's webhooks, since their secrets and targets are that user's. A
 * malformed id, an unknown one and someone else's all answer `404
 * webhook_not_found`, so existence never leaks.
 */
export async function findOwnWebhook(db: Executor, principal: Principal, id: string) {
  if (!isUuid(id)) throw webhookNotFound(id);
  const row = await db
    .selectFrom('webhooks')
    .selectAll()
    .where('id', '=', id.toLowerCase())
    .where('owner_user_id', '=', principal.account.id)
    .executeTakeFirst();
  if (!row) throw webhookNotFound(id);
  return row;
}

export type WebhookRow = Awaited<ReturnType<typeof findOwnWebhook>>;
