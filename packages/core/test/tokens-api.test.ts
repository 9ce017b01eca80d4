import { beforeEach, describe, expect, it } from 'vitest';
import { createAuthenticator, createTokenCache } from '../src/auth/authenticate.js';
import type { TokenSummary } from '../src/auth/manage-tokens.js';
import type { ListOutcome } from '../src/operations/operation.js';
import type { TokenWithSecret } from '../src/operations/token-operations.js';
import { encodeCursor, queryBinding } from '../src/pagination/cursor.js';
import { MAX_LIVE_TOKENS } from '../src/people/issue-token.js';
import type { PersonDetail } from '../src/people/person-view.js';
import { testDeps } from './support/deps.js';
import { scheduleErrorOf } from './support/errors.js';
import { principalOf } from './support/organization.js';
import { PP, PP_T0, type PpCaller, peopleSuite } from './support/people-calls.js';
import { storeFixtures } from './support/stores.js';

// docs/api/people.md "Tokens": a caller's own access tokens through
// `execute`, on SQLite and PostgreSQL.

const T0 = PP_T0;
const error = (code: string, details: Record<string, unknown> = {}) => ({ code, details, retryAfterSeconds: undefined });
const forbidden = (reason: string, more: Record<string, unknown> = {}) => error('forbidden', { reason, ...more });
const UNKNOWN = 'd0000000-0000-4000-8000-0000000000ff';

