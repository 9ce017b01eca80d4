import { afterAll, describe, expect, it } from 'vitest';
import { createAuthenticator, forResource } from '../src/auth/authenticate.js';
import { hashSecret } from '../src/auth/token-secret.js';
import { manualClock } from '../src/clock.js';
import { randomIds } from '../src/ids.js';
import { createOAuthClient } from '../src/oauth/oauth-clients.js';
import {
  consumeRecord,
  destroyRecord,
  findRecord,
  findRecordByUid,
  purgeExpiredRecords,
  revokeGrantRecords,
  UNUSED_CLIENT_SECONDS,
  upsertRecord,
} from '../src/oauth/oauth-records.js';
import { checkPassword, hashPassword, setPassword, verifyPassword } from '../src/oauth/passwords.js';
import { sharedSecret } from '../src/oauth/server-secrets.js';
import { loadWorkspace } from '../src/workspace/load-workspace.js';
import { parseWorkspace } from '../src/workspace/parse-workspace.js';
import { ALICE, organization } from './support/organization.js';
import { storeFixtures } from './support/stores.js';

// Issue 15: the authorization server keeps its state in core's tables, on
// both databases, and a bearer secret it issued authenticates like a PAT.

const API = 'https://schedule.example';
const MCP = 'https://schedule.example/mcp';
const ACCESS = 'Zk3rJ0nq8qkS0Zb0n3ZbYk1cGxQm7oJk4e1mF2s3t4u';

