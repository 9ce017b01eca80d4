import { declineUnanswered } from '../bookings/decline-unanswered.js';
import { type DispatchDeps, type DispatchPass, dispatchPass } from './dispatch-notifications.js';

/**
 * One pass of the loop: the due mail, then the pending bookings left
 * unanswered past their deadline declined (bookings/decline-unanswered.ts).
 * When any were, the loop goes again at once, and their mail with it. Every
 * process runs it; the decline claims each booking once.
 */
export async function loopPass(deps: DispatchDeps, options: { concurrency?: number } = {}): Promise<DispatchPass> {
  const pass = await dispatchPass(deps, options);
  const declined = await declineUnanswered(deps);
  return declined > 0 ? { ...pass, more: true } : pass;
}

/** A running dispatcher: sends due mail every interval until stopped. */
export interface DispatchLoop {
  /** Stops after the pass under way, if any, has finished. */
  stop(): Promise<void>;
}

/** Mails sent at once when the loop is not told otherwise: one SMTP connection each. */
export const DEFAULT_MAIL_CONCURRENCY = 4;

/**
 * Runs `dispatchPass` one pass at a time: again at once while a pass ends at
 * its limit with more mail perhaps due (a backlog drains at the mailer's
 * pace, not a pass a tick), otherwise after `intervalMs`. A failed pass is
 * reported and the loop goes on: mail waits in the outbox, so nothing is
 * lost while the database or the mailer is down.
 */
export function startDispatchLoop(
  deps: DispatchDeps,
  options: { intervalMs: number; concurrency?: number; onError: (error: unknown) => void },
): DispatchLoop {
  const concurrency = options.concurrency ?? DEFAULT_MAIL_CONCURRENCY;
  let stopped = false;
  let cancelNext: () => void = () => {};
  let pass: Promise<void> = Promise.resolve();
  // A full pass goes again through setImmediate, not at once, so requests and timers get their turn between passes.
  const next = (more: boolean) => {
    if (more) {
      const immediate = setImmediate(tick).unref();
      cancelNext = () => clearImmediate(immediate);
    } else {
      const timer = setTimeout(tick, options.intervalMs).unref();
      cancelNext = () => clearTimeout(timer);
    }
  };
  const tick = () => {
    if (stopped) return;
    pass = loopPass(deps, { concurrency })
      .then(
        ({ more }) => more,
        (error: unknown) => {
          options.onError(error);
          return false;
        },
      )
      .then((more) => {
        if (!stopped) next(more);
      });
  };
  next(false);
  return {
    async stop() {
      stopped = true;
      cancelNext();
      await pass;
    },
  };
}
