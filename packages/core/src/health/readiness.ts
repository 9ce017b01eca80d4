import { sql } from 'kysely';
import type { Clock } from '../clock.js';
import type { Store } from '../storage/store.js';

/** What a readiness probe reports of each dependency. */
export interface Readiness {
  /** False when requests that need the database would fail: the probe answers 503. */
  readonly ready: boolean;
  readonly database: 'ok' | 'unavailable';
  /** `degraded`: the shared rate-limit store is away and each process counts alone (fail open). */
  readonly rateLimits: 'ok' | 'degraded';
}

export interface ReadinessDeps {
  readonly store: Store;
  readonly clock: Clock;
  /** Whether requests are counted in the shared rate-limit store right now (the limiter's `shared`). */
  readonly rateLimitsShared: () => boolean;
}

export interface ReadinessOptions {
  /** A probe answers within this, whatever the database does. */
  readonly timeoutMs?: number;
  /** A result is reused this long, so a flood of probes costs the database one query a second. */
  readonly cacheMs?: number;
}

async function databaseAnswers(store: Store, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([sql`select 1`.execute(store.db).then(() => true), timedOut]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/** A readiness check (`GET /readyz`): can this process reach its database right now? */
export function readinessCheck(deps: ReadinessDeps, options: ReadinessOptions = {}): () => Promise<Readiness> {
  const timeoutMs = options.timeoutMs ?? 2000;
  const cacheMs = options.cacheMs ?? 1000;
  let last: { atMs: number; result: Promise<Readiness> } | undefined;
  const check = async (): Promise<Readiness> => {
    const database = await databaseAnswers(deps.store, timeoutMs);
    return { ready: database, database: database ? 'ok' : 'unavailable', rateLimits: deps.rateLimitsShared() ? 'ok' : 'degraded' };
  };
  return () => {
    const nowMs = deps.clock.now();
    // Concurrent probes share the check under way.
    if (!last || nowMs - last.atMs >= cacheMs) last = { atMs: nowMs, result: check() };
    return last.result;
  };
}
