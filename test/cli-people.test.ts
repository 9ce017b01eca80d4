import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliModes, expectSameInBothModes, MODE_NAMES, startCliModes } from './support/cli-modes.js';
import { failure, jsonOf, objectLines, success } from './support/cli-run.js';

// `schedule people …` and `schedule people tokens …` as the real binary,
// embedded (`--db`) and remote (`--api-url`), checked against what the HTTP
// API answers on the same database (docs/api/people.md).

const USERS = {
  olga: 'c8000000-0000-4000-8000-000000000001',
  ada: 'c8000000-0000-4000-8000-000000000002',
  uma: 'c8000000-0000-4000-8000-000000000003',
} as const;
const EVERY = ['people:write', 'tokens:read', 'tokens:write', 'slots:read', 'bookings:read'];
const TOKENS = { ada: 'cli-people-secret-ada-all', uma: 'cli-people-secret-uma-all' } as const;

const workspace = {
  organization: { name: 'CLI People' },
  limits: { pat_per_minute: 10_000 },
  users: [
    { id: USERS.olga, username: 'olga', email: 'olga@cli-people.test', name: 'Olga', role: 'owner' },
    { id: USERS.ada, username: 'ada', email: 'ada@cli-people.test', name: 'Ada', role: 'admin' },
    { id: USERS.uma, username: 'uma', email: 'uma@cli-people.test', name: 'Uma', role: 'user' },
  ],
  tokens: [
    { name: 'ada', user: 'ada', secret: TOKENS.ada, scopes: EVERY },
    { name: 'uma', user: 'uma', secret: TOKENS.uma, scopes: EVERY },
  ],
};

let modes: CliModes;

beforeAll(async () => {
  modes = await startCliModes(workspace, TOKENS.ada);
});
afterAll(() => modes?.stop());

describe('schedule people', () => {
  it('get prints the person as the API answers them, piped as key<TAB>value lines', async () => {
    const runs = await modes.both(['people', 'get', 'uma']);
    for (const name of MODE_NAMES) expect(runs[name]).toEqual(success(objectLines(await modes[name].get(`/v1/people/${USERS.uma}`))));
    expectSameInBothModes(modes, runs);
  });

  it('create, update (If-Match read first), deactivate and reactivate a person, the API seeing each', async () => {
    const created = await modes.both([
      'people',
      'create',
      '--username',
      'bea',
      '--email',
      'bea@cli-people.test',
      '--name',
      'Bea',
      '--json',
    ]);
    expectSameInBothModes(modes, created);
    for (const name of MODE_NAMES) {
      const bea = jsonOf(created[name]);
      expect(bea).toMatchObject({ username: 'bea', role: 'user', timezone: 'UTC', version: 1 });
      expect(await modes[name].get(`/v1/people/${bea.user_id}`)).toEqual(bea);
    }
    const updated = await modes.both([
      'people',
      'update',
      'bea',
      '--timezone',
      'Europe/Paris',
      '--role',
      'manager',
      '--manages',
      'uma',
      '--json',
    ]);
    expectSameInBothModes(modes, updated);
    for (const name of MODE_NAMES) {
      expect(jsonOf(updated[name])).toMatchObject({ timezone: 'Europe/Paris', role: 'manager', manages: [USERS.uma], version: 2 });
    }
    const stale = await modes.both(['people', 'update', 'bea', '--name', 'B', '--if-match', '1']);
    expectSameInBothModes(modes, stale);
    expect(stale.remote).toMatchObject({ code: failure(5, 'version_conflict', '').code });

    // deactivated_at is each database's own write time, so the two modes are compared field by field.
    const off = await modes.both(['people', 'deactivate', 'bea', '--json']);
    for (const name of MODE_NAMES) {
      expect(jsonOf(off[name])).toMatchObject({ username: 'bea', version: 3, deactivated_at: expect.stringMatching(/^2\d{3}-/) });
    }
    const on = await modes.both(['people', 'reactivate', 'bea', '--json']);
    for (const name of MODE_NAMES) expect(jsonOf(on[name])).toMatchObject({ deactivated_at: null, version: 4 });
  });

  it("refuses a user's role change with the API's 403 forbidden, exit 4", async () => {
    const runs = await modes.both(['people', 'update', 'me', '--role', 'admin'], { token: TOKENS.uma });
    expectSameInBothModes(modes, runs);
    expect(runs.remote.code).toBe(4);
    expect(runs.remote.stderr).toMatch(/^error forbidden: Only admins and owners may change roles and managers\./);
  });
});

describe('schedule people tokens', () => {
  it('create prints the secret once; it works as a token; list and revoke', async () => {
    const runs = await modes.both(['people', 'tokens', 'create', '--name', 'laptop', '--scope', 'slots:read', '--json'], {
      token: TOKENS.uma,
    });
    for (const name of MODE_NAMES) {
      const token = jsonOf(runs[name]);
      expect(token).toMatchObject({ name: 'laptop', scopes: ['slots:read'], user: { username: 'uma' } });
      expect(token.secret).toMatch(/^pat_/);
      const me = await modes[name].get('/v1/me', token.secret);
      expect(me).toMatchObject({ username: 'uma', scopes: ['slots:read'] });

      const list = await modes[name].run(['people', 'tokens', 'list', '--json'], { token: TOKENS.uma });
      expect(jsonOf(list).map((t: { name: string }) => t.name)).toEqual(['uma', 'laptop']);
      expect(list.stdout).not.toContain(token.secret);

      const revoked = await modes[name].run(['people', 'tokens', 'revoke', token.id, '--json'], { token: TOKENS.uma });
      expect(jsonOf(revoked).revoked_at).not.toBeNull();
      const after = await modes[name].run(['whoami'], { token: token.secret });
      expect(after.code).toBe(4);
    }
  });

  it('an admin onboards a person with CLI commands only: add them, then give them a first token', async () => {
    for (const name of MODE_NAMES) {
      const mode = modes[name];
      expect((await mode.run(['people', 'create', '--username', 'carl', '--email', 'carl@cli-people.test', '--name', 'Carl'])).code).toBe(
        0,
      );
      const first = jsonOf(
        await mode.run(['people', 'tokens', 'create', '--user', 'carl', '--name', 'first', '--scope', 'slots:read', '--json']),
      );
      expect(first.user.username).toBe('carl');
      expect(await mode.get('/v1/me', first.secret)).toMatchObject({ username: 'carl' });
    }
  });
});
