import type { Clock } from '../../clock.js';
import type { IdGenerator } from '../../ids.js';
import { executePrepared } from '../../storage/prepared-query.js';
import type { Executor, Store } from '../../storage/store.js';
import { toTimestamp } from '../../time.js';
import type { ClaimedDelivery } from './claim-deliveries.js';
import type { DeliveryLogger, DeliveryOutcome, WebhookDeliverySettings } from './delivery-deps.js';
import type { WebhookAnswer } from './http-client.js';
import { notifyWebhookPaused } from './notify-owner.js';
import { backoffUntil } from './receiver-backoff.js';
import { nextAttemptDelay } from './retry-schedule.js';

const HOUR_MS = 60 * 60 * 1000;

// Every write about an attempt names the claim's lease: a process that
// stalled past its lease, while another took the delivery over, writes
// nothing, and the other's outcome stands.

const markSucceeded = (db: Executor, id: string, lease: string, attempts: number, at: string, statusCode: number, body: string) =>
  db
    .updateTable('webhook_deliveries')
    .set({
      status: 'succeeded',
      attempts,
      delivered_at: at,
      last_status_code: statusCode,
      last_response_body: body,
      last_error: null,
      lease: null,
      locked_until: null,
    })
    .where('id', '=', id)
    .where('lease', '=', lease);

/**
 * A 2xx: the delivery is done, and the webhook's run of failures, if any,
 * ends, as does its back-off; whether the answer came promptly is kept.
 */
export async function recordSuccess(
  deps: { store: Store; clock: Clock },
  delivery: ClaimedDelivery,
  answer: WebhookAnswer,
  prompt: boolean,
): Promise<DeliveryOutcome> {
  const db = deps.store.db;
  const at = toTimestamp(deps.clock.now());
  const result = await executePrepared(db, markSucceeded, [
    delivery.id,
    delivery.lease,
    delivery.attempts + 1,
    at,
    answer.status,
    answer.body,
  ]);
  if (Number(result.numAffectedRows ?? 0) !== 1) return 'released';
  // Read at claim time: most webhooks are not failing and answer as they did, and then this write is
  // skipped. A back-off comes with failures (a timeout is one), so it is ended here too.
  // Stryker disable next-line ConditionalExpression,EqualityOperator: always writing goes unseen (it writes what the row holds); the other variants are killed
  if (delivery.consecutive_failures > 0 || delivery.answers_promptly !== prompt) {
    await db
      .updateTable('webhooks')
      .set({ consecutive_failures: 0, failing_since: null, backoff_until: null, answers_promptly: prompt ? 1 : 0 })
      .where('id', '=', delivery.webhook_id)
      .execute();
  }
  return 'succeeded';
}

/** How an attempt failed: an answer that was not 2xx, or no answer at all. */
export interface Failure {
  readonly answer?: WebhookAnswer | undefined;
  readonly error: string;
  /** The receiver's Retry-After, in ms. */
  readonly retryAfterMs?: number | undefined;
  /** With an answer: whether it came promptly. */
  readonly prompt?: boolean | undefined;
  /** Without one: whether the receiver took the whole time limit. */
  readonly timedOut?: boolean | undefined;
}

/**
 * A failed attempt: the next one is scheduled (or, after the last, the
 * delivery fails), and the webhook's run of failures grows. An answer says
 * whether the receiver answers promptly, and ends a back-off; a timeout
 * backs the webhook off (receiver-backoff.ts), its waiting deliveries with
 * it. When the run is long enough in both count and time, the webhook is
 * auto-paused and its owner told by mail, in the same transaction, so
 * exactly one process does it.
 */
export async function recordFailure(
  deps: { store: Store; clock: Clock; ids: IdGenerator; logger: DeliveryLogger; settings: WebhookDeliverySettings },
  delivery: ClaimedDelivery,
  failure: Failure,
): Promise<DeliveryOutcome> {
  const nowMs = deps.clock.now();
  const now = toTimestamp(nowMs);
  const attempts = delivery.attempts + 1;
  const delay = nextAttemptDelay(attempts, failure.retryAfterMs);
  return deps.store.db.transaction().execute(async (trx) => {
    await lockWebhook(trx, deps.store, delivery.webhook_id);
    const recorded = await trx
      .updateTable('webhook_deliveries')
      .set({
        status: delay === undefined ? 'failed' : 'pending',
        attempts,
        ...(delay === undefined ? {} : { next_attempt_at: toTimestamp(nowMs + delay) }),
        last_status_code: failure.answer?.status ?? null,
        last_response_body: failure.answer?.body ?? null,
        last_error: failure.error,
        lease: null,
        locked_until: null,
      })
      .where('id', '=', delivery.id)
      .where('lease', '=', delivery.lease)
      .executeTakeFirst();
    if (Number(recorded.numUpdatedRows) !== 1) return 'released';

    const webhook = await trx
      .updateTable('webhooks')
      .set((eb) => ({
        consecutive_failures: eb('consecutive_failures', '+', 1),
        failing_since: eb.fn.coalesce('failing_since', eb.val(now)),
        ...(failure.answer ? { answers_promptly: failure.prompt ? 1 : 0, backoff_until: null } : {}),
      }))
      .where('id', '=', delivery.webhook_id)
      .returning(['status', 'consecutive_failures', 'failing_since', 'backoff_until', 'owner_user_id', 'url', 'description', 'version'])
      .executeTakeFirst();
    const outcome: DeliveryOutcome = delay === undefined ? 'failed' : 'retrying';
    // Stryker disable next-line OptionalChaining,ConditionalExpression: the row exists (this delivery, which cascades with it, was just updated) and coalesce just set failing_since, so only the status test can return; its mutants are killed (an owner pause during the attempt), the others change nothing.
    if (webhook?.status !== 'active' || webhook.failing_since === null) return outcome;
    if (failure.timedOut) {
      const current = webhook.backoff_until === null ? undefined : Date.parse(webhook.backoff_until);
      await backOff(trx, delivery.webhook_id, now, toTimestamp(backoffUntil(nowMs, Date.parse(webhook.failing_since), current)));
    }
    const { pauseAfterFailures, pauseAfterHours } = deps.settings;
    const longEnough = nowMs - Date.parse(webhook.failing_since) >= pauseAfterHours * HOUR_MS;
    if (webhook.consecutive_failures < pauseAfterFailures || !longEnough) return outcome;

    await trx
      .updateTable('webhooks')
      .set({ status: 'paused', paused_reason: 'failures', version: webhook.version + 1, updated_at: now })
      .where('id', '=', delivery.webhook_id)
      .execute();
    // This delivery keeps its own error; the others say why they were not sent.
    await trx.updateTable('webhook_deliveries').set({ status: 'failed' }).where('id', '=', delivery.id).execute();
    await stopPending(trx, delivery.webhook_id, 'not sent: the webhook was paused after failing repeatedly');
    await notifyWebhookPaused(trx, deps, webhook.owner_user_id, {
      webhook_id: delivery.webhook_id,
      url: webhook.url,
      description: webhook.description,
      failing_since: webhook.failing_since,
      consecutive_failures: webhook.consecutive_failures,
    });
    deps.logger.warn(
      { webhook_id: delivery.webhook_id, failing_since: webhook.failing_since, consecutive_failures: webhook.consecutive_failures },
      'webhook paused after failing repeatedly; its owner is told by mail',
    );
    return 'failed';
  });
}

