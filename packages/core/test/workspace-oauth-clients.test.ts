import { afterAll, describe, expect, it } from 'vitest';
import { manualClock } from '../src/clock.js';
import { ScheduleError } from '../src/errors.js';
import { randomIds } from '../src/ids.js';
import { createOAuthClient, listOAuthClients } from '../src/oauth/oauth-clients.js';
import { upsertRecord } from '../src/oauth/oauth-records.js';
import type { Store } from '../src/storage/store.js';
import { loadWorkspace } from '../src/workspace/load-workspace.js';
import { parseWorkspace, WorkspaceError } from '../src/workspace/parse-workspace.js';
import { storeFixtures } from './support/stores.js';

// Issue 15: a workspace file may pre-register public OAuth clients
// (`oauth_clients[]`). Each is stored as the Client row the CLI makes, is
// updated when its entry changes, and is left exactly as it was when the
// same file is loaded again. The CLI's own registration words its
// refusals field by field.

const T0 = '2026-05-01T08:00:00.000Z';
const T0_SECONDS = Date.parse(T0) / 1000;

const DESKTOP = { client_id: 'desktop-app', client_name: 'Desktop app', redirect_uris: ['http://127.0.0.1/callback'] };
const PORTAL = {
  client_id: 'portal.web_1',
  client_name: 'Portal',
  redirect_uris: ['https://portal.example/cb', 'https://portal.example/cb2'],
};

async function problemsOf(work: () => unknown): Promise<readonly string[]> {
  try {
    await work();
  } catch (error) {
    if (error instanceof WorkspaceError) return error.problems;
    throw error;
  }
  throw new Error('expected a WorkspaceError, but the workspace was accepted');
}

function load(store: Store, workspace: object, clock = manualClock(T0)) {
  return loadWorkspace({ store, clock, ids: randomIds }, parseWorkspace(JSON.stringify(workspace)));
}

async function clientRows(store: Store) {
  return store.db.selectFrom('oauth_records').selectAll().where('model', '=', 'Client').orderBy('id').execute();
}

describe('parseWorkspace: oauth_clients', () => {
  it('defaults to none', () => {
    expect(parseWorkspace('{}').oauth_clients).toEqual([]);
  });

  it('names each bad field of an entry by its path', async () => {
    const text = JSON.stringify({
      oauth_clients: [
        { client_id: 'has space', client_name: '', redirect_uris: ['not a url'] },
        { client_id: 'x'.repeat(101), client_name: 'Long', redirect_uris: [] },
        { client_name: 'No id' },
      ],
    });
    expect(await problemsOf(() => parseWorkspace(text))).toEqual([
      'oauth_clients[0].client_id: must be 1 to 100 letters, digits, dot, dash or underscore',
      'oauth_clients[0].client_name: Too small: expected string to have >=1 characters',
      'oauth_clients[0].redirect_uris[0]: Invalid URL',
      'oauth_clients[1].client_id: must be 1 to 100 letters, digits, dot, dash or underscore',
      'oauth_clients[1].redirect_uris: Too small: expected array to have >=1 items',
      'oauth_clients[2].client_id: Invalid input: expected string, received undefined',
      'oauth_clients[2].redirect_uris: Invalid input: expected array, received undefined',
    ]);
  });
});

