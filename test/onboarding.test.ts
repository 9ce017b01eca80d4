import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './support/cli-run.js';
import { api, expectData, expectError } from './support/http.js';
import { connectHttp, expectToolError, type McpSession, toolData } from './support/mcp-client.js';
import { type ServerProcess, startServer, tempDir, writeWorkspace } from './support/serve.js';

// Issue 32, "Done means": a new host is onboarded, configured, booked,
// moved and taken off with only API calls; the same with only MCP tools;
// the same with only CLI commands. One `schedule serve` holds an owner and
// nothing else; each front end onboards a host of its own and walks the
// whole way: add the person, give them a token, set their weekly hours,
// make an event type, take a day off, find slots, book, move the booking,
// see the day off refused, then deactivate them.

const OWNER_SECRET = 'onboarding-owner-secret-all-scopes';
const HOST_SCOPES = [
  'availability:read',
  'availability:write',
  'event_types:write',
  'slots:read',
  'bookings:create',
  'bookings:read',
  'bookings:reschedule',
];
const OWNER_SCOPES = [...HOST_SCOPES, 'people:write', 'tokens:read', 'tokens:write'];

const DAY_MS = 86_400_000;
/** The Monday at least two days from now (UTC), and the two days after it: Tuesday is taken off. */
const MON = (() => {
  let day = new Date(Date.now() + 2 * DAY_MS);
  while (day.getUTCDay() !== 1) day = new Date(day.getTime() + DAY_MS);
  return day.toISOString().slice(0, 10);
})();
const plusDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const TUE = plusDays(MON, 1);
const WED = plusDays(MON, 2);
const at = (date: string, time: string) => `${date}T${time}:00.000Z`;
const WINDOW = { start: at(MON, '00:00'), end: at(plusDays(MON, 3), '00:00') };

/** The slot starts of a list, by day. */
function byDay(slots: readonly { start: string }[]): Record<string, string[]> {
  const days: Record<string, string[]> = {};
  for (const { start } of slots) {
    const day = start.slice(0, 10);
    days[day] = [...(days[day] ?? []), start.slice(11, 16)];
  }
  return days;
}

/** What every front end must have seen: Monday and Wednesday 09:00 to 16:30 every half hour, Tuesday not at all. */
const WORKING_DAY = Array.from({ length: 16 }, (_, i) => `${String(9 + Math.floor(i / 2)).padStart(2, '0')}:${i % 2 ? '30' : '00'}`);

let server: ServerProcess;

beforeAll(async () => {
  const file = writeWorkspace({
    organization: { name: 'Onboarding' },
    limits: { pat_per_minute: 10_000 },
    users: [{ username: 'olive', email: 'olive@onboarding.test', name: 'Olive Owner', role: 'owner' }],
    tokens: [{ name: 'olive', user: 'olive', secret: OWNER_SECRET, scopes: OWNER_SCOPES }],
  });
  server = await startServer(['--workspace', file, '--db', join(tempDir('schedule-onboarding-'), 'db.sqlite')]);
});
afterAll(() => server?.stop());