/**
 * 410 Gone: the receiver says the endpoint is no more. The webhook is
 * disabled (`paused_reason` gone), this delivery and every other pending one
 * fail, and nothing more is sent to it.
 */
export async function recordGone(
  deps: { store: Store; clock: Clock; logger: DeliveryLogger },
  delivery: ClaimedDelivery,
  answer: WebhookAnswer,
): Promise<DeliveryOutcome> {
  const now = toTimestamp(deps.clock.now());
  return deps.store.db.transaction().execute(async (trx) => {
    await lockWebhook(trx, deps.store, delivery.webhook_id);
    const recorded = await trx
      .updateTable('webhook_deliveries')
      .set({
        status: 'failed',
        attempts: delivery.attempts + 1,
        last_status_code: answer.status,
        last_response_body: answer.body,
        last_error: 'HTTP 410 Gone: the webhook is disabled',
        lease: null,
        locked_until: null,
      })
      .where('id', '=', delivery.id)
      .where('lease', '=', delivery.lease)
      .executeTakeFirst();
    if (Number(recorded.numUpdatedRows) !== 1) return 'released';
    await trx
      .updateTable('webhooks')
      .set((eb) => ({ status: 'disabled', paused_reason: 'gone', version: eb('version', '+', 1), updated_at: now }))
      .where('id', '=', delivery.webhook_id)
      .where('status', '!=', 'disabled')
      .execute();
    await stopPending(trx, delivery.webhook_id, 'not sent: the webhook was disabled (its receiver answered 410 Gone)');
    deps.logger.warn({ webhook_id: delivery.webhook_id }, 'webhook disabled: its receiver answered 410 Gone');
    return 'disabled';
  });
}

/**
 * Leaves a webhook whose request timed out alone until `until`: no process
 * claims its deliveries before then, and those waiting now are moved there,
 * so the due index passes over them and `next_attempt_at` says when they go.
 * Those in flight elsewhere keep theirs: their own outcome sets it.
 */
async function backOff(trx: Executor, webhookId: string, now: string, until: string): Promise<void> {
  await trx.updateTable('webhooks').set({ answers_promptly: 0, backoff_until: until }).where('id', '=', webhookId).execute();
  await trx
    .updateTable('webhook_deliveries')
    .set({ next_attempt_at: until })
    .where('webhook_id', '=', webhookId)
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<', until)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
    .execute();
}

/**
 * Takes the webhook's row lock first, before any delivery's: two attempts of
 * one webhook failing at once then queue on the webhook, where otherwise one
 * could hold its delivery and wait for the webhook while the other, pausing
 * the webhook, waits for that delivery (a deadlock). SQLite's write
 * transaction already admits one writer at a time.
 */
async function lockWebhook(trx: Executor, store: Store, webhookId: string): Promise<void> {
  if (store.dialect === 'postgres') await trx.selectFrom('webhooks').select('id').where('id', '=', webhookId).forUpdate().execute();
}

/**
 * Fails a stopped webhook's pending deliveries, with the reason as their
 * error, so they neither wait in the due index forever nor go out on a later
 * resume; the owner can redeliver one. Those in flight elsewhere are
 * included: their lease is cleared, so their outcome is not recorded.
 */
async function stopPending(trx: Executor, webhookId: string, reason: string): Promise<void> {
  await trx
    .updateTable('webhook_deliveries')
    .set({ status: 'failed', last_error: reason, lease: null, locked_until: null })
    .where('webhook_id', '=', webhookId)
    .where('status', '=', 'pending')
    .execute();
}

/** Lets a claimed delivery go unsent, attempt not counted: the service is stopping, and another process (or the next start) sends it. */
export async function releaseDelivery(deps: { store: Store }, delivery: ClaimedDelivery): Promise<void> {
  await deps.store.db
    .updateTable('webhook_deliveries')
    .set({ lease: null, locked_until: null })
    .where('id', '=', delivery.id)
    .where('lease', '=', delivery.lease)
    .execute();
}