describe.each(storeFixtures())('loadWorkspace: oauth_clients on $name', (fixture) => {
  afterAll(() => fixture.cleanup());

  it('stores each client as the CLI registers a public one, and reports how many the file has', async () => {
    const store = await fixture.open();
    const report = await load(store, { oauth_clients: [DESKTOP, PORTAL] });
    expect(report.oauthClients).toBe(2);
    const rows = await clientRows(store);
    expect(rows.map((r) => ({ ...r, payload_json: JSON.parse(r.payload_json) }))).toEqual([
      {
        model: 'Client',
        id: 'desktop-app',
        payload_json: {
          client_id: 'desktop-app',
          client_name: 'Desktop app',
          redirect_uris: ['http://127.0.0.1/callback'],
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
          application_type: 'native',
          token_endpoint_auth_method: 'none',
          registered_by: 'operator',
          client_id_issued_at: T0_SECONDS,
        },
        grant_id: null,
        uid: null,
        account_id: null,
        client_id: 'desktop-app',
        expires_at: null,
        consumed_at: null,
      },
      {
        model: 'Client',
        id: 'portal.web_1',
        payload_json: {
          client_id: 'portal.web_1',
          client_name: 'Portal',
          redirect_uris: ['https://portal.example/cb', 'https://portal.example/cb2'],
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
          application_type: 'web',
          token_endpoint_auth_method: 'none',
          registered_by: 'operator',
          client_id_issued_at: T0_SECONDS,
        },
        grant_id: null,
        uid: null,
        account_id: null,
        client_id: 'portal.web_1',
        expires_at: null,
        consumed_at: null,
      },
    ]);
    // Listed as the CLI lists the clients it registers.
    expect(await listOAuthClients(store.db)).toEqual([
      {
        client_id: 'desktop-app',
        client_name: 'Desktop app',
        redirect_uris: ['http://127.0.0.1/callback'],
        kind: 'public',
        registered: 'operator',
        created_at: T0,
        grants: [],
      },
      {
        client_id: 'portal.web_1',
        client_name: 'Portal',
        redirect_uris: ['https://portal.example/cb', 'https://portal.example/cb2'],
        kind: 'public',
        registered: 'operator',
        created_at: T0,
        grants: [],
      },
    ]);
  });

  it('leaves the rows exactly as they were when the same file is loaded again later', async () => {
    const store = await fixture.open();
    const clock = manualClock(T0);
    await load(store, { oauth_clients: [DESKTOP, PORTAL] }, clock);
    const before = await clientRows(store);
    clock.advance(3_600_000);
    await load(store, { oauth_clients: [DESKTOP, PORTAL] }, clock);
    expect(await clientRows(store)).toEqual(before);
  });

  it('updates a changed entry in place, keeping when it was first registered, and leaves the others alone', async () => {
    const store = await fixture.open();
    const clock = manualClock(T0);
    await load(store, { oauth_clients: [DESKTOP, PORTAL] }, clock);
    const before = await clientRows(store);
    clock.advance(3_600_000);
    const changed = { ...PORTAL, client_name: 'Customer portal', redirect_uris: ['https://portal.example/oauth'] };
    await load(store, { oauth_clients: [DESKTOP, changed] }, clock);

    const after = await clientRows(store);
    expect(after[0]).toEqual(before[0]);
    expect(JSON.parse(after[1]!.payload_json)).toEqual({
      ...JSON.parse(before[1]!.payload_json),
      client_name: 'Customer portal',
      redirect_uris: ['https://portal.example/oauth'],
      client_id_issued_at: T0_SECONDS,
    });
  });

  it('keeps a client the file no longer names', async () => {
    const store = await fixture.open();
    await load(store, { oauth_clients: [DESKTOP, PORTAL] });
    await load(store, { oauth_clients: [PORTAL] });
    expect((await clientRows(store)).map((r) => r.id)).toEqual(['desktop-app', 'portal.web_1']);
  });

  it('refuses an id given twice, and writes nothing', async () => {
    const store = await fixture.open();
    const workspace = { users: [{ username: 'alice', email: 'alice@acme.test' }], oauth_clients: [DESKTOP, PORTAL, DESKTOP] };
    expect(await problemsOf(() => load(store, workspace))).toEqual(['oauth_clients[2].client_id: "desktop-app" appears twice']);
    expect(await clientRows(store)).toEqual([]);
    expect(await store.db.selectFrom('users').selectAll().execute()).toEqual([]);
  });

  it('refuses the id of a confidential client or of one an app registered itself, and leaves them as they were', async () => {
    const store = await fixture.open();
    const clock = manualClock(T0);
    const { client_id: confidentialId } = await createOAuthClient(
      store.db,
      { clock },
      {
        client_name: 'Back office',
        redirect_uris: ['https://office.example/cb'],
        confidential: true,
      },
    );
    await upsertRecord({ db: store.db, clock }, 'Client', 'dyn-1', { client_id: 'dyn-1', token_endpoint_auth_method: 'none' }, undefined);
    const before = await clientRows(store);

    const workspace = {
      oauth_clients: [
        { ...DESKTOP, client_id: confidentialId },
        { ...PORTAL, client_id: 'dyn-1' },
      ],
    };
    expect(await problemsOf(() => load(store, workspace, clock))).toEqual([
      `oauth_clients[0].client_id: "${confidentialId}" is a client registered otherwise (confidential, or by the app itself)`,
      'oauth_clients[1].client_id: "dyn-1" is a client registered otherwise (confidential, or by the app itself)',
    ]);
    expect(await clientRows(store)).toEqual(before);
  });

  it('updates a public client the CLI registered when the file names its id', async () => {
    const store = await fixture.open();
    const clock = manualClock(T0);
    const { client_id: clientId } = await createOAuthClient(
      store.db,
      { clock },
      { client_name: 'Old', redirect_uris: ['https://a.example/cb'] },
    );
    clock.advance(60_000);
    await load(store, { oauth_clients: [{ ...PORTAL, client_id: clientId }] }, clock);
    const [row] = await clientRows(store);
    expect(JSON.parse(row!.payload_json)).toMatchObject({
      client_name: 'Portal',
      redirect_uris: PORTAL.redirect_uris,
      client_id_issued_at: T0_SECONDS,
    });
  });
});

describe.each(storeFixtures())('createOAuthClient refusals on $name', (fixture) => {
  afterAll(() => fixture.cleanup());

  it('words each bad field as `field: rule`, listing the fields in its details, and registers nothing', async () => {
    const store = await fixture.open();
    let refusal: unknown;
    try {
      await createOAuthClient(store.db, { clock: manualClock(T0) }, { client_name: '', redirect_uris: ['https://ok.example/cb', 'nope'] });
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(ScheduleError);
    const { code, message, details } = refusal as ScheduleError;
    expect({ code, message, details }).toEqual({
      code: 'validation_error',
      message: 'client_name: Too small: expected string to have >=1 characters; redirect_uris.1: Invalid URL',
      details: { fields: ['client_name', 'redirect_uris.1'] },
    });
    expect(await clientRows(store)).toEqual([]);
  });
});
