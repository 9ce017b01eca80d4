import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Principal } from '../src/auth/principal.js';
import type { CalDavAccount, CalDavConnector, RemoteCalendar } from '../src/caldav/caldav-connector.js';
import { CalDavFailure, type CalDavFailureReason } from '../src/caldav/caldav-failure.js';
import { calDavPasswords } from '../src/caldav/caldav-passwords.js';
import type { CalendarAccount, CalendarAccountTest } from '../src/calendar-accounts/calendar-account-view.js';
import { passwordSealer } from '../src/calendar-accounts/password-seal.js';
import { manualClock } from '../src/clock.js';
import type { CalDavCalendar } from '../src/event-types/calendar.js';
import { randomIds, sequentialIds } from '../src/ids.js';
import type { ExecuteDeps } from '../src/operations/execute.js';
import type { Store } from '../src/storage/store.js';
import { loadWorkspace } from '../src/workspace/load-workspace.js';
import { parseWorkspace } from '../src/workspace/parse-workspace.js';
import { testDeps } from './support/deps.js';
import { scheduleErrorOf } from './support/errors.js';
import { principalOf } from './support/organization.js';
import { storeFixtures } from './support/stores.js';
import { callWebhooks as call } from './support/webhook-calls.js';

// docs/calendars.md "Connecting a CalDAV account": every calendar account
// operation through `execute`, on SQLite and PostgreSQL, against a fake
// CalDAV connector that answers as a server would (the real servers are in
// the black-box tests: test/calendars-api.test.ts).

const T0 = '2026-05-04T09:00:00.000Z';
const URL_ = 'https://dav.example.com/';
const PASSWORD = 'hunter2-but-longer';
const USERS = {
  ann: 'c0000000-0000-4000-8000-00000000000a',
  ben: 'c0000000-0000-4000-8000-00000000000b',
  ada: 'c0000000-0000-4000-8000-00000000000c',
  max: 'c0000000-0000-4000-8000-00000000000d',
} as const;
const TOKENS = {
  ann: 'pat_ann_calendars_rw_x',
  annRead: 'pat_ann_calendars_read',
  ben: 'pat_ben_calendars_rw_x',
  ada: 'pat_ada_admin_calendars',
  max: 'pat_max_manager_of_ann',
} as const;
type Caller = keyof typeof TOKENS;
const RW = ['calendars:read', 'calendars:write'];

/** Ann's workspace account, whose password is in an environment variable. */
const FILE_ACCOUNT = { kind: 'caldav', url: 'https://file.example.com/', username: 'ann', password_env: 'ANN_CALDAV' };

function workspace(annCalendars: readonly object[] = [FILE_ACCOUNT]) {
  return {
    organization: { name: 'Calendars' },
    users: [
      { id: USERS.ann, username: 'ann', email: 'ann@cal.test', name: 'Ann', calendars: annCalendars },
      { id: USERS.ben, username: 'ben', email: 'ben@cal.test', name: 'Ben' },
      { id: USERS.ada, username: 'ada', email: 'ada@cal.test', name: 'Ada', role: 'admin' },
      { id: USERS.max, username: 'max', email: 'max@cal.test', name: 'Max', role: 'manager', manages: ['ann'] },
    ],
    tokens: [
      { name: 'ann', user: 'ann', secret: TOKENS.ann, scopes: RW },
      { name: 'ann-read', user: 'ann', secret: TOKENS.annRead, scopes: ['calendars:read'] },
      { name: 'ben', user: 'ben', secret: TOKENS.ben, scopes: RW },
      { name: 'ada', user: 'ada', secret: TOKENS.ada, scopes: RW },
      { name: 'max', user: 'max', secret: TOKENS.max, scopes: RW },
    ],
  };
}

const remote = (name: string): RemoteCalendar => ({
  url: `${URL_}calendars/ann/${name.toLowerCase()}/`,
  displayName: name,
  dav: { url: `${URL_}calendars/ann/${name.toLowerCase()}/` },
});
const CALENDARS = [remote('Work'), remote('Family')];

/**
 * A CalDAV server in a map: the password its account takes, or the failure
 * it answers with. It sees passwords only through `passwordOf`, as the real
 * connector does, so a sealed password must open to reach it.
 */
