import type { Principal } from '../auth/principal.js';
import type { Executor } from '../storage/store.js';
import { toTimestamp } from '../time.js';
import { webhookEnvelope } from './envelope.js';
import { findOwnWebhook } from './find-webhook.js';
import { requireActive } from './require-active.js';
import type { WebhookDeps } from './webhook-deps.js';
import { type Delivery, toDelivery } from './webhook-view.js';

/**
 * Queues a `webhook.test` event for this webhook alone, whatever events it
 * subscribes to: a new event id, due now, sent, signed and retried like any
 * other. Its `data` names the webhook. Nothing goes through the outbox, so no
 * other webhook receives it.
 */
export async function sendTestEvent(trx: Executor, deps: WebhookDeps, principal: Principal, webhookId: string): Promise<Delivery> {
  const webhook = await findOwnWebhook(trx, principal, webhookId);
  requireActive(webhook);
  const now = toTimestamp(deps.clock.now());
  const eventId = deps.ids.uuid();
  const row = {
    id: deps.ids.uuid(),
    webhook_id: webhook.id,
    event_id: eventId,
    event_type: 'webhook.test',
    payload_json: JSON.stringify(webhookEnvelope('webhook.test', eventId, now, { webhook_id: webhook.id })),
    status: 'pending' as const,
    attempts: 0,
    next_attempt_at: now,
    lease: null,
    locked_until: null,
    last_status_code: null,
    last_response_body: null,
    last_error: null,
    created_at: now,
    delivered_at: null,
  };
  await trx.insertInto('webhook_deliveries').values(row).execute();
  return toDelivery(row);
}
