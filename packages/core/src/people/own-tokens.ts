import { markRevoked, type TokenSummary, tokenRows, toSummary } from '../auth/manage-tokens.js';
import type { Clock } from '../clock.js';
import { ScheduleError } from '../errors.js';
import { isUuid } from '../ids.js';
import { decodeCursor, type Page, pageOf, queryBinding } from '../pagination/cursor.js';
import type { Executor } from '../storage/store.js';

// A person's own tokens through the API (docs/api/people.md "Tokens"): each
// sees, pages and revokes only their own; the token itself is
// auth/manage-tokens.ts's, as the operator's CLI makes and lists it.

/** One page of a user's own tokens, oldest first (revoked ones included: they say when). */
export async function listUserTokens(
  db: Executor,
  userId: string,
  query: { readonly limit: number; readonly cursor?: string | undefined },
): Promise<Page<TokenSummary>> {
  // Stryker disable next-line StringLiteral: no other list binds `list: ''`, so no cursor tells it from 'tokens' (the empty binding of an unfiltered series list is tested).
  const binding = queryBinding({ list: 'tokens' });
  let q = tokenRows(db).where('tokens.user_id', '=', userId);
  if (query.cursor !== undefined) {
    const after = decodeCursor(query.cursor, binding);
    q = q.where((eb) =>
      eb.or([
        eb('tokens.created_at', '>', after.value),
        eb.and([eb('tokens.created_at', '=', after.value), eb('tokens.id', '>', after.uid)]),
      ]),
    );
  }
  const rows = await q.limit(query.limit + 1).execute();
  return pageOf(rows, query.limit, binding, (r) => ({ value: r.created_at, uid: r.id }), toSummary);
}

/** The `404 token_not_found` of an id, whatever made it unknown. */
function tokenNotFound(id: string): ScheduleError {
  return new ScheduleError('token_not_found', 'No token with this id.', { id });
}

/** A user's own token by id; another user's answers as unknown, so existence never leaks. */
export async function findUserToken(db: Executor, userId: string, id: string): Promise<TokenSummary> {
  // Stryker disable next-line ConditionalExpression: speed only: ids are UUIDs the server made, so any other text matches no row and answers the same 404.
  if (!isUuid(id)) throw tokenNotFound(id);
  const row = await tokenRows(db).where('tokens.id', '=', id.toLowerCase()).where('tokens.user_id', '=', userId).executeTakeFirst();
  if (!row) throw tokenNotFound(id);
  return toSummary(row);
}

/** Revokes one of a user's own tokens by id; revoking one already revoked answers it unchanged. */
export async function revokeUserToken(db: Executor, deps: { clock: Clock }, userId: string, id: string): Promise<TokenSummary> {
  return markRevoked(db, deps, await findUserToken(db, userId, id));
}
