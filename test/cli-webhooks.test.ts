import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliModes, MODE_NAMES, type PerMode, startCliModes } from './support/cli-modes.js';
import { type CliRun, failure, jsonOf, objectLines, success, tsv } from './support/cli-run.js';

// `schedule webhooks …` as the real binary, piped, embedded (`--db`) and
// remote (`--api-url`), asserting stdout, stderr and exit code against what
// the HTTP API answers on the same database; the two modes must print the
// same but for ids, times and each webhook's own secret.

const USERS = { ann: 'c7000000-0000-4000-8000-000000000001', ben: 'c7000000-0000-4000-8000-000000000002' } as const;
const TOKENS = { ann: 'cli-hooks-secret-ann-rw', ben: 'cli-hooks-secret-ben-rw' } as const;

const workspace = {
  organization: { name: 'CLI Hooks' },
  limits: { pat_per_minute: 10_000 },
  users: [
    { id: USERS.ann, username: 'ann', email: 'ann@cli-hooks.test', name: 'Ann', role: 'user' },
    { id: USERS.ben, username: 'ben', email: 'ben@cli-hooks.test', name: 'Ben', role: 'user' },
  ],
  tokens: [
    { name: 'ann', user: 'ann', secret: TOKENS.ann, scopes: ['webhooks:read', 'webhooks:write'] },
    { name: 'ben', user: 'ben', secret: TOKENS.ben, scopes: ['webhooks:read', 'webhooks:write'] },
  ],
};

const TARGET = 'https://crm.cli-hooks.test/in';
const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;

let modes: CliModes;

beforeAll(async () => {
  modes = await startCliModes(workspace, TOKENS.ann);
});
afterAll(() => modes?.stop());

/** Both runs alike once ids, times (a delivery's due time too), the mode and the secrets are replaced. */
function expectAlike(runs: PerMode<CliRun>): void {
  const shown = (name: 'embedded' | 'remote') => ({
    code: runs[name].code,
    stdout: modes[name]
      .normalize(runs[name].stdout)
      .replace(/whsec_[A-Za-z0-9+/]{43}=/g, '<secret>')
      .replace(/"next_attempt_at": "[^"]+"/g, '"next_attempt_at": "<due>"'),
    stderr: modes[name].normalize(runs[name].stderr),
  });
  expect(shown('embedded')).toEqual(shown('remote'));
}

const createArgs = (...more: string[]) => ['webhooks', 'create', '--url', TARGET, '--events', 'booking.created,booking.canceled', ...more];

