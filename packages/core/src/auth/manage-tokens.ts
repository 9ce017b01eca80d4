import { z } from 'zod';
import type { Clock } from '../clock.js';
import { ScheduleError } from '../errors.js';
import type { IdGenerator } from '../ids.js';
import type { Executor } from '../storage/store.js';
import { toTimestamp } from '../time.js';
import { shownInstant } from '../validation/fields.js';
import { findUser, type UserName } from './find-user.js';
import { SCOPES, type Scope } from './scopes.js';
import { hashSecret, newSecret } from './token-secret.js';

// Personal access tokens, one concept for both ways of making them: an
// operator on the server's own database (the CLI's `schedule tokens`), and a
// user through the API (`/v1/tokens`, docs/api/people.md), who sees and
// revokes only their own.

/** A token as its user or an operator sees it: never its secret, which is only shown once, at creation. */
export const tokenSummarySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    user: z.object({ user_id: z.string(), username: z.string() }),
    scopes: z.array(z.enum(SCOPES)),
    kind: z.enum(['pat', 'oauth']).meta({ description: 'pat, or oauth: an app acting for the user.' }),
    created_at: shownInstant,
    expires_at: shownInstant.nullable(),
    revoked_at: shownInstant.nullable(),
  })
  .meta({ description: 'An access token, without its secret.' });
export type TokenSummary = z.infer<typeof tokenSummarySchema>;

/** Tokens with their users' usernames, oldest first. */
export function tokenRows(db: Executor) {
  return db
    .selectFrom('tokens')
    .innerJoin('users', 'users.id', 'tokens.user_id')
    .select(['tokens.id', 'tokens.name', 'tokens.user_id', 'users.username', 'tokens.scopes_json', 'tokens.oauth_client_id'])
    .select(['tokens.created_at', 'tokens.expires_at', 'tokens.revoked_at'])
    .orderBy('tokens.created_at')
    .orderBy('tokens.id');
}

type TokenRow = Awaited<ReturnType<ReturnType<typeof tokenRows>['execute']>>[number];

/** A token row as its user or an operator sees it. */
export function toSummary(r: TokenRow): TokenSummary {
  return {
    id: r.id,
    name: r.name,
    user: { user_id: r.user_id, username: r.username },
    scopes: JSON.parse(r.scopes_json) as Scope[],
    kind: r.oauth_client_id === null ? 'pat' : 'oauth',
    created_at: r.created_at,
    expires_at: r.expires_at,
    revoked_at: r.revoked_at,
  };
}

/** Every token, oldest first. */
export async function listTokens(db: Executor): Promise<TokenSummary[]> {
  return (await tokenRows(db).execute()).map(toSummary);
}

/** A new token's request; `expiresAt` is an instant as stored (UTC with milliseconds). */
export interface NewToken {
  readonly name: string;
  readonly scopes: readonly Scope[];
  readonly expiresAt?: string | undefined;
}

/** A new personal access token for a user (by username or id); the secret is in the answer and nowhere else. */
export async function createToken(
  db: Executor,
  deps: { clock: Clock; ids: IdGenerator },
  request: NewToken & { user: string },
): Promise<{ token: TokenSummary; secret: string }> {
  return insertToken(db, deps, await findUser(db, request.user), request);
}

/** Writes a new token for a user already found; only the secret's digest is stored. */
export async function insertToken(
  db: Executor,
  deps: { clock: Clock; ids: IdGenerator },
  user: UserName,
  request: NewToken,
): Promise<{ token: TokenSummary; secret: string }> {
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
  return markRevoked(db, deps, matches[0]!);
}

/** Marks a token revoked now; one already revoked is answered unchanged, keeping when it first took effect. */
export async function markRevoked(db: Executor, deps: { clock: Clock }, token: TokenSummary): Promise<TokenSummary> {
  if (token.revoked_at !== null) return token;
  const revokedAt = toTimestamp(deps.clock.now());
  await db.updateTable('tokens').set({ revoked_at: revokedAt }).where('id', '=', token.id).execute();
  return { ...token, revoked_at: revokedAt };
}
