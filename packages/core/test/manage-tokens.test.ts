import { describe, expect, it } from 'vitest';
import { createToken, listTokens, revokeToken } from '../src/auth/manage-tokens.js';
import { SCOPES } from '../src/auth/scopes.js';
import { randomIds } from '../src/ids.js';
import { scheduleErrorOf } from './support/errors.js';
import { PP, PP_T0, peopleSuite } from './support/people-calls.js';
import { storeFixtures } from './support/stores.js';

// The operator's tokens on the server's database (`schedule tokens`,
// auth/manage-tokens.ts): any user, named by username or id, and a token
// revoked by id or name. On SQLite and PostgreSQL.

const refusal = (code: string, message: string, details: Record<string, unknown>) => ({
  code,
  message,
  details,
  retryAfterSeconds: undefined,
});
const BAD_SCOPES = refusal('validation_error', `Scopes must be some of: ${SCOPES.join(', ')}.`, { fields: ['scopes'] });

describe.each(storeFixtures())('operator tokens on $name', (fixture) => {
  const pp = peopleSuite(fixture);
  const make = (user: string, scopes: string[], name = 'ops') =>
    createToken(pp.store.db, { clock: pp.clock, ids: randomIds }, { user, name, scopes: scopes as (typeof SCOPES)[number][] });

  it('makes a token for a user named by username or by id in any case', async () => {
    const byName = await make('ursula', ['slots:read']);
    const byId = await make(PP.ursula.toUpperCase(), ['slots:read', 'slots:read']);
    expect(byName.token).toEqual({
      id: byName.token.id,
      name: 'ops',
      user: { user_id: PP.ursula, username: 'ursula' },
      scopes: ['slots:read'],
      kind: 'pat',
      created_at: PP_T0,
      expires_at: null,
      revoked_at: null,
    });
    expect(byId.token.user).toEqual({ user_id: PP.ursula, username: 'ursula' });
    expect(byId.token.scopes).toEqual(['slots:read']);
  });

  it('refuses an unknown user with not_found naming them', async () => {
    expect(await scheduleErrorOf(make('nobody', ['slots:read']))).toEqual(refusal('not_found', 'No user "nobody".', { user: 'nobody' }));
  });

  it('refuses an unknown scope, and no scope at all', async () => {
    expect(await scheduleErrorOf(make('ursula', ['slots:read', 'nope']))).toEqual(BAD_SCOPES);
    expect(await scheduleErrorOf(make('ursula', []))).toEqual(BAD_SCOPES);
  });

  it("lists every user's tokens, an app's as kind oauth", async () => {
    const kinds = Object.fromEntries((await listTokens(pp.store.db)).map((t) => [t.name, t.kind]));
    expect(kinds).toMatchObject({ olga: 'pat', 'olga-app': 'oauth', ursula: 'pat' });
  });

  it('revokes by id in any case or by name, and refuses an unknown or ambiguous name', async () => {
    const a = (await make('ursula', ['slots:read'], 'twin')).token;
    await make('oscar', ['slots:read'], 'twin');
    const clock = { clock: pp.clock };
    expect(await scheduleErrorOf(revokeToken(pp.store.db, clock, 'twin'))).toEqual(
      refusal('validation_error', 'More than one token is named "twin"; give its id.', { fields: ['token'] }),
    );
    expect(await scheduleErrorOf(revokeToken(pp.store.db, clock, 'nothing'))).toEqual(
      refusal('not_found', 'No token "nothing".', { token: 'nothing' }),
    );
    expect(await revokeToken(pp.store.db, clock, a.id.toUpperCase())).toEqual({ ...a, revoked_at: PP_T0 });
    expect((await revokeToken(pp.store.db, clock, 'mia')).revoked_at).toBe(PP_T0);
    const revoked = (await listTokens(pp.store.db)).filter((t) => t.revoked_at !== null).map((t) => t.name);
    expect(revoked.sort()).toEqual(['mia', 'twin']);
  });
});
