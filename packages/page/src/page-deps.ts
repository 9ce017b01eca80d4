import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ExecuteDeps, Limits, Operation, RateLimiter } from '@schedule/core';
import type { RequestLogger } from '@schedule/http';
import type { Assets } from './assets.js';
import type { VisitorCall } from './visitor-calls.js';

/** What the booking pages are built from: core, the registry, the limiter, and where they are served. */
export interface BookingPagesDeps {
  readonly core: ExecuteDeps;
  readonly operations: readonly Operation[];
  readonly rateLimiter: RateLimiter;
  readonly limits: Limits;
  readonly logger: RequestLogger;
  /** The server's public address (PUBLIC_URL, else where it listens): form posts must come from it. */
  readonly publicUrl: string;
  /** How many proxies in front to trust with `X-Forwarded-For` (TRUST_PROXY), for the anonymous bucket. */
  readonly trustProxy?: number | undefined;
  /** Counts each request, as the API's are (`GET /metrics`). */
  readonly observe?: ((route: string, status: number, seconds: number) => void) | undefined;
}

/** One request as the routes see it. */
export interface PageRequest {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly url: URL;
  readonly requestId: string;
  readonly nowMs: number;
}

/** What every route uses: the deps, the assets, the visitor's calls, and the key forms and links are signed with. */
export interface PageContext {
  readonly deps: BookingPagesDeps;
  readonly assets: Assets;
  readonly call: VisitorCall;
  key(): Promise<string>;
}
