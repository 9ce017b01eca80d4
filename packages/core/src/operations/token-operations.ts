import { z } from 'zod';
import { tokenSummarySchema } from '../auth/manage-tokens.js';
import { directoryQuerySchema } from '../directory/directory.js';
import { parseQuery } from '../pagination/query-params.js';
import { issueToken } from '../people/issue-token.js';
import { findUserToken, listUserTokens, revokeUserToken } from '../people/own-tokens.js';
import { createTokenBodySchema, parseCreateTokenBody } from '../people/token-input.js';
import { mapLockTimeout } from '../storage/host-lock.js';
import { pathParam } from './call-parts.js';
import { defineOperation, type ListOutcome, listOutcome } from './operation.js';

// docs/api/people.md "Tokens": a caller's own access tokens. The secret is in
// the create's first answer only: the store keeps its digest, and a replay of
// the create answers the token with `secret: null` rather than keep the secret
// in the idempotency record.

const tokenWithSecretSchema = tokenSummarySchema
  .extend({
    secret: z.string().nullable().meta({
      description: 'The bearer secret, shown in this answer only; null when a retry with the same Idempotency-Key replays it.',
    }),
  })
  .meta({ description: 'A new token with its secret, which no other answer shows.' });
export type TokenWithSecret = z.infer<typeof tokenWithSecretSchema>;

const tokenIdParam = (params: Readonly<Record<string, string>>) => ({ id: pathParam(params, 'token_id') });

export const listTokensOperation = defineOperation({
  name: 'list_tokens',
  method: 'GET',
  path: '/v1/tokens',
  scope: 'tokens:read',
  idempotencyKey: 'none',
  ifMatch: 'none',
  errors: ['invalid_query_param'],
  schemas: { params: [], input: directoryQuerySchema, output: tokenSummarySchema, list: true },
  parse: (call) => parseQuery(directoryQuerySchema, call.query),
  async run(ctx, query): Promise<ListOutcome> {
    return listOutcome(await listUserTokens(ctx.deps.store.db, ctx.principal.account.id, query));
  },
});

export const getTokenOperation = defineOperation({
  name: 'get_token',
  method: 'GET',
  path: '/v1/tokens/:token_id',
  scope: 'tokens:read',
  idempotencyKey: 'none',
  ifMatch: 'none',
  errors: ['token_not_found'],
  schemas: { params: ['token_id'], output: tokenSummarySchema, list: false },
  parse: (call) => tokenIdParam(call.params),
  async run(ctx, { id }) {
    return { status: 200, data: await findUserToken(ctx.deps.store.db, ctx.principal.account.id, id) };
  },
});

export const createTokenOperation = defineOperation({
  name: 'create_token',
  method: 'POST',
  path: '/v1/tokens',
  scope: 'tokens:write',
  idempotencyKey: 'required',
  ifMatch: 'none',
  errors: ['validation_error', 'forbidden', 'person_not_found', 'token_limit_reached'],
  schemas: { params: [], input: createTokenBodySchema, output: tokenWithSecretSchema, list: false },
  parse: (call) => parseCreateTokenBody(call.body),
  async run(ctx, body) {
    // The cap's count waits for the person's row lock: 503 slot_lock_timeout when it is held too long.
    return mapLockTimeout(() =>
      ctx.write(async (trx) => {
        const { token, secret } = await issueToken(trx, ctx.deps, ctx.principal, body);
        return { status: 201, data: { ...token, secret }, replayData: { ...token, secret: null }, location: `/v1/tokens/${token.id}` };
      }),
    );
  },
});

export const revokeTokenOperation = defineOperation({
  name: 'revoke_token',
  method: 'DELETE',
  path: '/v1/tokens/:token_id',
  scope: 'tokens:write',
  idempotencyKey: 'optional',
  ifMatch: 'none',
  errors: ['token_not_found'],
  schemas: { params: ['token_id'], output: tokenSummarySchema, list: false },
  parse: (call) => tokenIdParam(call.params),
  async run(ctx, { id }) {
    const outcome = await ctx.write(async (trx) => ({
      status: 200,
      data: await revokeUserToken(trx, ctx.deps, ctx.principal.account.id, id),
    }));
    // This process refuses the token from the next call; another process within TOKEN_CACHE_MS.
    ctx.deps.tokenCache?.clear();
    return outcome;
  },
});
