import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CalDavServer, startCalDavServer } from './support/caldav-server.js';
import { runCli } from './support/cli-run.js';
import { type ApiResponse, api, expectData, expectError, expectPage } from './support/http.js';
import { startInProcess } from './support/in-process.js';
import { connectHttp, expectToolError, type McpSession, toolData } from './support/mcp-client.js';
import { type ServerProcess, startServer, tempDir, writeWorkspace } from './support/serve.js';

// docs/calendars.md "Connecting a CalDAV account", black box: the real
// `schedule serve` with a CALENDAR_KEY, a real Radicale on loopback, every
// answer checked against docs/openapi.json by `api()`. Then the MCP tools
// and the CLI (remote and embedded) on the same server. Whatever the path,
// the password never shows: not in an answer, not in the log, not in the
// CLI's output.

const USERS = { ann: 'ca000000-0000-4000-8000-000000000001', ben: 'ca000000-0000-4000-8000-000000000002' } as const;
const TOKENS = { ann: 'cal-secret-ann-calendars-rw', ben: 'cal-secret-ben-calendars-rw' } as const;
const RW = ['calendars:read', 'calendars:write'];
const WRONG = 'not-the-password-4f2a9c';
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const CALENDAR_KEY = randomBytes(32).toString('base64');

const workspace = {
  organization: { name: 'Calendars Org' },
  limits: { pat_per_minute: 10_000 },
  users: [
    { id: USERS.ann, username: 'ann', email: 'ann@cal.test', name: 'Ann' },
    { id: USERS.ben, username: 'ben', email: 'ben@cal.test', name: 'Ben' },
  ],
  tokens: [
    { name: 'ann', user: 'ann', secret: TOKENS.ann, scopes: RW },
    { name: 'ben', user: 'ben', secret: TOKENS.ben, scopes: RW },
  ],
};

let radicale: CalDavServer;
let server: ServerProcess;
let db: string;
let workCalendar: string;

beforeAll(async () => {
  radicale = await startCalDavServer('radicale');
  workCalendar = await radicale.calendar('work');
  await radicale.calendar('family');
  db = join(tempDir('schedule-calendars-'), 'calendars.db');
  // Debug logging: the most the server ever writes, all of it searched for the password below.
  server = await startServer(['--workspace', writeWorkspace(workspace), '--db', db], {
    CALENDAR_KEY,
    LOG_LEVEL: 'debug',
    CALENDAR_SYNC: '0',
    WEBHOOK_DELIVERY: '0',
  });
}, 30_000);
afterAll(async () => {
  await server?.stop();
  await radicale?.close();
});

function send(method: string, path: string, options: { token?: string; json?: unknown } = {}): Promise<ApiResponse> {
  return api(server.url, path, {
    method,
    token: options.token ?? TOKENS.ann,
    headers: method === 'POST' && !path.endsWith('/test') ? { 'idempotency-key': randomUUID() } : {},
    ...(options.json === undefined ? {} : { json: options.json }),
  });
}

const account = (more: Record<string, unknown> = {}) => ({
  url: radicale.url,
  username: radicale.username,
  password: radicale.password,
  ...more,
});

/** Neither the account's password nor the wrong one tried appears in what the server wrote. */
function expectLogFree(): void {
  const { stdout, stderr } = server.output();
  for (const secret of [radicale.password, WRONG, 'changed-password-b71e']) {
    expect(stdout).not.toContain(secret);
    expect(stderr).not.toContain(secret);
  }
}

