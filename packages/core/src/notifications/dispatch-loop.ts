import { type DispatchDeps, dispatchNotifications } from './dispatch-notifications.js';

/** A running dispatcher: sends due mail every interval until stopped. */
export interface DispatchLoop {
  /** Stops after the pass under way, if any, has finished. */
  stop(): Promise<void>;
}

/**
 * Runs `dispatchNotifications` every `intervalMs`, one pass at a time. A
 * failed pass is reported and the loop goes on: mail waits in the outbox,
 * so nothing is lost while the database or the mailer is down.
 */
export function startDispatchLoop(deps: DispatchDeps, options: { intervalMs: number; onError: (error: unknown) => void }): DispatchLoop {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let pass: Promise<void> = Promise.resolve();
  const tick = () => {
    pass = dispatchNotifications(deps)
      .then(() => undefined, options.onError)
      .finally(() => {
        if (!stopped) {
          timer = setTimeout(tick, options.intervalMs);
          timer.unref();
        }
      });
  };
  timer = setTimeout(tick, options.intervalMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await pass;
    },
  };
}
