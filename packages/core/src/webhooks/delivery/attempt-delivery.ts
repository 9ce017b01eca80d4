import type { Clock } from '../../clock.js';
import type { IdGenerator } from '../../ids.js';
import type { Store } from '../../storage/store.js';
import type { ClaimedDelivery } from './claim-deliveries.js';
import type { DeliveryLogger, DeliveryOutcome, DeliveryStep, WebhookDeliverySettings } from './delivery-deps.js';
import { type WebhookAnswer, type WebhookHttpClient, WebhookRequestFailed } from './http-client.js';
import { recordFailure, recordGone, recordSuccess, releaseDelivery } from './record-outcome.js';
import { retryAfterMs } from './retry-after.js';
import { signatureHeader, signingSecrets } from './sign-delivery.js';

export interface AttemptDeps {
  readonly store: Store;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly http: WebhookHttpClient;
  readonly logger: DeliveryLogger;
  readonly settings: WebhookDeliverySettings;
  readonly steps?: ((step: DeliveryStep) => Promise<void>) | undefined;
}

/** The Standard Webhooks headers of one attempt: the id is the delivery's, the time and signatures this attempt's. */
export function deliveryHeaders(delivery: ClaimedDelivery, nowMs: number): Record<string, string> {
  const timestamp = Math.floor(nowMs / 1000);
  return {
    'content-type': 'application/json',
    'user-agent': 'schedule-webhooks/1',
    'webhook-id': delivery.id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatureHeader(signingSecrets(delivery, nowMs), delivery.id, timestamp, delivery.payload_json),
  };
}

/**
 * Sends one claimed delivery and records what came of it: a 2xx succeeds,
 * 410 disables the webhook, anything else (or no answer) is a failure that
 * is tried again on the schedule. How long the receiver took is recorded
 * too: whether it answered promptly, or timed out and is backed off.
 * `stopping` aborts the request when the service stops: the delivery is then
 * released unrecorded, to be sent again.
 */
export async function attemptDelivery(deps: AttemptDeps, delivery: ClaimedDelivery, stopping: AbortSignal): Promise<DeliveryOutcome> {
  await deps.steps?.({ phase: 'sending', deliveryId: delivery.id });
  const sentAt = deps.clock.now();
  const sent = await deps.http
    .post({ url: delivery.url, headers: deliveryHeaders(delivery, sentAt), body: delivery.payload_json, signal: stopping })
    .then(
      (answer: WebhookAnswer) => ({ answer }),
      (caught: unknown) => ({
        error: caught instanceof Error ? caught.message : String(caught),
        timedOut: caught instanceof WebhookRequestFailed && caught.timedOut,
      }),
    );
  const prompt = deps.clock.now() - sentAt <= deps.settings.promptAnswerMs;
  await deps.steps?.({ phase: 'answered', deliveryId: delivery.id });
  if (!('answer' in sent)) {
    if (!stopping.aborted) return recordFailure(deps, delivery, sent);
    await releaseDelivery(deps, delivery);
    return 'released';
  }
  const { answer } = sent;
  // Stryker disable next-line ConditionalExpression: an answer's status is final, never under 200 (1xx are interim); the other variants are killed
  if (answer.status >= 200 && answer.status <= 299) return recordSuccess(deps, delivery, answer, prompt);
  if (answer.status === 410) return recordGone(deps, delivery, answer);
  return recordFailure(deps, delivery, {
    answer,
    prompt,
    error: answer.status >= 300 && answer.status <= 399 ? `HTTP ${answer.status}: redirects are not followed` : `HTTP ${answer.status}`,
    retryAfterMs: retryAfterMs(answer.retryAfter, deps.clock.now()),
  });
}