describe.each(storeFixtures())('tokens on $name', (fixture) => {
  const pp = peopleSuite(fixture);
  const { call, callAs } = pp;
  const create = async (caller: PpCaller, body: Record<string, unknown>, key?: string) =>
    (await call(caller, 'create_token', { body, ...(key ? { key } : {}) })).outcome;

  describe('POST /v1/tokens', () => {
    it('answers 201 with the token and its secret once; the secret authenticates with exactly those scopes', async () => {
      const outcome = await create('ursula', { name: 'laptop', scopes: ['slots:read', 'bookings:read'] });
      const data = outcome.data as TokenWithSecret;
      expect(outcome).toMatchObject({ status: 201, location: `/v1/tokens/${data.id}` });
      expect(data).toEqual({
        id: data.id,
        name: 'laptop',
        user: { user_id: PP.ursula, username: 'ursula' },
        scopes: ['slots:read', 'bookings:read'],
        kind: 'pat',
        created_at: T0,
        expires_at: null,
        revoked_at: null,
        secret: data.secret,
      });
      expect(data.secret).toMatch(/^pat_[A-Za-z0-9_-]{32}$/);
      const principal = await principalOf(pp, data.secret!);
      expect(principal.account.id).toBe(PP.ursula);
      expect([...principal.scopes].sort()).toEqual(['bookings:read', 'slots:read']);
      const { secret: _, ...summary } = data;
      expect((await call('ursula', 'get_token', { params: { token_id: data.id } })).outcome.data).toEqual(summary);
    });

    it('replays the same Idempotency-Key without the secret, which the store never holds in the clear', async () => {
      const first = (await create('ursula', { name: 'ci', scopes: ['slots:read'] }, 'ci-token')).data as TokenWithSecret;
      const again = await call('ursula', 'create_token', { body: { name: 'ci', scopes: ['slots:read'] }, key: 'ci-token' });
      expect(again.replayed).toBe(true);
      expect(again.outcome).toMatchObject({ status: 201, location: `/v1/tokens/${first.id}` });
      expect(again.outcome.data).toEqual({ ...first, secret: null });
      const stored = await pp.store.db.selectFrom('idempotency_keys').select('response_json').execute();
      expect(stored.map((r) => r.response_json).join('')).not.toContain(first.secret);
      expect((await call('ursula', 'list_tokens')).outcome.data).toHaveLength(3);
    });

    it('refuses scopes the calling token does not hold (403 forbidden naming them)', async () => {
      expect(
        await scheduleErrorOf(create('adaNarrow', { name: 'x', scopes: ['slots:read', 'bookings:read', 'series:write'] })),
      ).toMatchObject(forbidden('scopes_not_held', { scopes: ['bookings:read', 'series:write'] }));
    });

    it('refuses an OAuth credential: an app may not turn its grant into a token of its own', async () => {
      expect(await scheduleErrorOf(create('olgaApp', { name: 'x', scopes: ['slots:read'] }))).toMatchObject(forbidden('oauth_credential'));
    });

    it('takes an expiry in the future only, and the token stops at it', async () => {
      expect(await scheduleErrorOf(create('ursula', { name: 'x', scopes: ['slots:read'], expires_at: T0 }))).toMatchObject(
        error('validation_error', { fields: ['expires_at'] }),
      );
      const data = (await create('ursula', { name: 'x', scopes: ['slots:read'], expires_at: '2026-06-01T12:00:00+02:00' }))
        .data as TokenWithSecret;
      expect(data.expires_at).toBe('2026-06-01T10:00:00.000Z');
      pp.clock.set('2026-06-01T10:00:00.000Z');
      expect(await createAuthenticator(pp)(data.secret!)).toBeUndefined();
    });

    it('needs tokens:write and an Idempotency-Key', async () => {
      expect(await scheduleErrorOf(create('ursulaNoTokens', { name: 'x', scopes: ['bookings:read'] }))).toMatchObject(
        error('insufficient_scope', { required_scope: 'tokens:write' }),
      );
      expect(
        await scheduleErrorOf(call('ursula', 'create_token', { body: { name: 'x', scopes: ['slots:read'] }, key: null })),
      ).toMatchObject(error('missing_idempotency_key'));
    });

    it('says what each refusal is about, in full', async () => {
      const refusal = async (attempt: Promise<unknown>) => {
        const { code, message, details } = await scheduleErrorOf(attempt);
        return { code, message, details };
      };
      expect(await refusal(create('olgaApp', { name: 'x', scopes: ['slots:read'] }))).toEqual({
        code: 'forbidden',
        message: 'Tokens are made with a personal access token, not an app’s OAuth grant.',
        details: { reason: 'oauth_credential' },
      });
      expect(await refusal(create('adaNarrow', { name: 'x', scopes: ['bookings:read', 'series:write'] }))).toEqual({
        code: 'forbidden',
        message: 'The calling token does not hold bookings:read, series:write; a new token can have only scopes it holds.',
        details: { reason: 'scopes_not_held', scopes: ['bookings:read', 'series:write'] },
      });
      expect(await refusal(create('ursula', { name: 'x', scopes: ['slots:read'], expires_at: T0 }))).toEqual({
        code: 'validation_error',
        message: 'expires_at: must be in the future.',
        details: { fields: ['expires_at'] },
      });
      expect(await refusal(create('mia', { name: 'x', scopes: ['slots:read'], user_id: 'ursula' }))).toEqual({
        code: 'forbidden',
        message: 'Only admins and owners may make tokens for other people.',
        details: { reason: 'role', fields: ['user_id'] },
      });
      expect(await refusal(call('ursula', 'get_token', { params: { token_id: UNKNOWN } }))).toEqual({
        code: 'token_not_found',
        message: 'No token with this id.',
        details: { id: UNKNOWN },
      });
    });

    it('onboards with API calls only: an admin adds a person and gives them a first token', async () => {
      const bea = (await call('ada', 'create_person', { body: { username: 'bea', email: 'bea@people.test', name: 'Bea' } })).outcome
        .data as PersonDetail;
      const token = (await create('ada', { name: 'first', scopes: ['slots:read', 'tokens:write'], user_id: 'bea' }))
        .data as TokenWithSecret;
      expect(token.user).toEqual({ user_id: bea.user_id, username: 'bea' });
      const asBea = await principalOf(pp, token.secret!);
      expect(asBea.account.id).toBe(bea.user_id);
      // The token is Bea's own: she sees and revokes it, the admin does not list it.
      expect((await callAs(asBea, 'create_token', { body: { name: 'own', scopes: ['slots:read'] } })).outcome.status).toBe(201);
      expect((await call('ada', 'list_tokens')).outcome.data).toEqual(
        expect.not.arrayContaining([expect.objectContaining({ id: token.id })]),
      );
    });

    it('lets no one but admins and owners name another person, and an owner only an owner', async () => {
      expect(await scheduleErrorOf(create('mia', { name: 'x', scopes: ['slots:read'], user_id: 'ursula' }))).toMatchObject(
        forbidden('role', { fields: ['user_id'] }),
      );
      expect(await scheduleErrorOf(create('ursula', { name: 'x', scopes: ['slots:read'], user_id: 'oscar' }))).toMatchObject(
        error('person_not_found'),
      );
      expect(await scheduleErrorOf(create('ada', { name: 'x', scopes: ['slots:read'], user_id: 'olga' }))).toMatchObject(
        forbidden('owner_only'),
      );
      expect((await create('ursula', { name: 'x', scopes: ['slots:read'], user_id: 'me' })).status).toBe(201);
    });
  });

  describe('POST /v1/tokens: at most maxLiveTokens live tokens per person', () => {
    // A cap of 3 stands for the 100 of production; Ursula holds 2 from the workspace file.
    beforeEach(() => {
      pp.deps = { ...pp.deps, maxLiveTokens: 3 };
    });
    const full = error('token_limit_reached', { max: 3 });

    it('refuses the one past the cap with 409 token_limit_reached, and nothing is made', async () => {
      expect((await create('ursula', { name: 'third', scopes: ['slots:read'] })).status).toBe(201);
      const refused = await scheduleErrorOf(create('ursula', { name: 'fourth', scopes: ['slots:read'] }));
      expect(refused).toEqual({ ...full, message: 'This person already has 3 live tokens; revoke one before making another.' });
      expect((await call('ursula', 'list_tokens')).outcome.data).toHaveLength(3);
    });

    it('counts neither revoked nor expired tokens: revoking one makes room', async () => {
      const third = (await create('ursula', { name: 'third', scopes: ['slots:read'] })).data as TokenWithSecret;
      await call('ursula', 'revoke_token', { params: { token_id: third.id } });
      const brief = { name: 'brief', scopes: ['slots:read'], expires_at: '2026-06-01T09:30:00Z' };
      expect((await create('ursula', brief)).status).toBe(201);
      expect(await scheduleErrorOf(create('ursula', { name: 'x', scopes: ['slots:read'] }))).toMatchObject(full);
      // At its expiry the token no longer works, so it no longer counts.
      pp.clock.set('2026-06-01T09:30:00.000Z');
      expect((await create('ursula', { name: 'after', scopes: ['slots:read'] })).status).toBe(201);
    });

    it("counts the owner's personal tokens, not the caller's nor an app's grants", async () => {
      // Olga holds one personal token and one OAuth grant: one more fits.
      expect((await create('olga', { name: 'a', scopes: ['slots:read'] })).status).toBe(201);
      expect((await create('olga', { name: 'b', scopes: ['slots:read'] })).status).toBe(201);
      expect(await scheduleErrorOf(create('olga', { name: 'c', scopes: ['slots:read'] }))).toMatchObject(full);
      // Olga, full herself, still makes one for Ursula; the next is Ursula's fourth.
      expect((await create('olga', { name: 'for-u', scopes: ['slots:read'], user_id: 'ursula' })).status).toBe(201);
      expect(await scheduleErrorOf(create('olga', { name: 'for-u2', scopes: ['slots:read'], user_id: 'ursula' }))).toMatchObject(full);
    });

    it('is 100 when not set', async () => {
      pp.deps = testDeps(pp.store, pp.clock);
      expect(MAX_LIVE_TOKENS).toBe(100);
      // Ursula's 2 and 98 more, written in one insert.
      const bulk = Array.from({ length: 98 }, (_, i) => ({
        id: `e0000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
        name: `bulk-${i}`,
        user_id: PP.ursula,
        secret_hash: `hash-${i}`,
        scopes_json: '["slots:read"]',
        oauth_client_id: null,
        created_at: T0,
        expires_at: null,
        revoked_at: null,
      }));
      await pp.store.db.insertInto('tokens').values(bulk).execute();
      expect(await scheduleErrorOf(create('ursula', { name: 'x', scopes: ['slots:read'] }))).toMatchObject(
        error('token_limit_reached', { max: 100 }),
      );
    });
  });

  describe('GET /v1/tokens', () => {
    it("lists the caller's own tokens, oldest first, paged, never a secret", async () => {
      pp.clock.set('2026-06-01T09:01:00.000Z');
      await create('ursula', { name: 'b', scopes: ['slots:read'] });
      const first = (await call('ursula', 'list_tokens', { query: { limit: '2' } })).outcome as ListOutcome;
      // The workspace's two were made at T0, so they come first, in id order.
      expect((first.data as TokenSummary[]).map((t) => t.name).sort()).toEqual(['ursula', 'ursula-bookings']);
      expect(first.page.hasMore).toBe(true);
      const rest = (await call('ursula', 'list_tokens', { query: { cursor: first.page.nextCursor! } })).outcome as ListOutcome;
      expect((rest.data as TokenSummary[]).map((t) => t.name)).toEqual(['b']);
      expect(JSON.stringify([first.data, rest.data])).not.toContain('secret');
      expect(((await call('oscar', 'list_tokens')).outcome.data as TokenSummary[]).map((t) => t.name)).toEqual(['oscar']);
    });

    it('refuses a cursor of another list, such as an unfiltered series list (400 invalid_query_param)', async () => {
      const fromSeries = encodeCursor(queryBinding({}), { value: T0, uid: UNKNOWN });
      expect(await scheduleErrorOf(call('ursula', 'list_tokens', { query: { cursor: fromSeries } }))).toMatchObject(
        error('invalid_query_param', { param: 'cursor' }),
      );
    });

    it("answers another person's token 404 like an unknown one", async () => {
      const mine = (await create('ursula', { name: 'x', scopes: ['slots:read'] })).data as TokenWithSecret;
      for (const id of [mine.id, UNKNOWN, 'not-a-uuid']) {
        expect(await scheduleErrorOf(call('oscar', 'get_token', { params: { token_id: id } }))).toMatchObject(
          error('token_not_found', { id }),
        );
      }
    });
  });

  describe('DELETE /v1/tokens/:id', () => {
    it('revokes at once: the next call with it is refused, even where lookups are cached', async () => {
      const cache = createTokenCache();
      const authenticate = createAuthenticator(pp, { cacheTtlMs: 60_000, cache });
      pp.deps = { ...pp.deps, tokenCache: cache };
      const made = (await create('ursula', { name: 'x', scopes: ['slots:read'] })).data as TokenWithSecret;
      expect((await authenticate(made.secret!))?.account.id).toBe(PP.ursula);
      // Well within the cache's minute, so only the revocation can make the lookup stale.
      pp.clock.set('2026-06-01T09:00:05.000Z');
      const { outcome } = await call('ursula', 'revoke_token', { params: { token_id: made.id } });
      expect(outcome).toMatchObject({ status: 200, data: { id: made.id, revoked_at: '2026-06-01T09:00:05.000Z' } });
      expect(await authenticate(made.secret!)).toBeUndefined();
      // Revoking again answers it unchanged.
      pp.clock.set('2026-06-01T09:06:00.000Z');
      expect((await call('ursula', 'revoke_token', { params: { token_id: made.id } })).outcome.data).toMatchObject({
        revoked_at: '2026-06-01T09:00:05.000Z',
      });
    });

    it("refuses another person's token (404) and leaves it working", async () => {
      const made = (await create('ursula', { name: 'x', scopes: ['slots:read'] })).data as TokenWithSecret;
      expect(await scheduleErrorOf(call('olga', 'revoke_token', { params: { token_id: made.id } }))).toMatchObject(
        error('token_not_found'),
      );
      expect(await createAuthenticator(pp)(made.secret!)).toBeDefined();
    });
  });
});