describe('onboarding a host with only API calls', () => {
  const call = (method: string, path: string, token: string, json?: unknown, headers: Record<string, string> = {}) =>
    api(server.url, path, {
      method,
      token,
      ...(json === undefined ? {} : { json }),
      headers: method === 'GET' ? headers : { 'idempotency-key': randomUUID(), ...headers },
    });

  it('adds, configures, books, moves and takes off a host', async () => {
    const person = expectData(
      await call('POST', '/v1/people', OWNER_SECRET, { username: 'nia', email: 'nia@onboarding.test', name: 'Nia Host', timezone: 'UTC' }),
      201,
    );
    const token = expectData(
      await call('POST', '/v1/tokens', OWNER_SECRET, { name: 'nia laptop', scopes: HOST_SCOPES, user_id: person.user_id }),
      201,
    );
    const nia = token.secret as string;
    expect(expectData(await call('GET', '/v1/me', nia))).toMatchObject({ username: 'nia', scopes: [...HOST_SCOPES].sort() });

    const hours = await call('GET', '/v1/people/me/availability', nia);
    expectData(hours);
    const weekdays = Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri'].map((d) => [d, [['09:00', '17:00']]]));
    expectData(
      await call(
        'PUT',
        '/v1/people/me/availability',
        nia,
        { timezone: 'UTC', weekly: weekdays, overrides: [] },
        {
          'if-match': hours.headers.get('etag')!,
        },
      ),
    );
    const eventType = expectData(
      await call('POST', '/v1/event-types', nia, { slug: 'intro', name: 'Intro call', duration_minutes: 30 }),
      201,
    );
    expectData(await call('POST', '/v1/people/me/time-off', nia, { start_date: TUE, reason: 'Dentist' }), 201);

    const query = `event_type_id=${eventType.id}&start=${WINDOW.start}&end=${WINDOW.end}`;
    const slots = expectData(await call('GET', `/v1/slots?${query}`, nia)).slots;
    expect(byDay(slots)).toEqual({ [MON]: WORKING_DAY, [WED]: WORKING_DAY });
    const check = expectData(await call('GET', `/v1/slots/check?event_type_id=${eventType.id}&start=${at(TUE, '10:00')}`, nia));
    expect(check).toMatchObject({ available: false, reason: 'slot_busy' });

    const attendee = { name: 'Ama Attendee', email: 'ama@example.com' };
    const booking = expectData(
      await call('POST', '/v1/bookings', nia, { event_type_id: eventType.id, start: at(MON, '09:00'), attendee }),
      201,
    );
    const moved = expectData(await call('POST', `/v1/bookings/${booking.uid}/reschedule`, nia, { start: at(WED, '10:00') }));
    expect(moved).toMatchObject({ start_at: at(WED, '10:00'), status: 'confirmed' });
    expectError(await call('POST', `/v1/bookings/${moved.uid}/reschedule`, nia, { start: at(TUE, '10:00') }), 409, 'slot_unavailable');

    expectData(await call('POST', `/v1/people/${person.user_id}/deactivate`, OWNER_SECRET));
    expectError(await call('GET', '/v1/me', nia), 401, 'unauthorized');
    expectError(
      await call('POST', '/v1/bookings', OWNER_SECRET, { event_type_id: eventType.id, start: at(WED, '11:00'), attendee }),
      409,
      'event_type_inactive',
    );
    // Taken off, not erased: the moved booking stays until someone acts on it.
    expect(expectData(await call('GET', `/v1/bookings/${moved.uid}`, OWNER_SECRET))).toMatchObject({ status: 'confirmed' });
  });
});

