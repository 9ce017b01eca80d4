import * as example from '../examples.js';
import { type OperationDocs, RANGE } from '../operation-doc.js';

/** Webhooks: subscriptions, secrets and deliveries (docs/webhooks.md). */
export const WEBHOOK_DOCS = {
  list_webhooks: {
    tag: 'Webhooks',
    summary: 'List webhooks',
    description:
      'The caller’s own webhooks, newest first (`created_at`, then `id`, both descending). Secrets are never shown. Admins see only their own too.',
    resource: 'Webhook',
    responseExample: example.WEBHOOK,
  },
  get_webhook: {
    tag: 'Webhooks',
    summary: 'Get a webhook',
    description: 'One of the caller’s webhooks, with its version as `ETag`. Another account’s answers 404 like an unknown one.',
    resource: 'Webhook',
    etag: true,
    responseExample: example.WEBHOOK,
  },
  create_webhook: {
    tag: 'Webhooks',
    summary: 'Create a webhook',
    description: [
      'Subscribes the caller’s account to the events named in `events` (no wildcard), POSTed to `url` and signed as Standard Webhooks does.',
      'The answer holds `secret`, shown this once. A `url` naming a private, loopback or link-local address (or `localhost`) is refused',
      'unless the server allows such targets. It receives only bookings and series its owner may see. A body field it does not take is refused, `400 validation_error` naming it.',
    ].join(' '),
    resource: 'WebhookWithSecret',
    etag: true,
    created: true,
    requestExample: example.CREATE_WEBHOOK_BODY,
    responseExample: example.CREATED_WEBHOOK,
  },
  update_webhook: {
    tag: 'Webhooks',
    summary: 'Change, pause or resume a webhook',
    description: [
      'Changes `url`, `events`, `description` or `status`; send only what changes, any other key is refused.',
      '`status: "paused"` stops deliveries and ends the pending ones (events meanwhile are missed);',
      '`status: "active"` resumes from new events, also after a pause by failures or a 410, and clears the failure count.',
      'Every success bumps the version.',
    ].join(' '),
    resource: 'Webhook',
    etag: true,
    requestExample: example.UPDATE_WEBHOOK_BODY,
    responseExample: example.PAUSED_WEBHOOK,
  },
  delete_webhook: {
    tag: 'Webhooks',
    summary: 'Delete a webhook',
    description:
      'Deletes the webhook with all its deliveries, pending or done, and answers it as it was. Nothing is sent to it afterwards.',
    resource: 'Webhook',
    responseExample: example.WEBHOOK,
  },
  rotate_webhook_secret: {
    tag: 'Webhooks',
    summary: 'Rotate a webhook’s secret',
    description: [
      'No body. Gives the webhook a new `secret`, shown in this answer only. The previous secret signs too for 24 hours,',
      'so the receiver can switch without missing a delivery. Bumps the version.',
    ].join(' '),
    resource: 'WebhookWithSecret',
    etag: true,
    responseExample: example.ROTATED_WEBHOOK,
  },
  list_webhook_deliveries: {
    tag: 'Webhooks',
    summary: 'List a webhook’s deliveries',
    description: [
      'Recent deliveries of one webhook, newest first (`created_at`, then `id`, both descending), with their attempts,',
      'last status code and the start of the last answer; `status` filters them.',
      RANGE,
    ].join(' '),
    resource: 'Delivery',
    responseExample: example.DELIVERY,
  },
  redeliver_webhook_delivery: {
    tag: 'Webhooks',
    summary: 'Send a delivery again',
    description: [
      'No body. Makes the delivery due now with its attempts counted from zero. It keeps its id, so the receiver gets the same',
      '`webhook-id` and event again: one that deduplicates by `webhook-id` ignores it unless it allows replays. The webhook must be active.',
    ].join(' '),
    resource: 'Delivery',
    accepted: true,
    responseExample: {
      ...example.DELIVERY,
      status: 'pending',
      attempts: 0,
      next_attempt_at: '2026-11-26T09:00:00.000Z',
      delivered_at: null,
    },
  },
  test_webhook: {
    tag: 'Webhooks',
    summary: 'Send a test event',
    description:
      'No body. Queues a `webhook.test` event to this webhook alone, whatever it subscribes to: `data` is `{ "webhook_id" }`. The webhook must be active.',
    resource: 'Delivery',
    accepted: true,
    responseExample: example.QUEUED_DELIVERY,
  },
} satisfies OperationDocs;
