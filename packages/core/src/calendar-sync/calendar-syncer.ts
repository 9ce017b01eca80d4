import type { CalDavConnector } from '../caldav/caldav-connector.js';
import type { Clock } from '../clock.js';
import type { IdGenerator } from '../ids.js';
import type { Store } from '../storage/store.js';
import { claimDueSyncs } from './claim-syncs.js';
import { recordSyncOutcome, type SyncOutcome } from './record-sync-outcome.js';
import { CALENDAR_RETRY_DELAYS_MS } from './retry-schedule.js';
import { syncBooking } from './sync-booking.js';

export interface CalendarSyncDeps {
  readonly store: Store;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly connector: CalDavConnector;
  /** Told of every attempt: the booking, how it ended, and the failure's words (never a password). */
  readonly onOutcome?: ((report: { bookingUid: string; outcome: SyncOutcome; error?: string | undefined }) => void) | undefined;
  /** Delays between attempts; CALENDAR_RETRY_DELAYS_MS unless given. */
  readonly retryDelaysMs?: readonly number[] | undefined;
  /** How long a claim is held: longer than an attempt can take (a few requests of 5 s each). */
  readonly leaseMs?: number | undefined;
  /** Writes claimed per step, made concurrently. */
  readonly batch?: number | undefined;
}

export interface CalendarSyncer {
  /** Claims due writes and makes them; `more` when the batch was full, so stepping again at once may find more. */
  step(): Promise<{ readonly attempted: number; readonly more: boolean }>;
}

export const CALENDAR_SYNC_LEASE_MS = 60_000;

/** Writes bookings' events to their hosts' CalDAV calendars, a batch of due writes per step. */
export function createCalendarSyncer(deps: CalendarSyncDeps): CalendarSyncer {
  const batch = deps.batch ?? 8;
  const retryDelaysMs = deps.retryDelaysMs ?? CALENDAR_RETRY_DELAYS_MS;
  return {
    async step() {
      const claimed = await claimDueSyncs(deps, { lease: deps.ids.uuid(), leaseMs: deps.leaseMs ?? CALENDAR_SYNC_LEASE_MS, limit: batch });
      await Promise.all(
        claimed.map(async (claim) => {
          const attempt = await syncBooking(deps.store.db, deps.connector, claim);
          const outcome = await recordSyncOutcome({ store: deps.store, clock: deps.clock, retryDelaysMs }, claim, attempt);
          deps.onOutcome?.({ bookingUid: claim.booking_uid, outcome, error: attempt.failure?.message });
        }),
      );
      return { attempted: claimed.length, more: claimed.length === batch };
    },
  };
}

/** Calendar sync running in the background of `schedule serve`. */
export interface CalendarSyncLoop {
  /** Stops after the step in flight; a write it abandons is claimed again when its lease runs out. */
  stop(): Promise<void>;
}

/**
 * Steps the syncer for as long as the service runs: again at once while a
 * step filled its batch, otherwise after `intervalMs`. A failed step (the
 * database down) is reported and the loop goes on after `errorBackoffMs`:
 * the writes wait in the database, so nothing is lost.
 */
export function startCalendarSync(
  syncer: CalendarSyncer,
  options: { intervalMs: number; errorBackoffMs?: number; onStepFailed: (error: unknown) => void },
): CalendarSyncLoop {
  let stopped = false;
  let wake: () => void = () => {};
  const rest = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      timer.unref();
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  const run = (async () => {
    while (!stopped) {
      try {
        if (!(await syncer.step()).more && !stopped) await rest(options.intervalMs);
      } catch (error) {
        options.onStepFailed(error);
        if (!stopped) await rest(Math.max(options.intervalMs, options.errorBackoffMs ?? 1000));
      }
    }
  })();
  return {
    async stop() {
      stopped = true;
      wake();
      await run;
    },
  };
}
