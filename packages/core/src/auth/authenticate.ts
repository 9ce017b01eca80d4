import type { Clock } from '../clock.js';
import { runPrepared } from '../storage/prepared-query.js';
import type { Executor, Store } from '../storage/store.js';
import type { Principal } from './principal.js';
import { actsForOf, type Role } from './roles.js';
import { SCOPES, type Scope } from './scopes.js';
import { hashSecret } from './token-secret.js';

/** Finds the caller a bearer secret belongs to; undefined for any secret that must get `401`. */
export type Authenticator = (secret: string) => Promise<Principal | undefined>;

export interface AuthenticatorOptions {
  /**
   * How long a token lookup is reused. Every request authenticates, and the
   * lookup would otherwise cost more than the rest of a small read; the price
   * is that a token revoked in another process keeps working this long.
   * 0 turns the cache off.
   */
  cacheTtlMs?: number;
  /** Most lookups kept; the oldest goes first. */
  cacheEntries?: number;
  /**
   * The lookups kept, shared with the operations that revoke tokens or
   * deactivate people (CoreDeps.tokenCache), which empty it so that this
   * process stops accepting such a token at once; others within the TTL.
   */
  cache?: TokenCache;
}

/** The token lookups one process keeps; `clear` forgets them all. */
export interface TokenCache {
  clear(): void;
}

/** What a principal needs of the user a token acts as. */
const ACCOUNT_COLUMNS = [
  'users.id',
  'users.username',
  'users.email',
  'users.name',
  'users.timezone',
  'users.role',
  'users.manages_json',
  'users.deactivated_at',
] as const;

const tokenBySecretHash = (db: Executor, secretHash: string) =>
  db
    .selectFrom('tokens')
    .innerJoin('users', 'users.id', 'tokens.user_id')
    .select(['tokens.id as token_id', 'tokens.scopes_json', 'tokens.oauth_client_id', 'tokens.expires_at', 'tokens.revoked_at'])
    .select(ACCOUNT_COLUMNS)
    .where('tokens.secret_hash', '=', secretHash);

interface Lookup {
  principal: Principal | undefined;
  /** Epoch ms at which the token stops being valid, if it expires. */
  expiresAtMs: number | undefined;
  cachedAtMs: number;
}

/** An access token the authorization server issued (oauth/oauth-records.ts keys it by the same digest). */
const accessTokenBySecretHash = (db: Executor, secretHash: string) =>
  db
    .selectFrom('oauth_records')
    .innerJoin('users', 'users.id', 'oauth_records.account_id')
    .select(['oauth_records.payload_json', 'oauth_records.expires_at'])
    .select(ACCOUNT_COLUMNS)
    .where('oauth_records.model', '=', 'AccessToken')
    .where('oauth_records.id', '=', secretHash);

class LookupCache implements TokenCache {
  readonly entries = new Map<string, Lookup>();
  clear(): void {
    this.entries.clear();
  }
}

/** A cache of token lookups, to share between an authenticator and the operations that change credentials. */
export function createTokenCache(): TokenCache {
  return new LookupCache();
}

const NOBODY = (nowMs: number): Lookup => ({ principal: undefined, expiresAtMs: undefined, cachedAtMs: nowMs });

type AccountRow = {
  id: string;
  username: string;
  email: string;
  name: string;
  timezone: string;
  role: Role;
  manages_json: string;
  deactivated_at: string | null;
};

/** The account a token acts as, and whom it may act for. */
function actingAs(row: AccountRow): Pick<Principal, 'account' | 'actsFor'> {
  const { id, username, email, name, timezone, role } = row;
  return { account: { id, username, email, name, timezone, role }, actsFor: actsForOf(role, id, JSON.parse(row.manages_json) as string[]) };
}

