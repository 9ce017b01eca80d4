import { ScheduleError } from '../errors.js';
import type { WebhookRow } from './find-webhook.js';

/**
 * Refuses to queue a delivery to a webhook that is not active: a paused or
 * disabled webhook sends nothing, and a test or a redelivery must not slip
 * past that. Resume it first (PATCH `status: "active"`).
 */
export function requireActive(webhook: WebhookRow): void {
  if (webhook.status !== 'active') {
    throw new ScheduleError('webhook_inactive', `The webhook is ${webhook.status}; set its status to active first.`, {
      status: webhook.status,
    });
  }
}
