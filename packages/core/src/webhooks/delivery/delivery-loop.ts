import type { WebhookDeliveryDeps } from './delivery-deps.js';
import { createWebhookDeliverer } from './webhook-deliverer.js';

/** Delivery running in the background of `schedule serve`. */
export interface WebhookDeliveryLoop {
  /** Stops stepping, abandons the requests in flight (their deliveries go out again later), and resolves when all is quiet. */
  stop(): Promise<void>;
}

/**
 * Steps the deliverer for as long as the service runs: again at once while
 * a step says there may be more, otherwise when a delivery in flight ends
 * (a slot freed) or after `intervalMs` (new events, retries falling due,
 * another webhook's deliveries behind a full one's). A failed step is
 * logged and the loop goes on: events and deliveries wait in the database,
 * so nothing is lost while it or a receiver is down.
 */
export function startWebhookDelivery(
  deps: WebhookDeliveryDeps,
  options: {
    intervalMs: number;
    /** The pause after a failed step (the database down): one log line a second, not one per poll. */
    errorBackoffMs?: number;
  },
): WebhookDeliveryLoop {
  const errorBackoffMs = Math.max(options.intervalMs, options.errorBackoffMs ?? 1000);
  const deliverer = createWebhookDeliverer(deps);
  let stopped = false;
  let wakeForStop: () => void = () => {};
  const stoppedSignal = new Promise<void>((resolve) => {
    wakeForStop = resolve;
  });

  const rest = async (ms: number, orSlotFreed: boolean) => {
    let timer: NodeJS.Timeout | undefined;
    const elapsed = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
      timer.unref();
    });
    await Promise.race([elapsed, stoppedSignal, ...(orSlotFreed ? [deliverer.nextSettled()] : [])]);
    clearTimeout(timer);
  };

  const run = (async () => {
    while (!stopped) {
      try {
        if (!(await deliverer.step()).more && !stopped) await rest(options.intervalMs, true);
      } catch (error) {
        deps.logger.warn({ err: error }, 'webhook delivery step failed; will retry');
        if (!stopped) await rest(errorBackoffMs, false);
      }
    }
  })();

  return {
    async stop() {
      stopped = true;
      wakeForStop();
      await run;
      await deliverer.stop();
    },
  };
}
