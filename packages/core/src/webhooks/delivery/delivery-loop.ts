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
export function startWebhookDelivery(deps: WebhookDeliveryDeps, options: { intervalMs: number }): WebhookDeliveryLoop {
  const deliverer = createWebhookDeliverer(deps);
  let stopped = false;
  let wakeForStop: () => void = () => {};
  const stoppedSignal = new Promise<void>((resolve) => {
    wakeForStop = resolve;
  });

  const rest = async () => {
    let timer: NodeJS.Timeout | undefined;
    const elapsed = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, options.intervalMs);
      timer.unref();
    });
    await Promise.race([elapsed, deliverer.nextSettled(), stoppedSignal]);
    clearTimeout(timer);
  };

  const run = (async () => {
    while (!stopped) {
      let busy = false;
      try {
        busy = (await deliverer.step()).more;
      } catch (error) {
        deps.logger.warn({ err: error }, 'webhook delivery step failed; will retry');
      }
      if (!busy && !stopped) await rest();
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
