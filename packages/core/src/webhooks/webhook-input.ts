import { z } from 'zod';
import { ScheduleError } from '../errors.js';
import { EVENT_NAMES } from '../outbox/record-event.js';
import { didYouMean } from '../validation/closest-name.js';
import { bodyObject, parseBody } from '../validation/parse-body.js';
import { webhookUrl } from './webhook-url.js';

/**
 * The events a webhook subscribes to: a non-empty list of event names. There
 * is no wildcard: a receiver names what it handles, so an event added later
 * never reaches a receiver that does not know it. Each name is kept once, in
 * the order EVENT_NAMES lists them, so the stored list reads the same however
 * it was sent.
 */
const events = z
  .array(z.enum(EVENT_NAMES, { error: `must be one of ${EVENT_NAMES.join(', ')}` }))
  .min(1, 'must name at least one event')
  .transform((names) => EVENT_NAMES.filter((name) => names.includes(name)))
  .meta({ description: 'The event names to receive; no wildcard.' });

const description = z.string().max(255).nullable().meta({ description: 'A note for people, at most 255 characters.' });

/** The body of `POST /v1/webhooks`. A field it does not list is refused, as on every write (validation/unknown-fields.ts). */
export const createWebhookBodySchema = z.object({
  url: webhookUrl,
  events,
  description: description.optional(),
});
export type CreateWebhookBody = z.output<typeof createWebhookBodySchema>;

/** What an owner may set a webhook's status to; `disabled` is the deliverer's answer to a 410 and cannot be set. */
export const SETTABLE_STATUSES = ['active', 'paused'] as const;

/** The body of `PATCH /v1/webhooks/:id`: send only what changes. */
export const updateWebhookBodySchema = z.object({
  url: webhookUrl.optional(),
  events: events.optional(),
  description: description.optional().meta({ description: 'A note for people, at most 255 characters; null removes it.' }),
  status: z
    .enum(SETTABLE_STATUSES)
    .optional()
    .meta({ description: 'paused: events meanwhile are missed; active: resumes from new events.' }),
});
export type UpdateWebhookBody = z.output<typeof updateWebhookBodySchema>;
const PATCHABLE = Object.keys(updateWebhookBodySchema.shape);

export function parseCreateWebhookBody(body: unknown): CreateWebhookBody {
  return parseBody(createWebhookBodySchema, body);
}

/**
 * Checks a PATCH body. A key that is not one of the four is refused rather
 * than ignored (`secret`, `id`, a typo of `events`): a PATCH that silently
 * kept part of what was asked would look like it succeeded.
 */
export function parseUpdateWebhookBody(body: unknown): UpdateWebhookBody {
  const value = bodyObject(body);
  const unknown = Object.keys(value).filter((key) => !PATCHABLE.includes(key));
  if (unknown.length > 0) {
    throw new ScheduleError(
      'validation_error',
      `These fields cannot be patched: ${unknown.join(', ')}. Send any of ${PATCHABLE.join(', ')}.${didYouMean(unknown, PATCHABLE)}`,
      { fields: unknown },
    );
  }
  const patch = parseBody(updateWebhookBodySchema, value);
  if (Object.keys(patch).length === 0) {
    throw new ScheduleError('validation_error', `Send at least one of ${PATCHABLE.join(', ')}.`, { fields: [] });
  }
  return patch;
}
