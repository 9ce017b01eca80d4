import { z } from 'zod';
import { EVENT_NAMES } from '../outbox/record-event.js';
import type { WebhookDeliveriesTable, WebhooksTable } from '../storage/schema.js';
import { shownInstant as instant } from '../validation/fields.js';

// The webhook resources of docs/webhooks.md, as every front end shows them.
// The secret is never part of a webhook's view: only the two answers that
// make one (create, rotate-secret) add it, once.

export const WEBHOOK_STATUSES = ['active', 'paused', 'disabled'] as const satisfies readonly WebhooksTable['status'][];
export const PAUSED_REASONS = ['owner', 'failures', 'gone'] as const satisfies readonly NonNullable<WebhooksTable['paused_reason']>[];
export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const satisfies readonly WebhookDeliveriesTable['status'][];

export const webhookSchema = z
  .object({
    id: z.string().meta({ description: "The webhook's id." }),
    url: z.string().meta({ description: 'Where events are POSTed.' }),
    events: z.array(z.enum(EVENT_NAMES)).meta({ description: 'The event names it receives.' }),
    description: z.string().nullable(),
    status: z.enum(WEBHOOK_STATUSES).meta({
      description: '`active` receives events; `paused` (by its owner or after failures) and `disabled` (the target answered 410) do not.',
    }),
    paused_reason: z.enum(PAUSED_REASONS).nullable().meta({
      description: 'Why it is not active: `owner` paused it, repeated `failures`, or the target is `gone` (410); null when active.',
    }),
    consecutive_failures: z.int().meta({ description: 'Failed attempts since the last success.' }),
    failing_since: instant.nullable().meta({ description: 'When the current run of failures began; null after a success.' }),
    created_at: instant,
    updated_at: instant,
    version: z.int().meta({ description: 'Starts at 1; each PATCH and secret rotation adds one. Shown as `ETag`.' }),
  })
  .meta({ description: 'A subscription of its owner to events, delivered by signed POSTs to `url`.' });
export type Webhook = z.infer<typeof webhookSchema>;

/** The answer of create and rotate-secret: the webhook and its new secret, shown this once. */
export const webhookWithSecretSchema = webhookSchema
  .extend({
    secret: z.string().meta({
      description: 'The signing secret, `whsec_` and base64 (Standard Webhooks). Shown only in this answer: store it now.',
      examples: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
    }),
  })
  .meta({ description: 'A webhook with its signing secret, which no other answer shows.' });
export type WebhookWithSecret = z.infer<typeof webhookWithSecretSchema>;

export const deliverySchema = z
  .object({
    id: z.string().meta({ description: 'The delivery id, sent as the `webhook-id` header on every attempt.' }),
    webhook_id: z.string(),
    event_id: z.string().meta({ description: 'The event id, the envelope’s `id`.' }),
    event_type: z.string().meta({ description: 'The event name, the envelope’s `type` (`webhook.test` for a test event).' }),
    status: z.enum(DELIVERY_STATUSES).meta({
      description: '`pending` until a 2xx (`succeeded`) or until no attempt is left or the webhook stopped (`failed`).',
    }),
    attempts: z.int().meta({ description: 'Attempts made so far.' }),
    next_attempt_at: instant.nullable().meta({ description: 'When the next attempt is due; null unless pending.' }),
    last_status_code: z.int().nullable().meta({ description: 'The HTTP status of the last attempt; null before any, or when none came.' }),
    last_response_body: z.string().nullable().meta({ description: 'The start of the last answer’s body, at most 4 KiB.' }),
    last_error: z
      .string()
      .nullable()
      .meta({ description: 'Why the last attempt failed without a status (timeout, refused), or was stopped.' }),
    created_at: instant,
    delivered_at: instant.nullable().meta({ description: 'When a 2xx came back.' }),
  })
  .meta({ description: 'One event sent (or to be sent) to one webhook, with its attempts so far.' });
export type Delivery = z.infer<typeof deliverySchema>;

type WebhookRow = Pick<
  WebhooksTable,
  'id' | 'url' | 'events_json' | 'description' | 'status' | 'paused_reason' | 'failing_since' | 'created_at' | 'updated_at'
> & { consecutive_failures: number; version: number };

export function toWebhook(row: WebhookRow): Webhook {
  return {
    id: row.id,
    url: row.url,
    events: JSON.parse(row.events_json),
    description: row.description,
    status: row.status,
    paused_reason: row.paused_reason,
    consecutive_failures: row.consecutive_failures,
    failing_since: row.failing_since,
    created_at: row.created_at,
    updated_at: row.updated_at,
    version: row.version,
  };
}

type DeliveryRow = Pick<
  WebhookDeliveriesTable,
  | 'id'
  | 'webhook_id'
  | 'event_id'
  | 'event_type'
  | 'status'
  | 'next_attempt_at'
  | 'last_status_code'
  | 'last_response_body'
  | 'last_error'
  | 'created_at'
  | 'delivered_at'
> & { attempts: number };

export function toDelivery(row: DeliveryRow): Delivery {
  return {
    id: row.id,
    webhook_id: row.webhook_id,
    event_id: row.event_id,
    event_type: row.event_type,
    status: row.status,
    attempts: row.attempts,
    // A finished delivery keeps the column's last value, which no longer means anything.
    next_attempt_at: row.status === 'pending' ? row.next_attempt_at : null,
    last_status_code: row.last_status_code,
    last_response_body: row.last_response_body,
    last_error: row.last_error,
    created_at: row.created_at,
    delivered_at: row.delivered_at,
  };
}