function fakeConnector(passwordOf: (c: CalDavCalendar) => string) {
  const server = { password: PASSWORD, failure: undefined as CalDavFailureReason | undefined, calls: 0 };
  const connector: CalDavConnector = {
    async connect(calendar) {
      server.calls += 1;
      const password = passwordOf(calendar);
      if (server.failure) throw new CalDavFailure(server.failure, `CalDAV server ${calendar.url} failed (${server.failure})`, 502);
      if (password !== server.password)
        throw new CalDavFailure('credentials', `CalDAV server ${calendar.url} refused the username and password (HTTP 401)`, 401);
      const pick = (name: string) => CALENDARS.find((c) => c.displayName === name);
      const busy = calendar.busy_calendars?.map(pick).filter((c) => c !== undefined) ?? CALENDARS;
      const bookInto =
        calendar.book_into === null ? null : calendar.book_into === undefined ? CALENDARS[0]! : (pick(calendar.book_into) ?? null);
      return { calendars: CALENDARS, busy, bookInto } as unknown as CalDavAccount;
    },
  };
  return { connector, server };
}

const refusal = (code: string, details: Record<string, unknown>, message: string) => ({
  code,
  message,
  details,
  retryAfterSeconds: undefined,
});
const NO_ACCOUNT = 'No calendar account with this id.';
const NO_KEY = 'This server has no calendar key (CALENDAR_KEY), so it cannot keep or open CalDAV passwords; its operator must set one.';

