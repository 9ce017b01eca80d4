import type { Principal } from '../auth/principal.js';
import type { Executor } from '../storage/store.js';
import { toTimestamp } from '../time.js';
import type { WebhookDeps } from './webhook-deps.js';
import type { CreateWebhookBody } from './webhook-input.js';
import { newWebhookSecret } from './webhook-secret.js';
import { checkWebhookTarget } from './webhook-url.js';
import { toWebhook, type WebhookWithSecret } from './webhook-view.js';

/**
 * Makes a webhook owned by the caller, active at once, with a new secret that
 * this answer shows and no other will. Its target is checked first: a
 * private or loopback address is refused unless the operator allows them.
 */
export async function createWebhook(
  trx: Executor,
  deps: WebhookDeps & { readonly allowPrivateTargets: boolean },
  principal: Principal,
  body: CreateWebhookBody,
): Promise<WebhookWithSecret> {
  checkWebhookTarget(body.url, deps.allowPrivateTargets);
  const now = toTimestamp(deps.clock.now());
  const row = {
    id: deps.ids.uuid(),
    owner_user_id: principal.account.id,
    url: body.url,
    events_json: JSON.stringify(body.events),
    description: body.description ?? null,
    secret: newWebhookSecret(),
    previous_secret: null,
    previous_secret_until: null,
    status: 'active' as const,
    paused_reason: null,
    consecutive_failures: 0,
    failing_since: null,
    version: 1,
    created_at: now,
    updated_at: now,
  };
  await trx.insertInto('webhooks').values(row).execute();
  return { ...toWebhook(row), secret: row.secret };
}