describe('schedule webhooks', () => {
  const made: PerMode<Record<string, any>> = { embedded: {}, remote: {} };

  it('create --json prints the webhook with its secret; GET answers the same but the secret', async () => {
    const runs = await modes.both(createArgs('--description', 'CRM', '--json'));
    for (const name of MODE_NAMES) {
      const data = jsonOf(runs[name]);
      expect(runs[name].stderr).toBe('');
      expect(data.secret).toMatch(SECRET);
      const { secret: _, ...view } = data;
      expect(await modes[name].get(`/v1/webhooks/${data.id}`)).toEqual(view);
      expect(view).toMatchObject({ url: TARGET, events: ['booking.created', 'booking.canceled'], description: 'CRM', version: 1 });
      made[name] = data;
    }
    expectAlike(runs);
  });

  it('create piped prints key<TAB>value lines, the secret among them', async () => {
    const runs = await modes.both(createArgs());
    for (const name of MODE_NAMES) {
      const id = /^id\t(.+)$/m.exec(runs[name].stdout)?.[1] ?? '';
      const secret = /^secret\t(.+)$/m.exec(runs[name].stdout)?.[1] ?? '';
      expect(secret).toMatch(SECRET);
      expect(runs[name]).toEqual(success(objectLines({ ...(await modes[name].get(`/v1/webhooks/${id}`)), secret })));
    }
    expectAlike(runs);
  });

  it('list --json prints the API’s items, newest first, without secrets; piped, one line per webhook', async () => {
    const runs = await modes.both(['webhooks', 'list', '--json']);
    for (const name of MODE_NAMES) {
      const items = await modes[name].getAll('/v1/webhooks?limit=100');
      expect(items).toHaveLength(2);
      expect(runs[name]).toEqual(success(`${JSON.stringify(items, null, 2)}\n`));
      const piped = await modes[name].run(['webhooks', 'list']);
      expect(piped).toEqual(
        success(tsv(items.map((w) => [w.id, w.status, w.url, w.events.join(','), w.consecutive_failures, w.description]))),
      );
    }
    expectAlike(runs);
  });

  it('shows nothing of another account’s: ben lists none, and get answers exit 3 webhook_not_found', async () => {
    const runs = await modes.both(['webhooks', 'list', '--json'], { token: TOKENS.ben });
    for (const name of MODE_NAMES) expect(runs[name]).toEqual(success('[]\n'));
    const got = await modes.both((m) => ['webhooks', 'get', made[m.name].id], { token: TOKENS.ben });
    for (const name of MODE_NAMES) expect(got[name]).toEqual(failure(3, 'webhook_not_found', 'No webhook with this id.'));
  });

  it('refuses a loopback --url with exit 2, naming the flag', async () => {
    const runs = await modes.both(['webhooks', 'create', '--url', 'http://127.0.0.1:9/', '--events', 'booking.created']);
    for (const name of MODE_NAMES) {
      expect(runs[name]).toEqual(
        failure(
          2,
          'validation_error',
          '--url: must not name a private, loopback or link-local address (the server allows them only with WEBHOOK_ALLOW_PRIVATE_TARGETS=1).',
        ),
      );
    }
  });

  it('update --status paused reads the version itself and prints the paused webhook at version 2', async () => {
    const runs = await modes.both((m) => ['webhooks', 'update', made[m.name].id, '--status', 'paused', '--json']);
    for (const name of MODE_NAMES) {
      expect(jsonOf(runs[name])).toEqual(await modes[name].get(`/v1/webhooks/${made[name].id}`));
      expect(jsonOf(runs[name])).toMatchObject({ status: 'paused', paused_reason: 'owner', version: 2 });
    }
    expectAlike(runs);
  });

  it('test on a paused webhook exits 5 webhook_inactive; resumed, it prints the queued delivery, which deliveries lists', async () => {
    const refused = await modes.both((m) => ['webhooks', 'test', made[m.name].id]);
    for (const name of MODE_NAMES) {
      expect(refused[name]).toEqual(failure(5, 'webhook_inactive', 'The webhook is paused; set its status to active first.'));
    }
    await modes.both((m) => ['webhooks', 'update', made[m.name].id, '--status', 'active', '--if-match', '2']);
    const runs = await modes.both((m) => ['webhooks', 'test', made[m.name].id, '--json']);
    for (const name of MODE_NAMES) {
      const delivery = jsonOf(runs[name]);
      expect(delivery).toMatchObject({ webhook_id: made[name].id, event_type: 'webhook.test', status: 'pending', attempts: 0 });
      const listed = await modes[name].run(['webhooks', 'deliveries', made[name].id, '--json']);
      expect(listed).toEqual(success(`${JSON.stringify([delivery], null, 2)}\n`));
      expect(await modes[name].getAll(`/v1/webhooks/${made[name].id}/deliveries?limit=100`)).toEqual([delivery]);
    }
    expectAlike(runs);
  });

  it('delete --json prints the webhook as it was; then get exits 3', async () => {
    const before: PerMode<unknown> = {
      embedded: await modes.embedded.get(`/v1/webhooks/${made.embedded.id}`),
      remote: await modes.remote.get(`/v1/webhooks/${made.remote.id}`),
    };
    const runs = await modes.both((m) => ['webhooks', 'delete', made[m.name].id, '--json']);
    for (const name of MODE_NAMES) expect(jsonOf(runs[name])).toEqual(before[name]);
    expectAlike(runs);
    const gone = await modes.both((m) => ['webhooks', 'get', made[m.name].id]);
    for (const name of MODE_NAMES) expect(gone[name]).toEqual(failure(3, 'webhook_not_found', 'No webhook with this id.'));
  });
});
