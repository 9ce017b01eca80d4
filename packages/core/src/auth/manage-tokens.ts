import { z } from 'zod';
import type { Clock } from '../clock.js';
import { ScheduleError } from '../errors.js';
import type { IdGenerator } from '../ids.js';
import type { Executor } from '../storage/store.js';
import { toTimestamp } from '../time.js';
import { SCOPES, type Scope } from './scopes.js';
import { hashSecret, newSecret } from './token-secret.js';

// Tokens made by an operator on the server's own database (the CLI's
// `schedule tokens`), not through the API: docs/api does not say how tokens
// are issued, and only someone with the database may make them.

/** A token as an operator sees it: never its secret, which is only shown once, at creation. */
export const tokenSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  user: z.object({ user_id: z.string(), username: z.string() }),
  scopes: z.array(z.enum(SCOPES)),
  kind: z.enum(['pat', 'oauth']),
  created_at: z.string(),
  expires_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
});
export type TokenSummary = z.infer<typeof tokenSummarySchema>;

/** Every token, oldest first. */
export async function listTokens(db: Executor): Promise<TokenSummary[]> {
  const rows = await db
    .selectFrom('tokens')
    .innerJoin('users', 'users.id', 'tokens.user_id')
    .select(['tokens.id', 'tokens.name', 'tokens.user_id', 'users.username', 'tokens.scopes_json', 'tokens.oauth_client_id'])
    .select(['tokens.created_at', 'tokens.expires_at', 'tokens.revoked_at'])
    .orderBy('tokens.created_at')
    .orderBy('tokens.id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    user: { user_id: r.user_id, username: r.username },
    scopes: JSON.parse(r.scopes_json) as Scope[],
    kind: r.oauth_client_id === null ? 'pat' : 'oauth',
    created_at: r.created_at,
    expires_at: r.expires_at,
    revoked_at: r.revoked_at,
  }));
}

/** A new personal access token for a user (by username or id); the secret is in the answer and nowhere else. */
export async function createToken(
  db: Executor,
  deps: { clock: Clock; ids: IdGenerator },
  request: { user: string; name: string; scopes: readonly Scope[]; expiresAt?: string | undefined },
): Promise<{ token: TokenSummary; secret: string }> {
  const user = await db
    .selectFrom('users')
    .select(['id', 'username'])
    .where((eb) => eb.or([eb('username', '=', request.user), eb('id', '=', request.user.toLowerCase())]))
    .executeTakeFirst();
  if (!user) throw new ScheduleError('not_found', `No user "${request.user}".`, { user: request.user });
  const unknown = request.scopes.filter((s) => !SCOPES.includes(s));
  if (unknown.length > 0 || request.scopes.length === 0) {
    throw new ScheduleError('validation_error', `Scopes must be some of: ${SCOPES.join(', ')}.`, { fields: ['scopes'] });
  }
  const secret = newSecret();
  const now = toTimestamp(deps.clock.now());
  const token: TokenSummary = {
    id: deps.ids.uuid(),
    name: request.name,
    user: { user_id: user.id, username: user.username },
    scopes: [...new Set(request.scopes)],
    kind: 'pat',
    created_at: now,
    expires_at: request.expiresAt ?? null,
    revoked_at: null,
  };
  await db
    .insertInto('tokens')
    .values({
      id: token.id,
      name: token.name,
      user_id: user.id,
      secret_hash: hashSecret(secret),
      scopes_json: JSON.stringify(token.scopes),
      oauth_client_id: null,
      created_at: now,
      expires_at: token.expires_at,
      revoked_at: null,
    })
    .execute();
  return { token, secret };
}

/** Revokes a token by id or name; revoking one already revoked answers it unchanged. */
export async function revokeToken(db: Executor, deps: { clock: Clock }, idOrName: string): Promise<TokenSummary> {
  const matches = (await listTokens(db)).filter((t) => t.id === idOrName.toLowerCase() || t.name === idOrName);
  if (matches.length === 0) throw new ScheduleError('not_found', `No token "${idOrName}".`, { token: idOrName });
  if (matches.length > 1) {
    throw new ScheduleError('validation_error', `More than one token is named "${idOrName}"; give its id.`, { fields: ['token'] });
  }
  const token = matches[0]!;
  if (token.revoked_at !== null) return token;
  const revokedAt = toTimestamp(deps.clock.now());
  await db.updateTable('tokens').set({ revoked_at: revokedAt }).where('id', '=', token.id).execute();
  return { ...token, revoked_at: revokedAt };
}