describe('the calendar account API', () => {
  it('adds an account found by discovery: 201, Location, the view without the password', async () => {
    const res = await send('POST', '/v1/calendars', { json: account({ busy_calendars: ['work', 'family'], book_into: 'work' }) });
    const data = expectData(res, 201);
    expect(data.id).toMatch(/^cal_[0-9a-f]{32}$/);
    expect(data.created_at).toMatch(INSTANT);
    expect(data).toEqual({
      id: data.id,
      kind: 'caldav',
      user_id: USERS.ann,
      url: radicale.url,
      username: radicale.username,
      busy_calendars: ['work', 'family'],
      book_into: 'work',
      receives_bookings: true,
      source: 'api',
      created_at: data.created_at,
    });
    expect(res.headers.get('location')).toBe(`/v1/calendars/${data.id}`);
    expect(res.text).not.toContain(radicale.password);

    const tested = expectData(await send('POST', `/v1/calendars/${data.id}/test`));
    expect(tested.id).toBe(data.id);
    expect(tested.calendars).toEqual(
      expect.arrayContaining([
        { name: 'work', url: workCalendar, busy: true, book_into: true },
        { name: 'family', url: expect.stringMatching(/\/family\/$/), busy: true, book_into: false },
      ]),
    );

    const page = expectPage(await send('GET', '/v1/calendars'));
    expect(page.items).toEqual([data]);
    expect(expectData(await send('GET', `/v1/calendars/${data.id}`))).toEqual(data);
    expect(expectPage(await send('GET', '/v1/calendars', { token: TOKENS.ben })).items).toEqual([]);
    expectError(await send('GET', `/v1/calendars/${data.id}`, { token: TOKENS.ben }), 404, 'calendar_not_found', { id: data.id });

    expect(expectData(await send('DELETE', `/v1/calendars/${data.id}`))).toEqual(data);
    expect(expectPage(await send('GET', '/v1/calendars')).items).toEqual([]);
    expectLogFree();
  });

  it('refuses wrong credentials with 422 calendar_credentials_refused, naming the server, never the password', async () => {
    const error = expectError(
      await send('POST', '/v1/calendars', { json: account({ password: WRONG }) }),
      422,
      'calendar_credentials_refused',
      { reason: 'credentials', status: 401 },
    );
    expect(error.message).toMatch(/^CalDAV server http:\/\/127\.0\.0\.1:\d+\/\S* refused the username and password \(HTTP 401\)\.$/);
    expect(expectPage(await send('GET', '/v1/calendars')).items).toEqual([]);
    expectLogFree();
  });

  it('refuses a calendar the account lacks with 422 calendar_name_unknown, listing those it has', async () => {
    const error = expectError(await send('POST', '/v1/calendars', { json: account({ book_into: 'gym' }) }), 422, 'calendar_name_unknown');
    expect(error.details).toEqual({ field: 'book_into', name: 'gym', calendars: expect.arrayContaining(['work', 'family']) });
  });

  it('refuses a server that is not there with 502 calendar_unreachable, and one that is no CalDAV server with 422', async () => {
    expectError(await send('POST', '/v1/calendars', { json: account({ url: 'http://127.0.0.1:1/' }) }), 502, 'calendar_unreachable', {
      reason: 'unreachable',
    });
    // The schedule server itself answers HTTP, but is no CalDAV server.
    expectError(await send('POST', '/v1/calendars', { json: account({ url: `${server.url}/healthz` }) }), 422, 'calendar_not_caldav', {
      reason: 'not_caldav',
    });
  });

  it('reports a password changed on the server at test time, without either password', async () => {
    const data = expectData(await send('POST', '/v1/calendars', { json: account() }), 201);
    radicale.changePassword('changed-password-b71e');
    try {
      const error = expectError(await send('POST', `/v1/calendars/${data.id}/test`), 422, 'calendar_credentials_refused', {
        reason: 'credentials',
        status: 401,
      });
      expect(error.message).not.toContain(radicale.password);
    } finally {
      radicale.changePassword(radicale.password);
    }
    expectData(await send('DELETE', `/v1/calendars/${data.id}`));
    expectLogFree();
  });

  it('answers 501 calendar_key_missing on a server without CALENDAR_KEY, and 404 for an unknown id', async () => {
    const keyless = await startInProcess({ workspace: writeWorkspace(workspace), db: ':memory:' }, { CALENDAR_SYNC: '0' });
    try {
      const res = await api(keyless.url, '/v1/calendars', {
        method: 'POST',
        token: TOKENS.ann,
        headers: { 'idempotency-key': randomUUID() },
        json: account(),
      });
      expectError(res, 501, 'calendar_key_missing', {});
    } finally {
      await keyless.stop();
    }
    expectError(await send('DELETE', '/v1/calendars/cal_0000000000000000'), 404, 'calendar_not_found', { id: 'cal_0000000000000000' });
  });
});

