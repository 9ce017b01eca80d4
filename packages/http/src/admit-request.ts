import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  type Authenticator,
  bearerSecret,
  bucketFor,
  type Limits,
  type Principal,
  type RateLimitDecision,
  type RateLimiter,
  rateLimitedError,
} from '@schedule/core';

/** What admitting a request needs: who the token is, and the limiter. */
export interface AdmissionDeps {
  readonly authenticate: Authenticator;
  readonly rateLimiter: RateLimiter;
  readonly limits: Limits;
}

/** The caller of an admitted request: its principal (none without a valid token) and whether it sent a token at all. */
export interface Admitted {
  readonly principal: Principal | undefined;
  readonly sentToken: boolean;
}

export function setRateLimitHeaders(res: ServerResponse, decision: RateLimitDecision): void {
  res.setHeader('X-RateLimit-Limit', String(decision.limit));
  res.setHeader('X-RateLimit-Remaining', String(decision.remaining));
  res.setHeader('X-RateLimit-Reset', String(decision.resetEpochSeconds));
}

/**
 * Counts a request in the rate limiter before anything else may refuse it
 * (api.md "Rate limits"): in its token's bucket, or, without a valid token,
 * in the anonymous bucket of its address, so token guessing is limited too.
 * Sets the `X-RateLimit-*` headers, and throws `429 rate_limited` past the
 * limit. A token lookup that fails (the database is away) is counted
 * anonymously, then thrown: the answer is a 503 that still has its headers.
 */
export async function admitRequest(deps: AdmissionDeps, req: IncomingMessage, res: ServerResponse): Promise<Admitted> {
  const secret = bearerSecret(req.headers.authorization);
  let principal: Principal | undefined;
  let lookupFailure: { error: unknown } | undefined;
  try {
    principal = secret ? await deps.authenticate(secret) : undefined;
  } catch (error) {
    lookupFailure = { error };
  }
  const decision = await deps.rateLimiter.consume(bucketFor(principal, req.socket.remoteAddress ?? 'unknown', deps.limits));
  setRateLimitHeaders(res, decision);
  if (!decision.allowed) throw rateLimitedError(decision);
  if (lookupFailure) throw lookupFailure.error;
  return { principal, sentToken: secret !== undefined };
}
