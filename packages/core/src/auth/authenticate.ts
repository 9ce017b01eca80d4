import type { Clock } from '../clock.js';
import type { Store } from '../storage/store.js';
import { toTimestamp } from '../time.js';
import type { Principal } from './principal.js';
import { actsForOf, type Role } from './roles.js';
import type { Scope } from './scopes.js';
import { hashSecret } from './token-secret.js';

/**
 * Finds the caller a bearer secret belongs to. Unknown, revoked and expired
 * tokens all give undefined: the front end answers `401 unauthorized` alike.
 */
export async function authenticate(deps: { store: Store; clock: Clock }, secret: string): Promise<Principal | undefined> {
  const row = await deps.store.db
    .selectFrom('tokens')
    .innerJoin('users', 'users.id', 'tokens.user_id')
    .select([
      'tokens.id as token_id',
      'tokens.scopes_json',
      'tokens.oauth_client_id',
      'tokens.expires_at',
      'tokens.revoked_at',
      'users.id',
      'users.username',
      'users.email',
      'users.name',
      'users.timezone',
      'users.role',
      'users.manages_json',
    ])
    .where('tokens.secret_hash', '=', hashSecret(secret))
    .executeTakeFirst();
  if (!row || row.revoked_at !== null) return undefined;
  if (row.expires_at !== null && row.expires_at <= toTimestamp(deps.clock.now())) return undefined;
  const role = row.role as Role;
  return {
    tokenId: row.token_id,
    credential: row.oauth_client_id ? { kind: 'oauth', clientId: row.oauth_client_id } : { kind: 'pat' },
    account: { id: row.id, username: row.username, email: row.email, name: row.name, timezone: row.timezone, role },
    scopes: new Set(JSON.parse(row.scopes_json) as Scope[]),
    actsFor: actsForOf(role, row.id, JSON.parse(row.manages_json) as string[]),
  };
}