describe('onboarding a host with only MCP tools', () => {
  const sessions: McpSession[] = [];
  const connect = async (secret: string) => {
    const session = await connectHttp(server.url, secret, 'all');
    sessions.push(session);
    return session;
  };
  afterAll(() => Promise.all(sessions.map((s) => s.close())));

  it('adds, configures, books, moves and takes off a host', async () => {
    const owner = await connect(OWNER_SECRET);
    const person = toolData(
      await owner.call('create_person', { username: 'mo', email: 'mo@onboarding.test', name: 'Mo Host', timezone: 'UTC' }),
    );
    const token = toolData(await owner.call('create_token', { name: 'mo assistant', scopes: HOST_SCOPES, user_id: person.user_id }));
    const mo = await connect(token.secret);

    const hours = toolData(await mo.call('get_availability', { user_id: 'me' }));
    const weekdays = Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri'].map((d) => [d, [['09:00', '17:00']]]));
    toolData(
      await mo.call('replace_availability', { user_id: 'me', timezone: 'UTC', weekly: weekdays, overrides: [], if_match: hours.version }),
    );
    const eventType = toolData(await mo.call('create_event_type', { slug: 'intro', name: 'Intro call', duration_minutes: 30 }));
    toolData(await mo.call('create_time_off', { user_id: 'me', start_date: TUE, reason: 'Dentist' }));

    const slots = toolData(await mo.call('list_slots', { event_type_id: eventType.id, ...WINDOW })).slots;
    expect(byDay(slots)).toEqual({ [MON]: WORKING_DAY, [WED]: WORKING_DAY });
    expect(toolData(await mo.call('check_slot', { event_type_id: eventType.id, start: at(TUE, '10:00') }))).toMatchObject({
      available: false,
      reason: 'slot_busy',
    });

    const attendee = { name: 'Ama Attendee', email: 'ama@example.com' };
    const booking = toolData(await mo.call('create_booking', { event_type_id: eventType.id, start: at(MON, '09:00'), attendee }));
    const moved = toolData(await mo.call('reschedule_booking', { uid: booking.uid, start: at(WED, '10:00') }));
    expect(moved).toMatchObject({ start_at: at(WED, '10:00'), status: 'confirmed' });

    toolData(await owner.call('deactivate_person', { user_id: person.user_id, confirm: true }));
    await expect(connect(token.secret)).rejects.toMatchObject({ code: 401 });
    expectToolError(
      await owner.call('create_booking', { event_type_id: eventType.id, start: at(WED, '11:00'), attendee }),
      'event_type_inactive',
      {},
    );
    expect(toolData(await owner.call('get_booking', { uid: moved.uid }))).toMatchObject({ status: 'confirmed' });
  });
});

describe('onboarding a host with only CLI commands', () => {
  /** Runs `schedule … --api-url <server> --json` as the token; the parsed data on success. */
  async function cli(secret: string, args: readonly string[]): Promise<any> {
    const run = await runCli([...args, '--api-url', server.url, '--json'], { env: { SCHEDULE_TOKEN: secret } });
    if (run.code !== 0) throw new Error(`schedule ${args.join(' ')} exited ${run.code}: ${run.stderr}`);
    return JSON.parse(run.stdout);
  }

  it('adds, configures, books, moves and takes off a host', async () => {
    const person = await cli(OWNER_SECRET, ['people', 'create', '--username', 'cy', '--email', 'cy@onboarding.test', '--name', 'Cy Host']);
    const token = await cli(OWNER_SECRET, [
      'people',
      'tokens',
      'create',
      '--name',
      'cy shell',
      '--scope',
      HOST_SCOPES.join(','),
      '--user',
      person.user_id,
    ]);
    const cy = token.secret as string;
    const day = '09:00-17:00';
    await cli(cy, ['availability', 'set', '--timezone', 'UTC', '--mon', day, '--tue', day, '--wed', day, '--thu', day, '--fri', day]);
    const eventType = await cli(cy, ['event-types', 'create', '--slug', 'intro', '--name', 'Intro call', '--duration', '30']);
    await cli(cy, ['time-off', 'add', '--date', TUE, '--reason', 'Dentist']);

    const slots = await cli(cy, ['slots', 'list', '--event-type', eventType.id, '--start', WINDOW.start, '--end', WINDOW.end]);
    expect(byDay(slots.slots)).toEqual({ [MON]: WORKING_DAY, [WED]: WORKING_DAY });

    const booking = await cli(cy, [
      'bookings',
      'create',
      '--event-type',
      eventType.id,
      '--start',
      at(MON, '09:00'),
      '--attendee-email',
      'ama@example.com',
      '--attendee-name',
      'Ama Attendee',
    ]);
    const moved = await cli(cy, ['bookings', 'reschedule', booking.uid, '--start', at(WED, '10:00')]);
    expect(moved).toMatchObject({ start_at: at(WED, '10:00'), status: 'confirmed' });

    await cli(OWNER_SECRET, ['people', 'deactivate', person.user_id]);
    const refused = await runCli(['whoami', '--api-url', server.url], { env: { SCHEDULE_TOKEN: cy } });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/^error unauthorized: /);
    expect(await cli(OWNER_SECRET, ['bookings', 'get', moved.uid])).toMatchObject({ status: 'confirmed' });
  }, 60_000);
});
