import { insertToken, type TokenSummary } from '../auth/manage-tokens.js';
import type { Principal } from '../auth/principal.js';
import type { Clock } from '../clock.js';
import { ScheduleError } from '../errors.js';
import type { IdGenerator } from '../ids.js';
import { lockHost } from '../storage/host-lock.js';
import type { Dialect, Executor } from '../storage/store.js';
import { parseInstant, toTimestamp } from '../time.js';
import { findVisiblePerson } from './find-person.js';
import { forbidden, requireAdmin, requireOwnerFor } from './person-rules.js';
import type { CreateTokenBody } from './token-input.js';

/**
 * Live personal access tokens a person may hold (docs/api/choices.md "At most
 * 100 live tokens per person"): far more than any one person's devices and
 * scripts need, low enough that a script minting a token per run is stopped
 * early, and its list still fits one page of `GET /v1/tokens`.
 */
export const MAX_LIVE_TOKENS = 100;

/** What making a token needs; `maxLiveTokens` is MAX_LIVE_TOKENS unless set (tests set a small one). */
export interface IssueTokenDeps {
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly store: { readonly dialect: Dialect };
  readonly maxLiveTokens?: number | undefined;
}

/**
 * A personal access token made through the API (docs/api/people.md "Tokens"):
 * only from a PAT, never from an OAuth grant (an app must not turn a
 * revocable, consented grant into a token of its own); with scopes the
 * calling token holds; for the caller, or by an admin or owner for another
 * person (how a new person gets their first token; an owner's only by an owner).
 */
export async function issueToken(
  trx: Executor,
  deps: IssueTokenDeps,
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
  await refuseOverCap(trx, deps, user.id);
  const expiresAt = body.expires_at === undefined ? undefined : toTimestamp(parseInstant(body.expires_at)!.epochMs);
  return insertToken(trx, deps, user, { name: body.name, scopes: body.scopes, expiresAt });
}

/**
 * Refuses a token past the cap of live ones: unrevoked and unexpired
 * personal access tokens; an app's OAuth grants are not counted, being made
 * and bounded by the authorization server. The count runs under the
 * person's row lock (storage/host-lock.ts), so two creates at once cannot
 * both take the last place, in this process or another.
 */
async function refuseOverCap(trx: Executor, deps: IssueTokenDeps, userId: string): Promise<void> {
  const max = deps.maxLiveTokens ?? MAX_LIVE_TOKENS;
  await lockHost(trx, deps.store.dialect, userId);
  const now = toTimestamp(deps.clock.now());
  const { live } = await trx
    .selectFrom('tokens')
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('live'))
    .where('user_id', '=', userId)
    .where('oauth_client_id', 'is', null)
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .executeTakeFirstOrThrow();
  if (Number(live) >= max) {
    throw new ScheduleError('token_limit_reached', `This person already has ${max} live tokens; revoke one before making another.`, {
      max,
    });
  }
}