async function lookUpAccessToken(store: Store, secretHash: string, nowMs: number): Promise<Lookup> {
  const [row] = await runPrepared(store.db, accessTokenBySecretHash, [secretHash]);
  // A deactivated person's every credential stops at once (docs/api/people.md).
  if (!row || row.deactivated_at !== null) return NOBODY(nowMs);
  const payload = JSON.parse(row.payload_json) as { clientId?: string; scope?: string; aud?: string | string[]; jti?: string };
  const resource = Array.isArray(payload.aud) ? payload.aud[0] : payload.aud;
  // Stryker disable next-line StringLiteral: any default without a scope's name grants nothing, as '' does.
  const granted = new Set((payload.scope ?? '').split(' '));
  return {
    principal: {
      tokenId: secretHash,
      credential: { kind: 'oauth', clientId: payload.clientId ?? '', ...(resource ? { resource } : {}) },
      ...actingAs(row),
      scopes: new Set(SCOPES.filter((scope) => granted.has(scope))),
    },
    // Stryker disable next-line ConditionalExpression: Date.parse(null) is NaN, and NaN <= now is false, so a token without expiry is accepted either way.
    expiresAtMs: row.expires_at === null ? undefined : Date.parse(row.expires_at),
    cachedAtMs: nowMs,
  };
}

async function lookUp(store: Store, secretHash: string, nowMs: number): Promise<Lookup> {
  const [row] = await runPrepared(store.db, tokenBySecretHash, [secretHash]);
  if (!row) return lookUpAccessToken(store, secretHash, nowMs);
  if (row.revoked_at !== null || row.deactivated_at !== null) return NOBODY(nowMs);
  return {
    principal: {
      tokenId: row.token_id,
      credential: row.oauth_client_id ? { kind: 'oauth', clientId: row.oauth_client_id } : { kind: 'pat' },
      ...actingAs(row),
      scopes: new Set(JSON.parse(row.scopes_json) as Scope[]),
    },
    // Stryker disable next-line ConditionalExpression: Date.parse(null) is NaN, and NaN <= now is false, so a token without expiry is accepted either way.
    expiresAtMs: row.expires_at === null ? undefined : Date.parse(row.expires_at),
    cachedAtMs: nowMs,
  };
}

/**
 * Authenticates bearer secrets against the tokens table. Unknown, revoked and
 * expired tokens all give undefined: the front end answers `401` alike.
 */
export function createAuthenticator(deps: { store: Store; clock: Clock }, options: AuthenticatorOptions = {}): Authenticator {
  const ttl = options.cacheTtlMs ?? 0;
  const maxEntries = options.cacheEntries ?? 10_000;
  const cache = options.cache instanceof LookupCache ? options.cache.entries : new Map<string, Lookup>();
  return async (secret) => {
    const nowMs = deps.clock.now();
    // Keyed by digest, so the cache never holds a secret in the clear.
    const secretHash = hashSecret(secret);
    // Stryker disable next-line ConditionalExpression,EqualityOperator: speed only: with the cache off nothing is ever cached (below), so reading it finds nothing.
    let lookup = ttl > 0 ? cache.get(secretHash) : undefined;
    if (!lookup || nowMs - lookup.cachedAtMs >= ttl) {
      lookup = await lookUp(deps.store, secretHash, nowMs);
      // Stryker disable next-line ConditionalExpression,EqualityOperator: memory only: with the cache off nothing reads it (above), so writing it changes no answer.
      if (ttl > 0) {
        cache.delete(secretHash);
        if (cache.size >= maxEntries) cache.delete(cache.keys().next().value!);
        cache.set(secretHash, lookup);
      }
    }
    // Stryker disable next-line ConditionalExpression: undefined <= now is false, so the first test only spares a comparison (the line's other mutants are killed).
    if (lookup.expiresAtMs !== undefined && lookup.expiresAtMs <= nowMs) return undefined;
    return lookup.principal;
  };
}

/** Authenticates one secret without caching. */
export function authenticate(deps: { store: Store; clock: Clock }, secret: string): Promise<Principal | undefined> {
  return createAuthenticator(deps)(secret);
}

/**
 * The authenticator of one resource (the API, or `/mcp`): an OAuth token
 * issued for the other one is not valid here (RFC 8707), so a token an MCP
 * client holds cannot be replayed against the API, nor the reverse. PATs
 * and operator-made tokens carry no resource and are valid on both.
 */
export function forResource(authenticate: Authenticator, resource: string): Authenticator {
  return async (secret) => {
    const principal = await authenticate(secret);
    if (
      principal?.credential.kind === 'oauth' &&
      principal.credential.resource !== undefined &&
      principal.credential.resource !== resource
    ) {
      return undefined;
    }
    return principal;
  };
}
