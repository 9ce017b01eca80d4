import type { Principal } from '../auth/principal.js';
import type { Executor } from '../storage/store.js';
import { DAY_MS, toTimestamp } from '../time.js';
import { findOwnWebhook } from './find-webhook.js';
import { webhookVersionConflict } from './update-webhook.js';
import type { WebhookDeps } from './webhook-deps.js';
import { newWebhookSecret } from './webhook-secret.js';
import { toWebhook, type WebhookWithSecret } from './webhook-view.js';

/** How long the secret a rotation replaces keeps signing beside the new one (docs/webhooks.md). */
export const SECRET_OVERLAP_MS = DAY_MS;

/**
 * Gives the caller's webhook a new secret, shown in this answer only. The
 * secret it replaces keeps signing too for 24 hours, so a receiver can
 * switch to the new one without missing a delivery: each delivery carries a
 * signature by each secret then. Rotating again within those 24 hours drops
 * the oldest secret: only the two latest ever sign.
 */
export async function rotateWebhookSecret(trx: Executor, deps: WebhookDeps, principal: Principal, id: string): Promise<WebhookWithSecret> {
  const row = await findOwnWebhook(trx, principal, id);
  const now = deps.clock.now();
  const secret = newWebhookSecret();
  const updated = await trx
    .updateTable('webhooks')
    .set({
      secret,
      previous_secret: row.secret,
      previous_secret_until: toTimestamp(now + SECRET_OVERLAP_MS),
      version: row.version + 1,
      updated_at: toTimestamp(now),
    })
    .where('id', '=', row.id)
    .where('version', '=', row.version)
    .returningAll()
    .executeTakeFirst();
  // Another change landed between the read and this write: nothing was rotated.
  if (!updated) throw webhookVersionConflict((await findOwnWebhook(trx, principal, id)).version);
  return { ...toWebhook(updated), secret };
}
