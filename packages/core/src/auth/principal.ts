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
 * What an anonymous visitor of the booking page may do, and nothing more
 * (docs/booking-page.md "Who the page acts as"): `book`, the public and
 * hidden event types of one host; `manage`, the one booking a manage link
 * names, and the slots of its event type to move it to.
 */
export type VisitorGrant =
  /** `holder` names one visitor's form, whose hold (holds/holder.ts) is its own; without it the visitor holds nothing. */
  | { readonly kind: 'book'; readonly hostId: string; readonly holder?: string | undefined }
  /** `eventTypeId` is known once the booking is read, and only then reaches the slots. */
  | { readonly kind: 'manage'; readonly bookingUid: string; readonly eventTypeId?: string | undefined };

/**
 * A caller: a personal access token, an OAuth client acting for an account,
 * or a visitor of the booking page holding a grant. Rate-limit buckets and
 * idempotency keys hang off it.
 */
export interface Principal {
  readonly tokenId: string;
  readonly credential:
    | { readonly kind: 'pat' }
    /** `resource` is the URL the token was issued for (RFC 8707): the API's or `/mcp`'s; absent on tokens made by an operator. */
    | { readonly kind: 'oauth'; readonly clientId: string; readonly resource?: string }
    /** The booking page's anonymous caller (auth/visitor.ts): it acts for nobody; its grant is all it may reach. */
    | { readonly kind: 'visitor'; readonly grant: VisitorGrant };
  readonly account: Account;
  readonly scopes: ReadonlySet<Scope>;
  readonly actsFor: ActsFor;
}
