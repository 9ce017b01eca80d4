import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  type Authenticator,
  admit,
  bearerSecret,
  type AdmissionDeps as CoreAdmissionDeps,
  type Principal,
  type RateLimitDecision,
} from '@schedule/core';
import { clientAddress } from './client-address.js';

/** What admitting a request needs: who the token is, and the limiter. */
export interface AdmissionDeps extends CoreAdmissionDeps {
  readonly authenticate: Authenticator;
  /** How many proxies in front of the server to trust with `X-Forwarded-For` (TRUST_PROXY); 0 or absent: none. */
  readonly trustProxy?: number | undefined;
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
 * Admits a request by core's `admit` (its bucket: the bearer token's, else
 * the client address's, read through trusted proxies as client-address.ts says), then sets the `X-RateLimit-*` headers on every
 * answer: `429 rate_limited` past the limit, and the failure of a token
 * lookup (a 503 when the database is away) are thrown with them set.
 */
export async function admitRequest(deps: AdmissionDeps, req: IncomingMessage, res: ServerResponse): Promise<Admitted> {
  const secret = bearerSecret(req.headers.authorization);
  const admission = await admit(deps, {
    principal: async () => (secret ? deps.authenticate(secret) : undefined),
    address: clientAddress(req, deps.trustProxy ?? 0),
  });
  setRateLimitHeaders(res, admission.decision);
  switch (admission.kind) {
    case 'rate_limited':
      throw admission.error;
    case 'lookup_failed':
      throw admission.cause;
    case 'admitted':
      return { principal: admission.principal, sentToken: secret !== undefined };
  }
}
