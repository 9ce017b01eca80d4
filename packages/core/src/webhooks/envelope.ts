import type { EventName } from '../outbox/record-event.js';

/** Every event name a webhook may subscribe to: the outbox's events, and the test event a webhook's owner sends. */
export type WebhookEventType = EventName | 'webhook.test';

/**
 * What a webhook receives, for every event (docs/webhooks.md "The envelope"):
 * `type` is the event name, `id` the event's own id (the same for every
 * webhook that receives it, and on every retry), `created_at` when the change
 * committed, `data` the resource as the API shows it (a booking, with
 * `changed_fields` on `booking.updated`; a series, with what the action did).
 */
export interface WebhookEnvelope {
  readonly type: WebhookEventType;
  readonly id: string;
  readonly created_at: string;
  readonly data: unknown;
}

export function webhookEnvelope(type: WebhookEventType, id: string, createdAt: string, data: unknown): WebhookEnvelope {
  return { type, id, created_at: createdAt, data };
}
