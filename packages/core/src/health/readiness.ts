import { sql } from 'kysely';
import type { Clock } from '../clock.js';
import type { RateLimiter } from '../rate-limit/rate-limiter.js';
import type { Store } from '../storage/store.js';
import { within } from '../within.js';

/** What a readiness probe reports of each dependency. */
export interface Readiness {
  /** False when requests that need the database would fail: the probe answers 503. */
  readonly ready: boolean;
  readonly database: 'ok' | 'unavailable';
  /**
   * `degraded`: a shared rate-limit store (Redis) is configured but is not
   * connected, or failed or was slow on the last count, so each process counts
   * alone (docs/api: fail open). Reported, never a reason for `ready` false:
   * every process shares that one store, so failing readiness on it would take
   * all of them out of the balancer at once, turning a looser limit into an
   * outage. `ok` without a shared store: counting alone is then the design.
   */
  readonly rateLimits: 'ok' | 'degraded';
}

export interface ReadinessDeps {
  readonly store: Store;
  readonly clock: Clock;
  /** The limiter requests are counted in: its last count (`shared`) and its store's connection (`ready`). */
  readonly rateLimiter: Pick<RateLimiter, 'shared' | 'ready'>;
}

export interface ReadinessOptions {
  /** A probe answers within this, whatever the database does. */
  readonly timeoutMs?: number;
  /** A result is reused this long, so a flood of probes costs the database one query a second. */
  readonly cacheMs?: number;
}

async function databaseAnswers(store: Store, timeoutMs: number): Promise<boolean> {
  return (await within(sql`select 1`.execute(store.db), timeoutMs)).kind === 'done';
}

/** A readiness check (`GET /readyz`): can this process reach its database right now, and are rate limits shared? */
export function readinessCheck(deps: ReadinessDeps, options: ReadinessOptions = {}): () => Promise<Readiness> {
  const timeoutMs = options.timeoutMs ?? 2000;
  const cacheMs = options.cacheMs ?? 1000;
  let last: { atMs: number; result: Promise<Readiness> } | undefined;
  const check = async (): Promise<Readiness> => {
    // The last count alone would say `ok` for a Redis that went away while no
    // request came (or never connected); the connection alone would say `ok`
    // for a silent one whose commands time out. Both must hold.
    const [database, connected] = await Promise.all([databaseAnswers(deps.store, timeoutMs), deps.rateLimiter.ready(0).catch(() => false)]);
    const shared = connected && deps.rateLimiter.shared();
    return { ready: database, database: database ? 'ok' : 'unavailable', rateLimits: shared ? 'ok' : 'degraded' };
  };
  return () => {
    const nowMs = deps.clock.now();
    // Concurrent probes share the check under way.
    if (!last || nowMs - last.atMs >= cacheMs) last = { atMs: nowMs, result: check() };
    return last.result;
  };
}
