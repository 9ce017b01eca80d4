import type { Clock } from '../../clock.js';
import type { IdGenerator } from '../../ids.js';
import type { Store } from '../../storage/store.js';
import { DEFAULT_REQUEST_TIMEOUT_MS, type WebhookHttpClient } from './http-client.js';

/** Where delivery reports what an operator should see; pino's logger fits. */
export interface DeliveryLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

/** The knobs of delivery (README "Running the server"; docs/webhooks.md). */
export interface WebhookDeliverySettings {
  /** Auto-pause needs at least this many failed attempts in a row (WEBHOOK_PAUSE_AFTER_FAILURES)… */
  readonly pauseAfterFailures: number;
  /** …and the first of them at least this many hours ago (WEBHOOK_PAUSE_AFTER_HOURS). */
  readonly pauseAfterHours: number;
  /** Requests in flight at once in this process, over all webhooks. */
  readonly maxInFlight: number;
  /** Requests in flight at once in this process to one webhook whose receiver answers promptly; others get one. */
  readonly maxInFlightPerWebhook: number;
  /** Requests in flight at once in this process to the webhooks of one account, however many it makes. */
  readonly maxInFlightPerOwner: number;
  /**
   * Requests in flight at once in this process to webhooks whose receiver has
   * not answered promptly (new, slow, or timed out): the rest of maxInFlight is
   * kept for receivers that do, so a prompt receiver always finds a slot.
   */
  readonly maxInFlightUnproven: number;
  /** An answer within this many ms is prompt; a slower one leaves the webhook one request in flight. */
  readonly promptAnswerMs: number;
  /**
   * How long a claimed delivery stays this process's (WEBHOOK_LEASE_MS):
   * longer than a request may take, so only a process that died loses one;
   * at least MIN_LEASE_MS whatever is asked.
   */
  readonly leaseMs: number;
  /** Outbox events fanned out per transaction. */
  readonly fanOutBatch: number;
}

/** A request may take 10 s (the client's timeout); 5 s more covers recording its outcome. */
export const MIN_LEASE_MS = DEFAULT_REQUEST_TIMEOUT_MS + 5_000;

export const DEFAULT_DELIVERY_SETTINGS: WebhookDeliverySettings = {
  pauseAfterFailures: 10,
  pauseAfterHours: 24,
  maxInFlight: 16,
  maxInFlightPerWebhook: 4,
  maxInFlightPerOwner: 8,
  maxInFlightUnproven: 12,
  promptAnswerMs: 2_000,
  leaseMs: 30_000,
  fanOutBatch: 200,
};

/** Points where a test holds delivery to interleave it with another process, as the series steps do. */
export type DeliveryStep =
  /** Fan-out has claimed these events; its transaction is open (rows locked on PostgreSQL). */
  | { readonly phase: 'events-claimed'; readonly eventIds: readonly string[] }
  /** A delivery is claimed (leased) and about to be sent. */
  | { readonly phase: 'sending'; readonly deliveryId: string }
  /** The receiver answered (or did not); the outcome is about to be recorded. */
  | { readonly phase: 'answered'; readonly deliveryId: string };

/** How one attempt ended, for metrics: sent, to be tried again, given up, the webhook disabled (410), or let go unsent. */
export type DeliveryOutcome = 'succeeded' | 'retrying' | 'failed' | 'disabled' | 'released';

export interface WebhookDeliveryDeps {
  readonly store: Store;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly http: WebhookHttpClient;
  readonly logger: DeliveryLogger;
  readonly settings?: Partial<WebhookDeliverySettings> | undefined;
  readonly steps?: ((step: DeliveryStep) => Promise<void>) | undefined;
  /** Told once per attempt; `GET /metrics` counts them. */
  readonly onOutcome?: ((outcome: DeliveryOutcome) => void) | undefined;
}
