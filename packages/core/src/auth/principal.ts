import type { ActsFor, Role } from './roles.js';
import type { Scope } from './scopes.js';

/** The user a caller acts as. */
export interface Account {
  readonly id: string;
  readonly username: string;
  readonly email: string;
  readonly name: string;
  readonly timezone: string;
  readonly role: Role;
}

/**
 * An authenticated caller: a personal access token, or an OAuth client acting
 * for an account. Rate-limit buckets and idempotency keys hang off it.
 */
export interface Principal {
  readonly tokenId: string;
  readonly credential:
    | { readonly kind: 'pat' }
    /** `resource` is the URL the token was issued for (RFC 8707): the API's or `/mcp`'s; absent on tokens made by an operator. */
    | { readonly kind: 'oauth'; readonly clientId: string; readonly resource?: string };
  readonly account: Account;
  readonly scopes: ReadonlySet<Scope>;
  readonly actsFor: ActsFor;
}
