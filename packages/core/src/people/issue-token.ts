import { insertToken, type TokenSummary } from '../auth/manage-tokens.js';
import type { Principal } from '../auth/principal.js';
import type { Clock } from '../clock.js';
import { ScheduleError } from '../errors.js';
import type { IdGenerator } from '../ids.js';
import type { Executor } from '../storage/store.js';
import { parseInstant, toTimestamp } from '../time.js';
import { findVisiblePerson } from './find-person.js';
import { forbidden, requireAdmin, requireOwnerFor } from './person-rules.js';
import type { CreateTokenBody } from './token-input.js';

/**
 * A personal access token made through the API (docs/api/people.md "Tokens"):
 * only from a PAT, never from an OAuth grant (an app must not turn a
 * revocable, consented grant into a token of its own); with scopes the
 * calling token holds; for the caller, or by an admin or owner for another
 * person (how a new person gets their first token; an owner's only by an owner).
 */
export async function issueToken(
  trx: Executor,
  deps: { clock: Clock; ids: IdGenerator },
  principal: Principal,
  body: CreateTokenBody,
): Promise<{ token: TokenSummary; secret: string }> {
  if (principal.credential.kind !== 'pat') {
    throw forbidden('oauth_credential', 'Tokens are made with a personal access token, not an app’s OAuth grant.');
  }
  const missing = body.scopes.filter((scope) => !principal.scopes.has(scope));
  if (missing.length > 0) {
    throw forbidden(
      'scopes_not_held',
      `The calling token does not hold ${missing.join(', ')}; a new token can have only scopes it holds.`,
      {
        scopes: missing,
      },
    );
  }
  if (body.expires_at !== undefined && parseInstant(body.expires_at)!.epochMs <= deps.clock.now()) {
    throw new ScheduleError('validation_error', 'expires_at: must be in the future.', { fields: ['expires_at'] });
  }
  let user = { id: principal.account.id, username: principal.account.username };
  if (body.user_id !== undefined) {
    const person = await findVisiblePerson(trx, principal, body.user_id);
    if (person.id !== principal.account.id) {
      requireAdmin(principal, 'make tokens for other people', ['user_id']);
      requireOwnerFor(principal, person);
    }
    user = { id: person.id, username: person.username };
  }
  const expiresAt = body.expires_at === undefined ? undefined : toTimestamp(parseInstant(body.expires_at)!.epochMs);
  return insertToken(trx, deps, user, { name: body.name, scopes: body.scopes, expiresAt });
}