describe('the calendar account tools (MCP)', () => {
  let mcp: McpSession;
  beforeAll(async () => {
    mcp = await connectHttp(server.url, TOKENS.ann);
  });
  afterAll(() => mcp?.close());

  it('adds, lists, tests and removes as HTTP does; wrong credentials are a tool error', async () => {
    expectToolError(
      await mcp.call('add_calendar', { ...account({ password: WRONG }), idempotency_key: randomUUID() }),
      'calendar_credentials_refused',
      {
        reason: 'credentials',
        status: 401,
      },
    );
    const added = toolData(await mcp.call('add_calendar', { ...account(), idempotency_key: randomUUID() }));
    expect(added.source).toBe('api');
    expect(toolData(await mcp.call('list_calendars', {})).data).toEqual([added]);
    expect(toolData(await mcp.call('test_calendar', { calendar_id: added.id })).id).toBe(added.id);
    expect(toolData(await mcp.call('remove_calendar', { calendar_id: added.id, confirm: true }))).toEqual(added);
    expectLogFree();
  });
});

describe('schedule calendars (CLI)', () => {
  const remote = () => ['--api-url', server.url];
  const env = { SCHEDULE_TOKEN: TOKENS.ann, CALDAV_PASSWORD: '' };
  const free = (run: { stdout: string; stderr: string }) => {
    for (const secret of [radicale.password, WRONG]) expect(`${run.stdout}${run.stderr}`).not.toContain(secret);
  };
  const addArgs = ['calendars', 'add', '--url', '', '--username', ''];
  const argsFor = (...more: string[]) => {
    const args = [...addArgs, ...more];
    args[3] = radicale.url;
    args[5] = radicale.username;
    return args;
  };

  it('add with a wrong password (stdin): exit 2, a clear error, the password in neither output', async () => {
    const run = await runCli([...argsFor('--password-stdin'), ...remote()], { env, input: `${WRONG}\n` });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(
      /^error calendar_credentials_refused: CalDAV server \S+ refused the username and password \(HTTP 401\)\.\n$/,
    );
    free(run);
  });

  it('refuses --password as an argument, and works embedded on the same database with the key', async () => {
    const refused = await runCli([...argsFor('--password', WRONG), ...remote()], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^error usage: A password is never an argument/);

    const wrong = await runCli([...argsFor('--password-env', 'CALDAV_PASSWORD'), '--db', db], {
      env: { ...env, CALDAV_PASSWORD: WRONG, CALENDAR_KEY },
    });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/^error calendar_credentials_refused: /);
    free(wrong);

    const keyless = await runCli([...argsFor('--password-env', 'CALDAV_PASSWORD'), '--db', db], {
      env: { ...env, CALDAV_PASSWORD: radicale.password },
    });
    expect(keyless.code).toBe(1);
    expect(keyless.stderr).toMatch(/^error calendar_key_missing: /);
  });

  it('add, list, test --id and remove through the API', async () => {
    const added = await runCli([...argsFor('--password-env', 'CALDAV_PASSWORD', '--book-into', 'work', '--json'), ...remote()], {
      env: { ...env, CALDAV_PASSWORD: radicale.password },
    });
    expect(added.stderr).toBe('');
    expect(added.code).toBe(0);
    free(added);
    const data = JSON.parse(added.stdout);
    expect(data).toMatchObject({ source: 'api', book_into: 'work', url: radicale.url });

    const listed = await runCli(['calendars', 'list', '--json', ...remote()], { env });
    expect(JSON.parse(listed.stdout)).toEqual([data]);

    const tested = await runCli(['calendars', 'test', '--id', data.id, ...remote()], { env });
    expect(tested.code).toBe(0);
    expect(tested.stdout).toContain(`${data.id}  work  ${workCalendar}  busy  book_into\n`);

    const removed = await runCli(['calendars', 'remove', data.id, '--json', ...remote()], { env });
    expect(removed.code).toBe(0);
    expect(JSON.parse(removed.stdout)).toEqual(data);
    const gone = await runCli(['calendars', 'test', '--id', data.id, ...remote()], { env });
    expect(gone.code).toBe(3);
    expect(gone.stderr).toBe('error calendar_not_found: No calendar account with this id.\n');
  });
});
