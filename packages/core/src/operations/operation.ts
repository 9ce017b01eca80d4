import type { z } from 'zod';
import type { TokenCache } from '../auth/authenticate.js';
import type { Principal } from '../auth/principal.js';
import type { Scope } from '../auth/scopes.js';
import type { CalendarAccountDeps } from '../calendar-accounts/calendar-account-deps.js';
import type { ErrorCode } from '../errors.js';
import type { PagesAddress } from '../event-types/booking-url.js';
import type { Page } from '../pagination/cursor.js';
import type { SeriesDeps } from '../series/series-deps.js';
import type { SeriesSource } from '../series/series-view.js';
import type { Executor } from '../storage/store.js';

/**
 * What every operation may use; passed in, never imported. The series
 * actions need nearly all of it, so that set is declared with them
 * (series/series-deps.ts): no folder below looks up here for its deps.
 */
export interface CoreDeps extends SeriesDeps {
  /**
   * Webhooks may target private, loopback and link-local addresses
   * (WEBHOOK_ALLOW_PRIVATE_TARGETS=1, for development and tests). Absent
   * means false: such targets are refused.
   */
  readonly allowPrivateWebhookTargets?: boolean | undefined;
  /** Connecting users' CalDAV accounts through the API; absent, none can be added or tested. */
  readonly calendarAccounts?: CalendarAccountDeps | undefined;
  /**
   * This process's token lookups (auth/authenticate.ts), emptied after a
   * token is revoked or a person deactivated, so that the change holds here
   * from the next call; other processes see it within their cache's TTL.
   */
  readonly tokenCache?: TokenCache | undefined;
  /** Live personal access tokens per person, people/issue-token.ts; absent means MAX_LIVE_TOKENS (100); tests set a small one. */
  readonly maxLiveTokens?: number | undefined;
  /** The cap on one person's time off ranges (time-off/write-time-off.ts); absent, 500. */
  readonly maxTimeOffRanges?: number | undefined;
  /** Where the booking pages are served, for every event type's `booking_url` (event-types/booking-url.ts); absent, nowhere. */
  readonly pages?: PagesAddress | undefined;
}

/**
 * A call as a front end received it, before any validation: path parameters,
 * query, body, the two headers the spec gives meaning to, and which front
 * end it came through.
 */
export interface RawCall {
  readonly params: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, unknown>>;
  readonly body: unknown;
  readonly idempotencyKey?: string | undefined;
  readonly ifMatch?: string | undefined;
  /** `api` for HTTP (the default), `mcp` for the MCP server, `internal` for the CLI on its own database. */
  readonly source?: SeriesSource | undefined;
}

/** A success that is one resource (or one answer), in terms every front end can render. */
export interface ItemOutcome {
  /** 202: the work was queued (a webhook delivery), not done yet. */
  readonly status: 200 | 201 | 202;
  readonly data: unknown;
  /** The resource version; front ends show it as `ETag`. */
  readonly version?: number | undefined;
  readonly location?: string | undefined;
  /**
   * What a replay with the same Idempotency-Key answers instead of `data`,
   * when `data` holds a secret the store must not keep (a new token's): the
   * stored answer is written to the database, the secret only to the caller.
   */
  readonly replayData?: unknown;
  readonly page?: undefined;
}

/** A page of a list operation; front ends add `next_cursor` and `has_more` to their envelope. */
export interface ListOutcome {
  readonly status: 200;
  readonly data: readonly unknown[];
  readonly page: { readonly nextCursor: string | null; readonly hasMore: boolean };
  readonly version?: undefined;
  readonly location?: undefined;
  readonly replayData?: undefined;
}

/** A success; `page` tells a list from one resource. */
export type Outcome = ItemOutcome | ListOutcome;

export interface OperationContext {
  readonly deps: CoreDeps;
  readonly principal: Principal;
  readonly requestId: string;
  /** Which front end the call came through; a series records it as its `source`. */
  readonly source: SeriesSource;
  /**
   * Runs the operation's write in one transaction. When the call carries an
   * Idempotency-Key, the success is stored in that same transaction.
   */
  write(work: (trx: Executor) => Promise<Outcome>): Promise<Outcome>;
}

export type Requirement = 'required' | 'optional' | 'none';

/**
 * The shapes of an operation, for front ends that describe it rather than
 * only call it: MCP derives each tool's input and output schema from these,
 * so they are never retyped. `parse` stays the one place input values are
 * validated; `execute` holds a write's body to the fields `input` declares
 * (validation/unknown-fields.ts), so no write can take a field it ignores.
 */
export interface OperationSchemas {
  /** Path parameters by name, e.g. `uid`. */
  readonly params: readonly string[];
  /** Query parameters (GET) or body fields (POST, PUT, PATCH); none for a bodiless action, whose body may hold no field. */
  readonly input?: z.ZodObject | undefined;
  /** What a success carries in `data`: the object, or for a list, one item. */
  readonly output: z.ZodType;
  /** True for a list: `data` is a page of `output` items with a cursor. */
  readonly list: boolean;
}

/**
 * One endpoint of docs/api, front-end neutral. HTTP routes to it by method and
 * path; MCP exposes it as the tool `name`. Scope, Idempotency-Key and
 * If-Match rules are declared here once.
 */
export interface Operation<Input = unknown, Name extends string = string> {
  /** The operation's name, which is also its MCP tool's and the CLI's (registry.ts lists them). */
  readonly name: Name;
  /** PUT replaces a whole resource (its body is every field, as a create's); PATCH sends only what changes. */
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly path: string;
  /** The scope a token needs; null for what any valid token may ask (who am I, my directory). */
  readonly scope: Scope | null;
  readonly idempotencyKey: Requirement;
  readonly ifMatch: Requirement;
  /**
   * The failures its own checks and work answer, in the order docs/api lists
   * them; the ones `execute`'s rules and admission give every call are
   * derived from the declaration by `errorsOf` (operation-errors.ts).
   */
  readonly errors: readonly ErrorCode[];
  readonly schemas: OperationSchemas;
  parse(call: RawCall): Input;
  run(ctx: OperationContext, input: Input): Promise<Outcome>;
}

/** The answer of a list operation: one page of items and where the next begins. */
export function listOutcome(page: Page<unknown>): ListOutcome {
  return { status: 200, data: page.items, page: { nextCursor: page.nextCursor, hasMore: page.hasMore } };
}

/** Declares an operation with its input type inferred and its name kept as a literal, for `OperationName`. */
export function defineOperation<Input, const Name extends string>(operation: Operation<Input, Name>): Operation<Input, Name> {
  return operation;
}