describe.each(storeFixtures())('calendar accounts on $name', (fixture) => {
  let store: Store;
  let deps: ExecuteDeps;
  let who: Record<Caller, Principal>;
  const clock = manualClock(T0);
  const sealer = passwordSealer(randomBytes(32));
  const env = { ANN_CALDAV: PASSWORD };
  const fake = fakeConnector(calDavPasswords({ env, unseal: sealer.unseal }));

  beforeAll(async () => {
    store = await fixture.open();
    deps = testDeps(store, clock, { ids: sequentialIds(), calendarAccounts: { connector: fake.connector, sealer } });
    await loadWorkspace({ store, clock, ids: randomIds }, parseWorkspace(JSON.stringify(workspace())));
    who = {} as Record<Caller, Principal>;
    for (const name of Object.keys(TOKENS) as Caller[]) who[name] = await principalOf({ store, clock }, TOKENS[name]);
  });
  afterAll(() => fixture.cleanup());

  beforeEach(async () => {
    fake.server.password = PASSWORD;
    fake.server.failure = undefined;
    // Every user back to what the file says: no API accounts.
    await loadWorkspace({ store, clock, ids: randomIds }, parseWorkspace(JSON.stringify(workspace())));
    for (const id of Object.values(USERS)) {
      const row = await store.db.selectFrom('users').select('calendars_json').where('id', '=', id).executeTakeFirstOrThrow();
      const kept = (JSON.parse(row.calendars_json) as CalDavCalendar[]).filter((c) => c.password_sealed === undefined);
      await store.db
        .updateTable('users')
        .set({ calendars_json: JSON.stringify(kept) })
        .where('id', '=', id)
        .execute();
    }
  });

  const run = (caller: Caller, name: Parameters<typeof call>[2], rest: Parameters<typeof call>[3] = {}, d = deps) =>
    call(d, who[caller], name, rest);
  const add = async (caller: Caller, body: Record<string, unknown> = {}) =>
    (await run(caller, 'add_calendar', { body: { url: URL_, username: 'ann', password: PASSWORD, ...body } })).outcome;
  const storedText = async (userId: string) =>
    (await store.db.selectFrom('users').select('calendars_json').where('id', '=', userId).executeTakeFirstOrThrow()).calendars_json;

  describe('add_calendar', () => {
    it('discovers, then stores the account sealed: 201, its view without the password, Location', async () => {
      const outcome = await add('ann', { busy_calendars: ['Work'], book_into: 'Work' });
      const account = outcome.data as CalendarAccount;
      expect(account.id).toMatch(/^cal_[0-9a-f]{32}$/);
      expect(outcome).toEqual({
        status: 201,
        location: `/v1/calendars/${account.id}`,
        data: {
          id: account.id,
          kind: 'caldav',
          user_id: USERS.ann,
          url: URL_,
          username: 'ann',
          busy_calendars: ['Work'],
          book_into: 'Work',
          receives_bookings: true,
          source: 'api',
          created_at: T0,
        },
      });
      const text = await storedText(USERS.ann);
      expect(text).not.toContain(PASSWORD);
      const stored = (JSON.parse(text) as CalDavCalendar[]).find((c) => c.id === account.id)!;
      expect(stored.password_sealed).toMatch(/^v1\./);
      expect(sealer.unseal(stored.password_sealed!)).toBe(PASSWORD);
      expect(JSON.stringify(outcome)).not.toContain('v1.');
    });

    it('replays the same answer for the same Idempotency-Key, storing one account', async () => {
      const body = { url: URL_, username: 'ann', password: PASSWORD };
      const first = await run('ann', 'add_calendar', { body, key: 'same-key' });
      const again = await run('ann', 'add_calendar', { body, key: 'same-key' });
      expect(again.outcome).toEqual(first.outcome);
      expect(again.replayed).toBe(true);
      const caldav = (JSON.parse(await storedText(USERS.ann)) as CalDavCalendar[]).filter((c) => c.password_sealed !== undefined);
      expect(caldav).toHaveLength(1);
    });

    it.each([
      ['credentials' as const, 'calendar_credentials_refused', { reason: 'credentials', status: 502 }],
      ['not_caldav' as const, 'calendar_not_caldav', { reason: 'not_caldav', status: 502 }],
      ['unreachable' as const, 'calendar_unreachable', { reason: 'unreachable', status: 502 }],
      ['timeout' as const, 'calendar_unreachable', { reason: 'timeout', status: 502 }],
      ['too_large' as const, 'calendar_unreachable', { reason: 'too_large', status: 502 }],
      ['http' as const, 'calendar_unreachable', { reason: 'http', status: 502 }],
    ])('refuses when discovery fails with %s: %s, nothing stored', async (failure, code, details) => {
      fake.server.failure = failure;
      const before = await storedText(USERS.ann);
      expect(await scheduleErrorOf(add('ann'))).toEqual(refusal(code, details, `CalDAV server ${URL_} failed (${failure}).`));
      expect(await storedText(USERS.ann)).toBe(before);
    });

    it('refuses wrong credentials with calendar_credentials_refused, the message free of the password', async () => {
      const error = await add('ann', { password: 'wrong-password-123' }).catch((e: Error) => e);
      expect(error).toMatchObject({ code: 'calendar_credentials_refused', details: { reason: 'credentials', status: 401 } });
      expect((error as Error).message).toBe(`CalDAV server ${URL_} refused the username and password (HTTP 401).`);
      expect((error as Error).message).not.toContain('wrong-password');
    });

    it('refuses a calendar name the account lacks, listing the ones it has', async () => {
      expect(await scheduleErrorOf(add('ann', { busy_calendars: ['Work', 'Gym'] }))).toEqual(
        refusal(
          'calendar_name_unknown',
          { field: 'busy_calendars', name: 'Gym', calendars: ['Work', 'Family'] },
          'The account has no calendar "Gym" (busy_calendars); it has: Work, Family.',
        ),
      );
      expect(await scheduleErrorOf(add('ann', { book_into: 'Holidays' }))).toEqual(
        refusal(
          'calendar_name_unknown',
          { field: 'book_into', name: 'Holidays', calendars: ['Work', 'Family'] },
          'The account has no calendar "Holidays" (book_into); it has: Work, Family.',
        ),
      );
    });

    it('refuses without a calendar key, before talking to the server', async () => {
      const calls = fake.server.calls;
      const keyless = { ...deps, calendarAccounts: { connector: fake.connector } };
      expect(await scheduleErrorOf(run('ann', 'add_calendar', { body: { url: URL_, username: 'a', password: 'p' } }, keyless))).toEqual(
        refusal('calendar_key_missing', {}, NO_KEY),
      );
      expect(fake.server.calls).toBe(calls);
    });

    it('refuses credentials in the URL, and a body without a password', async () => {
      expect(await scheduleErrorOf(add('ann', { url: 'https://ann:secret@dav.example.com/' }))).toEqual(
        refusal('validation_error', { fields: ['url'] }, 'url: give the username and password as their own fields, not in the URL'),
      );
      expect(await scheduleErrorOf(run('ann', 'add_calendar', { body: { url: URL_, username: 'ann' } }))).toEqual(
        refusal('validation_error', { fields: ['password'] }, 'password: is required'),
      );
    });

    it('adds for someone the caller acts for (admin, manager), and refuses anyone else alike (403 host_not_allowed)', async () => {
      expect(((await add('ada', { user: 'ben' })).data as CalendarAccount).user_id).toBe(USERS.ben);
      expect(((await add('max', { user: USERS.ann })).data as CalendarAccount).user_id).toBe(USERS.ann);
      for (const user of ['ann', USERS.ada, 'nobody']) {
        expect(await scheduleErrorOf(add('ben', { user }))).toEqual(
          refusal('host_not_allowed', { fields: ['user'] }, 'user is not someone this caller may act for.'),
        );
      }
    });

    it('needs calendars:write', async () => {
      expect(await scheduleErrorOf(add('annRead'))).toEqual(
        refusal('insufficient_scope', { required_scope: 'calendars:write' }, 'This token lacks the scope calendars:write.'),
      );
    });
  });

  describe('list_calendars and get_calendar', () => {
    it("lists the workspace file's account first, then the API's, never a password", async () => {
      const added = (await add('ann')).data as CalendarAccount;
      const { outcome } = await run('annRead', 'list_calendars');
      const list = outcome.data as CalendarAccount[];
      expect(list.map((c) => [c.source, c.url])).toEqual([
        ['workspace', 'https://file.example.com/'],
        ['api', URL_],
      ]);
      expect(list[0]).toEqual({
        id: list[0]!.id,
        kind: 'caldav',
        user_id: USERS.ann,
        url: 'https://file.example.com/',
        username: 'ann',
        busy_calendars: null,
        book_into: null,
        receives_bookings: true,
        source: 'workspace',
        created_at: null,
      });
      expect(list[1]).toEqual(added);
      expect(outcome.page).toEqual({ nextCursor: null, hasMore: false });
      expect(JSON.stringify(outcome)).not.toMatch(/ANN_CALDAV|v1\.|hunter2/);
      expect((await run('ann', 'get_calendar', { params: { calendar_id: added.id } })).outcome.data).toEqual(added);
    });

    it("shows another user's accounts to those who act for them, an empty list to anyone else", async () => {
      await add('ann');
      expect(((await run('ada', 'list_calendars', { query: { user: 'ann' } })).outcome.data as unknown[]).length).toBe(2);
      expect(((await run('max', 'list_calendars', { query: { user: USERS.ann } })).outcome.data as unknown[]).length).toBe(2);
      expect((await run('ben', 'list_calendars', { query: { user: 'ann' } })).outcome.data).toEqual([]);
      expect((await run('ben', 'list_calendars')).outcome.data).toEqual([]);
    });

    it("answers 404 calendar_not_found alike for an unknown id, a malformed one and someone else's", async () => {
      const added = (await add('ann')).data as CalendarAccount;
      for (const id of ['cal_unknown000', 'not-an-id', added.id]) {
        expect(await scheduleErrorOf(run('ben', 'get_calendar', { params: { calendar_id: id } }))).toEqual(
          refusal('calendar_not_found', { id }, NO_ACCOUNT),
        );
      }
    });
  });

  describe('remove_calendar', () => {
    it('removes an API account and answers it as it was; a replay answers the same', async () => {
      const added = (await add('ann')).data as CalendarAccount;
      const first = await run('ann', 'remove_calendar', { params: { calendar_id: added.id }, key: 'rm-1' });
      expect(first.outcome).toEqual({ status: 200, data: added });
      expect((await run('ann', 'remove_calendar', { params: { calendar_id: added.id }, key: 'rm-1' })).outcome).toEqual(first.outcome);
      expect(await scheduleErrorOf(run('ann', 'remove_calendar', { params: { calendar_id: added.id } }))).toEqual(
        refusal('calendar_not_found', { id: added.id }, NO_ACCOUNT),
      );
      expect(JSON.parse(await storedText(USERS.ann))).toEqual([FILE_ACCOUNT]);
    });

    it("refuses the workspace file's own account with 409 calendar_from_workspace", async () => {
      const [fileAccount] = (await run('ann', 'list_calendars')).outcome.data as CalendarAccount[];
      expect(await scheduleErrorOf(run('ann', 'remove_calendar', { params: { calendar_id: fileAccount!.id } }))).toEqual(
        refusal(
          'calendar_from_workspace',
          { id: fileAccount!.id },
          'This account comes from the workspace file, which would bring it back on its next load; remove it from the file instead.',
        ),
      );
    });

    it("answers 404 for someone else's account and leaves it", async () => {
      const added = (await add('ann')).data as CalendarAccount;
      expect(await scheduleErrorOf(run('ben', 'remove_calendar', { params: { calendar_id: added.id } }))).toEqual(
        refusal('calendar_not_found', { id: added.id }, NO_ACCOUNT),
      );
      expect(await storedText(USERS.ann)).toContain(added.id);
    });
  });

  describe('test_calendar', () => {
    it('reads the account now: its calendars, which block time, which gets bookings', async () => {
      const added = (await add('ann', { busy_calendars: ['Family'], book_into: 'Work' })).data as CalendarAccount;
      const { outcome } = await run('annRead', 'test_calendar', { params: { calendar_id: added.id } });
      expect(outcome).toEqual({
        status: 200,
        data: {
          id: added.id,
          calendars: [
            { name: 'Work', url: `${URL_}calendars/ann/work/`, busy: false, book_into: true },
            { name: 'Family', url: `${URL_}calendars/ann/family/`, busy: true, book_into: false },
          ],
        } satisfies CalendarAccountTest,
      });
    });

    it('tests a workspace account with the password of its environment variable', async () => {
      const [fileAccount] = (await run('ann', 'list_calendars')).outcome.data as CalendarAccount[];
      expect((await run('ann', 'test_calendar', { params: { calendar_id: fileAccount!.id } })).outcome.status).toBe(200);
    });

    it('reports a password changed on the server as calendar_credentials_refused, without the password', async () => {
      const added = (await add('ann')).data as CalendarAccount;
      fake.server.password = 'changed-on-the-server';
      const error = await run('ann', 'test_calendar', { params: { calendar_id: added.id } }).catch((e: Error) => e);
      expect(error).toMatchObject({ code: 'calendar_credentials_refused' });
      expect((error as Error).message).not.toContain(PASSWORD);
    });

    it('answers calendar_key_missing without a key, calendar_password_unavailable with another key or an unset variable', async () => {
      const added = (await add('ann')).data as CalendarAccount;
      const [fileAccount] = (await run('ann', 'list_calendars')).outcome.data as CalendarAccount[];
      const keyless = { ...deps, calendarAccounts: { connector: fakeConnector(calDavPasswords({ env })).connector } };
      expect(await scheduleErrorOf(run('ann', 'test_calendar', { params: { calendar_id: added.id } }, keyless))).toEqual(
        refusal('calendar_key_missing', {}, NO_KEY),
      );
      const otherKey = passwordSealer(randomBytes(32));
      const rekeyed = {
        ...deps,
        calendarAccounts: { connector: fakeConnector(calDavPasswords({ env: {}, unseal: otherKey.unseal })).connector, sealer: otherKey },
      };
      for (const [id, message] of [
        [added.id, `CalDAV account ann at ${URL_} has a stored password that this server's calendar key does not open.`],
        [
          fileAccount!.id,
          'CalDAV account ann at https://file.example.com/ has no password: the environment variable ANN_CALDAV is not set.',
        ],
      ] as const) {
        expect(await scheduleErrorOf(run('ann', 'test_calendar', { params: { calendar_id: id } }, rekeyed))).toEqual(
          refusal('calendar_password_unavailable', { reason: 'no_password' }, message),
        );
      }
    });
  });

  describe('a workspace reload', () => {
    it('keeps the accounts added through the API after the file’s, and takes the file’s changes', async () => {
      const added = (await add('ann')).data as CalendarAccount;
      const changed = { ...FILE_ACCOUNT, url: 'https://moved.example.com/' };
      await loadWorkspace({ store, clock, ids: randomIds }, parseWorkspace(JSON.stringify(workspace([changed]))));
      const list = (await run('ann', 'list_calendars')).outcome.data as CalendarAccount[];
      expect(list.map((c) => [c.source, c.url, c.id === added.id])).toEqual([
        ['workspace', 'https://moved.example.com/', false],
        ['api', URL_, true],
      ]);
      // A file without calendars for the user keeps them too.
      await loadWorkspace({ store, clock, ids: randomIds }, parseWorkspace(JSON.stringify(workspace([]))));
      expect(((await run('ann', 'list_calendars')).outcome.data as CalendarAccount[]).map((c) => c.id)).toEqual([added.id]);
    });
  });
});
