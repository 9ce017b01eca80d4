import { type AttemptDeps, attemptDelivery } from './attempt-delivery.js';
import { type ClaimedDelivery, claimDueDeliveries } from './claim-deliveries.js';
import { DEFAULT_DELIVERY_SETTINGS, type DeliveryOutcome, MIN_LEASE_MS, type WebhookDeliveryDeps } from './delivery-deps.js';
import { deliverySlots } from './delivery-slots.js';
import { fanOutEvents } from './fan-out-events.js';

/** What one step did. */
export interface StepReport {
  /** Outbox events fanned out to deliveries. */
  readonly events: number;
  /** Deliveries claimed and started; they run on after the step returns. */
  readonly started: number;
  /**
   * Another step now might find more to do: this one fanned out events, or
   * filled its claim with room to spare. When false, the next work is a
   * request ending (a slot freeing) or time passing (events, retries due).
   */
  readonly more: boolean;
  /** Resolves with the outcomes of the deliveries this step started, once all have ended. */
  readonly finished: Promise<DeliveryOutcome[]>;
}

/** Delivery in one process: steps driven by a loop (delivery-loop.ts), or by a test one at a time. */
export interface WebhookDeliverer {
  /**
   * Fans out one batch of outbox events, then claims as many due deliveries
   * as the caps leave room for and starts them. Resolves once they started,
   * not once they ended: a slow receiver never holds up the next step.
   */
  step(): Promise<StepReport>;
  /** Deliveries in flight now. */
  inFlight(): number;
  /** Resolves when the next delivery in flight ends (a slot frees); never while none is in flight. */
  nextSettled(): Promise<void>;
  /** Aborts the requests in flight, releases their deliveries for another attempt, and resolves when all have ended. */
  stop(): Promise<void>;
}

export function createWebhookDeliverer(deps: WebhookDeliveryDeps): WebhookDeliverer {
  const merged = { ...DEFAULT_DELIVERY_SETTINGS, ...deps.settings };
  const settings = { ...merged, leaseMs: Math.max(merged.leaseMs, MIN_LEASE_MS) };
  const attemptDeps: AttemptDeps = { ...deps, settings };
  const slots = deliverySlots(settings);
  const running = new Set<Promise<DeliveryOutcome>>();
  const stopping = new AbortController();
  let settled = signal();

  function start(delivery: ClaimedDelivery): Promise<DeliveryOutcome> {
    slots.take(delivery);
    const run = attemptDelivery(attemptDeps, delivery, stopping.signal)
      .catch((error: unknown) => {
        // Most likely the database failed while recording: the lease runs out and
        // the delivery is sent again (at least once; the receiver dedupes by webhook-id).
        deps.logger.warn({ err: error, delivery_id: delivery.id }, 'webhook delivery could not be recorded; it will be retried');
        return 'released' as const;
      })
      .then((outcome) => {
        slots.giveBack(delivery);
        running.delete(run);
        try {
          deps.onOutcome?.(outcome);
        } catch {
          // A metric that fails must not cost the delivery loop.
        }
        const done = settled;
        settled = signal();
        done.resolve();
        return outcome;
      });
    running.add(run);
    return run;
  }

  return {
    async step() {
      if (stopping.signal.aborted) return { events: 0, started: 0, more: false, finished: Promise.resolve([]) };
      // Each pass picks against a copy of the slots; only what it starts is taken from the real ones.
      const fanned = await fanOutEvents(deps, settings.fanOutBatch, {
        lease: deps.ids.uuid(),
        leaseMs: settings.leaseMs,
        slots: slots.copy(),
      });
      const events = fanned.events;
      const started = fanned.claimed.map(start);
      const { claimed, more } = await claimDueDeliveries(deps, { lease: deps.ids.uuid(), leaseMs: settings.leaseMs, slots: slots.copy() });
      started.push(...claimed.map(start));
      return { events, started: started.length, more: events > 0 || more, finished: Promise.all(started) };
    },
    inFlight: () => running.size,
    nextSettled: () => settled.promise,
    async stop() {
      stopping.abort();
      await Promise.all(running);
    },
  };
}

function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}
