import type { Updateable } from 'kysely';
import type { Principal } from '../auth/principal.js';
import { type IfMatch, matchesVersion } from '../conditional.js';
import { ScheduleError } from '../errors.js';
import type { WebhooksTable } from '../storage/schema.js';
import type { Executor } from '../storage/store.js';
import { toTimestamp } from '../time.js';
import { findOwnWebhook, type WebhookRow } from './find-webhook.js';
import { stopPendingDeliveries } from './stop-pending-deliveries.js';
import type { WebhookDeps } from './webhook-deps.js';
import type { UpdateWebhookBody } from './webhook-input.js';
import { checkWebhookTarget } from './webhook-url.js';
import { toWebhook, type Webhook } from './webhook-view.js';

/** The `409 version_conflict` of a webhook at `current`. */
export function webhookVersionConflict(current: number): ScheduleError {
  return new ScheduleError('version_conflict', `The webhook is at version ${current}.`, { current_version: current });
}

/**
 * What a status sent in a PATCH changes. Pausing is the owner's, whatever
 * stopped the webhook before. Resuming (from a pause of any kind, or from
 * `disabled` after a 410 once the target is back) starts afresh: the
 * failure count and its start are cleared, so the auto-pause threshold is
 * counted from the next failure, and so is a back-off.
 */
function statusChange(status: UpdateWebhookBody['status']): Updateable<WebhooksTable> {
  switch (status) {
    case undefined:
      return {};
    case 'paused':
      return { status: 'paused', paused_reason: 'owner' };
    case 'active':
      return { status: 'active', paused_reason: null, consecutive_failures: 0, failing_since: null, backoff_until: null };
  }
}

/**
 * Applies a PATCH to the caller's webhook. Every success bumps `version`,
 * even when nothing stored changed, as a booking PATCH does. The version is
 * compared again in the UPDATE, so of two writers that read the same
 * version only one succeeds. Pausing also ends the deliveries still pending
 * (stop-pending-deliveries.ts): a paused webhook sends nothing, and resuming
 * starts from new events.
 */
export async function updateWebhook(
  trx: Executor,
  deps: WebhookDeps & { readonly allowPrivateTargets: boolean },
  principal: Principal,
  id: string,
  ifMatch: IfMatch,
  patch: UpdateWebhookBody,
): Promise<Webhook> {
  const row = await findOwnWebhook(trx, principal, id);
  if (!matchesVersion(ifMatch, row.version)) throw webhookVersionConflict(row.version);
  if (patch.url !== undefined) checkWebhookTarget(patch.url, deps.allowPrivateTargets);

  const now = toTimestamp(deps.clock.now());
  const changes: Updateable<WebhooksTable> = {
    // Another receiver: what was learnt of the old one's speed no longer holds (docs/webhooks.md "Slow receivers").
    ...(patch.url !== undefined ? { url: patch.url, answers_promptly: 0, backoff_until: null } : {}),
    ...(patch.events !== undefined ? { events_json: JSON.stringify(patch.events) } : {}),
    ...(patch.description !== undefined ? { description: patch.description } : {}),
    ...statusChange(patch.status),
    version: row.version + 1,
    updated_at: now,
  };
  const updated = await trx
    .updateTable('webhooks')
    .set(changes)
    .where('id', '=', row.id)
    .where('version', '=', row.version)
    .returningAll()
    .executeTakeFirst();
  if (!updated) throw webhookVersionConflict((await findOwnWebhook(trx, principal, id)).version);
  if (patch.status === 'paused') await stopPendingDeliveries(trx, row.id, 'The webhook was paused by its owner.');
  return toWebhook(updated satisfies WebhookRow);
}