for (const fixture of storeFixtures()) {
  describe(`oauth records on ${fixture.name}`, () => {
    afterAll(() => fixture.cleanup());

    async function open() {
      const store = await fixture.open();
      const clock = manualClock('2026-02-01T12:00:00.000Z');
      await loadWorkspace({ store, clock, ids: randomIds }, parseWorkspace(JSON.stringify(organization())));
      return { store, clock, deps: { db: store.db, clock } };
    }

    it('keeps a secret only as its digest, without its jti, and gives the jti back on reading', async () => {
      const { store, deps } = await open();
      await upsertRecord(deps, 'AccessToken', ACCESS, { jti: ACCESS, accountId: ALICE, grantId: 'g1', scope: 'bookings:read' }, 900);
      const rows = await store.db.selectFrom('oauth_records').selectAll().execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]?.id).toBe(hashSecret(ACCESS));
      expect(JSON.stringify(rows)).not.toContain(ACCESS);
      expect(rows[0]).toMatchObject({ model: 'AccessToken', grant_id: 'g1', account_id: ALICE, consumed_at: null });
      expect(await findRecord(deps, 'AccessToken', ACCESS)).toEqual({
        accountId: ALICE,
        grantId: 'g1',
        scope: 'bookings:read',
        jti: ACCESS,
      });
      expect(await findRecord(deps, 'AccessToken', 'another')).toBeUndefined();
    });

    it('keeps clients and grants under their own ids, so they can be listed and revoked', async () => {
      const { store, deps } = await open();
      await upsertRecord(deps, 'Client', 'app_1', { client_id: 'app_1', client_name: 'One' }, undefined);
      await upsertRecord(deps, 'Grant', 'g1', { jti: 'g1', accountId: ALICE, clientId: 'app_1' }, 3600);
      const ids = (await store.db.selectFrom('oauth_records').select(['model', 'id', 'client_id']).orderBy('model').execute()).map((r) => ({
        ...r,
      }));
      expect(ids).toEqual([
        { model: 'Client', id: 'app_1', client_id: 'app_1' },
        { model: 'Grant', id: 'g1', client_id: 'app_1' },
      ]);
    });

    it('forgets what expired, and replaces on upsert', async () => {
      const { store, clock, deps } = await open();
      await upsertRecord(deps, 'AuthorizationCode', 'code-1', { jti: 'code-1', grantId: 'g1' }, 60);
      await upsertRecord(deps, 'AuthorizationCode', 'code-1', { jti: 'code-1', grantId: 'g2' }, 60);
      expect((await findRecord(deps, 'AuthorizationCode', 'code-1'))?.grantId).toBe('g2');
      clock.advance(60_000);
      expect(await findRecord(deps, 'AuthorizationCode', 'code-1')).toBeUndefined();
      expect(await purgeExpiredRecords(deps)).toBe(1);
      expect(await store.db.selectFrom('oauth_records').select('id').execute()).toEqual([]);
    });

    it('marks a code used, so the library can tell a replay', async () => {
      const { clock, deps } = await open();
      await upsertRecord(deps, 'AuthorizationCode', 'code-2', { jti: 'code-2', grantId: 'g1' }, 60);
      clock.advance(5_000);
      await consumeRecord(deps, 'AuthorizationCode', 'code-2');
      expect((await findRecord(deps, 'AuthorizationCode', 'code-2'))?.consumed).toBe(Math.floor(clock.now() / 1000));
      await destroyRecord(deps, 'AuthorizationCode', 'code-2');
      expect(await findRecord(deps, 'AuthorizationCode', 'code-2')).toBeUndefined();
    });

    it('finds a session by its uid, and ends a grant with everything issued under it', async () => {
      const { store, deps } = await open();
      await upsertRecord(deps, 'Session', 'sess-cookie', { jti: 'sess-cookie', uid: 'u-1', accountId: ALICE }, 600);
      expect((await findRecordByUid(deps, 'Session', 'u-1'))?.accountId).toBe(ALICE);
      await upsertRecord(deps, 'Grant', 'g9', { jti: 'g9', accountId: ALICE, clientId: 'c' }, 3600);
      await upsertRecord(deps, 'AccessToken', 'a9', { jti: 'a9', grantId: 'g9', accountId: ALICE }, 900);
      await upsertRecord(deps, 'RefreshToken', 'r9', { jti: 'r9', grantId: 'g9', accountId: ALICE }, 9000);
      await upsertRecord(deps, 'AccessToken', 'other', { jti: 'other', grantId: 'g8', accountId: ALICE }, 900);
      await revokeGrantRecords(store.db, 'g9');
      const left = (await store.db.selectFrom('oauth_records').select('model').orderBy('model').execute()).map((r) => r.model);
      expect(left).toEqual(['AccessToken', 'Session']);
    });

    it('authenticates an issued access token as its account, with its scopes and resource, until it expires', async () => {
      const { clock, deps, store } = await open();
      await upsertRecord(
        deps,
        'AccessToken',
        ACCESS,
        { jti: ACCESS, accountId: ALICE, clientId: 'app_1', grantId: 'g1', scope: 'bookings:read offline_access slots:read', aud: MCP },
        900,
      );
      const authenticate = createAuthenticator({ store, clock });
      const principal = await authenticate(ACCESS);
      expect(principal?.account.id).toBe(ALICE);
      expect(principal?.credential).toEqual({ kind: 'oauth', clientId: 'app_1', resource: MCP });
      // offline_access is the library's; only api.md's scopes grant anything here.
      expect([...(principal?.scopes ?? [])].sort()).toEqual(['bookings:read', 'slots:read']);
      expect(await forResource(authenticate, MCP)(ACCESS)).toBeDefined();
      expect(await forResource(authenticate, API)(ACCESS)).toBeUndefined();
      clock.advance(900_000);
      expect(await authenticate(ACCESS)).toBeUndefined();
    });

    it('authenticates an access token that names no client and no scope with an empty client id and no scope', async () => {
      const { clock, deps, store } = await open();
      await upsertRecord(deps, 'AccessToken', ACCESS, { jti: ACCESS, accountId: ALICE, grantId: 'g1' }, 900);
      const principal = await createAuthenticator({ store, clock })(ACCESS);
      expect(principal?.credential).toEqual({ kind: 'oauth', clientId: '' });
      expect(principal?.scopes).toEqual(new Set());
    });

    it('refuses an access token of a deactivated account, as its PATs are (docs/api/people.md)', async () => {
      const { clock, deps, store } = await open();
      await upsertRecord(deps, 'AccessToken', ACCESS, { jti: ACCESS, accountId: ALICE, grantId: 'g1', scope: 'slots:read' }, 900);
      const authenticate = createAuthenticator({ store, clock });
      expect(await authenticate(ACCESS)).toBeDefined();
      await store.db.updateTable('users').set({ deactivated_at: '2026-02-01T12:00:00.000Z' }).where('id', '=', ALICE).execute();
      expect(await authenticate(ACCESS)).toBeUndefined();
    });

    it('deletes a self-registered client no host has a grant for once it is 30 days old; a granted one and the operator’s stay', async () => {
      const { store, clock, deps } = await open();
      // What the library stores for a registration (RFC 7591): the issue time in epoch seconds, and its registration access token.
      const register = async (id: string) => {
        await upsertRecord(deps, 'Client', id, { client_id: id, client_id_issued_at: Math.floor(clock.now() / 1000) }, undefined);
        await upsertRecord(deps, 'RegistrationAccessToken', `rat-${id}`, { jti: `rat-${id}`, clientId: id }, undefined);
      };
      await register('unused');
      await register('granted');
      await register('later');
      // A record whose issue time is not epoch seconds cannot be told old: it is kept.
      await upsertRecord(deps, 'Client', 'undated', { client_id: 'undated', client_id_issued_at: '0' }, undefined);
      await upsertRecord(deps, 'Grant', 'g-granted', { jti: 'g-granted', accountId: ALICE, clientId: 'granted' }, 365 * 86_400);
      // A grant that ends (it expires, or the host revokes it) leaves its client unused from then on.
      await upsertRecord(deps, 'Grant', 'g-later', { jti: 'g-later', accountId: ALICE, clientId: 'later' }, UNUSED_CLIENT_SECONDS + 3600);
      const operator = await createOAuthClient(
        store.db,
        { clock },
        { client_name: 'Operator app', redirect_uris: ['https://op.example/cb'] },
      );
      const clients = async () =>
        (await store.db.selectFrom('oauth_records').select('id').where('model', '=', 'Client').orderBy('id').execute()).map((r) => r.id);

      clock.advance(UNUSED_CLIENT_SECONDS * 1000 - 1000);
      expect(await purgeExpiredRecords(deps)).toBe(0);
      expect(await clients()).toEqual([operator.client_id, 'granted', 'later', 'undated', 'unused'].sort());

      clock.advance(1000);
      // The client and its registration access token.
      expect(await purgeExpiredRecords(deps)).toBe(2);
      expect(await clients()).toEqual([operator.client_id, 'granted', 'later', 'undated'].sort());
      expect(await findRecord(deps, 'RegistrationAccessToken', 'rat-unused')).toBeUndefined();
      expect(await findRecord(deps, 'RegistrationAccessToken', 'rat-granted')).toBeDefined();

      // An hour on, the other grant expires: it and its client go in the same pass.
      clock.advance(3600 * 1000);
      expect(await purgeExpiredRecords(deps)).toBe(3);
      expect(await clients()).toEqual([operator.client_id, 'granted', 'undated'].sort());

      // The operator's client is kept however old and unused it is.
      clock.advance(10 * UNUSED_CLIENT_SECONDS * 1000);
      await revokeGrantRecords(store.db, 'g-granted');
      await purgeExpiredRecords(deps);
      expect(await clients()).toEqual([operator.client_id, 'undated'].sort());
    });

    it('shares one secret between processes: the first to ask makes it', async () => {
      const { deps, store } = await open();
      const first = await sharedSecret(store.db, deps, 'k', () => 'made-first');
      const second = await sharedSecret(store.db, deps, 'k', () => 'made-second');
      expect([first, second]).toEqual(['made-first', 'made-first']);
    });

    it('signs a user in with the password set for them, and only with it', async () => {
      const { store, clock } = await open();
      await setPassword(store.db, { clock }, 'alice', 'correct horse battery');
      expect(await checkPassword(store.db, 'alice', 'correct horse battery')).toBe(ALICE);
      expect(await checkPassword(store.db, 'alice', 'correct horse batterz')).toBeUndefined();
      expect(await checkPassword(store.db, 'nobody', 'correct horse battery')).toBeUndefined();
      // A user without a password cannot sign in, whatever is typed.
      expect(await checkPassword(store.db, 'ursula', '')).toBeUndefined();
      await expect(setPassword(store.db, { clock }, 'alice', 'short')).rejects.toMatchObject({ code: 'validation_error' });
      await expect(setPassword(store.db, { clock }, 'nobody', 'long enough pass')).rejects.toMatchObject({ code: 'not_found' });
    });
  });
}

describe('password hashes', () => {
  it('are salted scrypt, and verify only the password they were made from', async () => {
    const a = await hashPassword('pässword-NFC');
    const b = await hashPassword('pässword-NFC');
    expect(a).toMatch(/^scrypt\$32768\$8\$[\w-]{22}\$[\w-]{43}$/);
    expect(a).not.toBe(b);
    // The same word typed as decomposed characters is the same password.
    expect(await verifyPassword('pa\u0308ssword-NFC', a)).toBe(true);
    expect(await verifyPassword('password-NFC', a)).toBe(false);
    expect(await verifyPassword('pässword-NFC', 'md5$abc')).toBe(false);
  });
});
