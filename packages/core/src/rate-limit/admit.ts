import type { Principal } from '../auth/principal.js';
import type { ScheduleError } from '../errors.js';
import type { Limits } from './limits.js';
import { bucketFor, type RateLimitDecision, type RateLimiter, rateLimitedError } from './rate-limiter.js';

/** What admitting a caller needs: the limiter and the organization's limits. */
export interface AdmissionDeps {
  readonly rateLimiter: RateLimiter;
  readonly limits: Limits;
}

/** Who is asking, as a front end knows it before anything is checked. */
export interface CallerSource {
  /** The principal of its token; undefined with no token, or one unknown, revoked or expired. */
  principal(): Promise<Principal | undefined>;
  /** The client address, for the anonymous bucket. */
  readonly address: string;
}

/**
 * A caller counted in its bucket. `decision` is there in every case, so that
 * HTTP can send its `X-RateLimit-*` headers with a refusal too.
 */
export type Admission =
  | { readonly kind: 'admitted'; readonly principal: Principal | undefined; readonly decision: RateLimitDecision }
  | { readonly kind: 'rate_limited'; readonly error: ScheduleError; readonly decision: RateLimitDecision }
  /** The token could not be looked up (the database is away); what failed is in `cause`. */
  | { readonly kind: 'lookup_failed'; readonly cause: unknown; readonly decision: RateLimitDecision };

/**
 * Counts a request or tool call in the rate limiter before anything else may
 * refuse it (docs/api/requests.md "Rate limits"): in its token's bucket, or, without a
 * valid token, in the anonymous bucket of its address, so token guessing is
 * limited too. A lookup that fails is counted anonymously, then reported.
 * Whether a caller without a principal may go on is the front end's to say:
 * HTTP answers 404 and 405 before 401.
 */
export async function admit(deps: AdmissionDeps, caller: CallerSource): Promise<Admission> {
  let principal: Principal | undefined;
  let failure: { cause: unknown } | undefined;
  try {
    principal = await caller.principal();
  } catch (cause) {
    failure = { cause };
  }
  const decision = await deps.rateLimiter.consume(bucketFor(principal, caller.address, deps.limits));
  if (!decision.allowed) return { kind: 'rate_limited', error: rateLimitedError(decision), decision };
  if (failure) return { kind: 'lookup_failed', cause: failure.cause, decision };
  return { kind: 'admitted', principal, decision };
}
