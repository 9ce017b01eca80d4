import { describe, expect, it } from 'vitest';
import { createAuthenticator, createTokenCache } from '../src/auth/authenticate.js';
import { readUserCalendars } from '../src/calendar-accounts/user-calendars.js';
import { randomIds } from '../src/ids.js';
import type { PersonDetail } from '../src/people/person-view.js';
import { loadWorkspace } from '../src/workspace/load-workspace.js';
import { parseWorkspace } from '../src/workspace/parse-workspace.js';
import { scheduleErrorOf } from './support/errors.js';
import { PP, PP_T0, PP_TOKENS, type PpCaller, peopleSuite, peopleWorkspace, URSULA_EVENT_TYPE } from './support/people-calls.js';
import { storeFixtures } from './support/stores.js';

// docs/api/people.md: the people endpoints through `execute`, as every front
// end calls them, on SQLite and PostgreSQL.

const T0 = PP_T0;
const error = (code: string, details: Record<string, unknown> = {}) => ({ code, details, retryAfterSeconds: undefined });
const forbidden = (reason: string, more: Record<string, unknown> = {}) => error('forbidden', { reason, ...more });
const NEW = { username: 'bea', email: 'bea@people.test', name: 'Bea Host', timezone: 'Europe/Paris' };

describe.each(storeFixtures())('people on $name', (fixture) => {
  const pp = peopleSuite(fixture);
  const { call } = pp;
  const person = async (caller: PpCaller, ref: string) =>
    (await call(caller, 'get_person', { params: { user_id: ref } })).outcome.data as PersonDetail;
  const patch = (caller: PpCaller, ref: string, body: Record<string, unknown>, ifMatch = '1') =>
    call(caller, 'update_person', { params: { user_id: ref }, body, ifMatch });
  const personEvents = async () =>
    (
      await pp.store.db
        .selectFrom('outbox')
        .select(['event_type', 'subject_uid', 'payload_json'])
        .orderBy('created_at')
        .orderBy('id')
        .execute()
    )
      .filter((e) => e.event_type.startsWith('person.'))
      .map((e) => ({ type: e.event_type, subject: e.subject_uid, data: JSON.parse(e.payload_json) as PersonDetail }));

  describe('GET /v1/people/:user_id', () => {
    it('answers the caller for me, by username and by id (any case), with the version as ETag', async () => {
      const { outcome } = await call('ursula', 'get_person', { params: { user_id: 'me' } });
      expect(outcome).toEqual({
        status: 200,
        version: 1,
        data: {
          user_id: PP.ursula,
          username: 'ursula',
          name: 'Ursula User',
          email: 'ursula@people.test',
          timezone: 'UTC',
          role: 'user',
          manages: [],
          reminders: true,
          deactivated_at: null,
          version: 1,
          created_at: T0,
          updated_at: T0,
        },
      });
      expect(await person('ursula', 'ursula')).toEqual(outcome.data);
      expect(await person('ursula', PP.ursula.toUpperCase())).toEqual(outcome.data);
      expect((await person('mia', 'mia')).manages).toEqual([PP.ursula]);
    });

    it('shows whom list_people shows: a manager the managed, a user no one else (404 like an unknown person)', async () => {
      expect((await person('mia', 'ursula')).username).toBe('ursula');
      expect(await scheduleErrorOf(call('mia', 'get_person', { params: { user_id: 'oscar' } }))).toMatchObject(
        error('person_not_found', { user_id: 'oscar' }),
      );
      expect(await scheduleErrorOf(call('ursula', 'get_person', { params: { user_id: PP.olga } }))).toMatchObject(
        error('person_not_found', { user_id: PP.olga }),
      );
      expect(await scheduleErrorOf(call('olga', 'get_person', { params: { user_id: 'nobody' } }))).toMatchObject(error('person_not_found'));
      expect((await person('ada', 'olga')).role).toBe('owner');
    });
  });

  describe('POST /v1/people', () => {
    it('lets an admin add a person: 201, Location, version 1, person.created in the same transaction', async () => {
      const { outcome } = await call('ada', 'create_person', { body: NEW });
      const data = outcome.data as PersonDetail;
      expect(outcome).toMatchObject({ status: 201, version: 1, location: `/v1/people/${data.user_id}` });
      expect(data).toMatchObject({ ...NEW, role: 'user', manages: [], deactivated_at: null, version: 1 });
      expect(await person('ada', 'bea')).toEqual(data);
      expect(await personEvents()).toEqual([{ type: 'person.created', subject: data.user_id, data }]);
    });

    it('refuses a user or a manager (403 forbidden, role), and writes nothing', async () => {
      for (const caller of ['ursula', 'mia'] as const) {
        expect(await scheduleErrorOf(call(caller, 'create_person', { body: NEW }))).toMatchObject(forbidden('role'));
      }
      expect(await pp.store.db.selectFrom('users').select('id').where('username', '=', 'bea').execute()).toEqual([]);
    });

    it('lets only an owner make an owner', async () => {
      expect(await scheduleErrorOf(call('ada', 'create_person', { body: { ...NEW, role: 'owner' } }))).toMatchObject(
        forbidden('owner_only', { fields: ['role'] }),
      );
      const made = (await call('olga', 'create_person', { body: { ...NEW, role: 'owner' } })).outcome.data as PersonDetail;
      expect(made.role).toBe('owner');
    });

    it('puts a person added without a zone in UTC, with no calendars yet', async () => {
      const { timezone: _, ...noZone } = NEW;
      const made = (await call('ada', 'create_person', { body: noZone })).outcome.data as PersonDetail;
      expect(made.timezone).toBe('UTC');
      expect((await readUserCalendars(pp.store.db, made.user_id)).calendars).toEqual([]);
    });

    it('answers 409 username_taken for a username in use', async () => {
      expect(await scheduleErrorOf(call('ada', 'create_person', { body: { ...NEW, username: 'oscar' } }))).toMatchObject(
        error('username_taken', { username: 'oscar' }),
      );
    });

    it('requires an Idempotency-Key and replays the first answer for the same key', async () => {
      expect(await scheduleErrorOf(call('ada', 'create_person', { body: NEW, key: null }))).toMatchObject(error('missing_idempotency_key'));
      const first = await call('ada', 'create_person', { body: NEW, key: 'add-bea' });
      const again = await call('ada', 'create_person', { body: NEW, key: 'add-bea' });
      expect(again.replayed).toBe(true);
      expect(again.outcome).toEqual(first.outcome);
      expect(await pp.store.db.selectFrom('users').select('id').where('username', '=', 'bea').execute()).toHaveLength(1);
    });

    it('judges fields as the workspace file does: the zone, the username, manages by name or id', async () => {
      expect(await scheduleErrorOf(call('ada', 'create_person', { body: { ...NEW, timezone: 'Mars/Base' } }))).toMatchObject(
        error('validation_error', { fields: ['timezone'] }),
      );
      expect(await scheduleErrorOf(call('ada', 'create_person', { body: { ...NEW, username: 'no spaces' } }))).toMatchObject(
        error('validation_error', { fields: ['username'] }),
      );
      expect(await scheduleErrorOf(call('ada', 'create_person', { body: { ...NEW, role: 'manager', manages: ['ghost'] } }))).toMatchObject(
        error('validation_error', { fields: ['manages'] }),
      );
      const made = await call('ada', 'create_person', { body: { ...NEW, role: 'manager', manages: ['oscar', PP.ursula, 'oscar'] } });
      expect((made.outcome.data as PersonDetail).manages).toEqual([PP.oscar, PP.ursula]);
    });
  });

  describe('PATCH /v1/people/:user_id', () => {
    it('lets a person edit their own name and zone: version 2, ETag, person.updated', async () => {
      pp.clock.set('2026-06-01T10:00:00.000Z');
      const { outcome } = await patch('ursula', 'me', { name: 'Ursula U.', timezone: 'Asia/Tokyo' });
      expect(outcome).toMatchObject({ status: 200, version: 2 });
      expect(outcome.data).toMatchObject({ name: 'Ursula U.', timezone: 'Asia/Tokyo', version: 2, updated_at: '2026-06-01T10:00:00.000Z' });
      expect(await personEvents()).toEqual([{ type: 'person.updated', subject: PP.ursula, data: outcome.data }]);
    });

    it('lets a person switch their own reminders off, and refuses a switch that is not true or false', async () => {
      expect(await scheduleErrorOf(patch('ursula', 'me', { reminders: 'no' }))).toMatchObject({
        code: 'validation_error',
        details: { fields: ['reminders'] },
      });
      const { outcome } = await patch('ursula', 'me', { reminders: false });
      expect(outcome).toMatchObject({ status: 200, version: 2, data: { reminders: false } });
      expect(await personEvents()).toEqual([{ type: 'person.updated', subject: PP.ursula, data: outcome.data }]);
    });

    it('refuses a person changing their own role or manages (403 forbidden naming the fields)', async () => {
      expect(await scheduleErrorOf(patch('ursula', 'me', { role: 'admin', name: 'U' }))).toMatchObject(
        forbidden('role', { fields: ['role'] }),
      );
      expect(await scheduleErrorOf(patch('mia', 'me', { manages: ['oscar'] }))).toMatchObject(forbidden('role', { fields: ['manages'] }));
      expect((await person('ursula', 'me')).version).toBe(1);
    });

    it('refuses fields no one changes with 422 field_immutable', async () => {
      expect(await scheduleErrorOf(patch('olga', 'ursula', { username: 'ulla', name: 'U' }))).toMatchObject(
        error('field_immutable', { fields: ['username'] }),
      );
    });

    it('needs If-Match, and answers a stale one 409 version_conflict with the current version', async () => {
      expect(await scheduleErrorOf(call('ursula', 'update_person', { params: { user_id: 'me' }, body: { name: 'U' } }))).toMatchObject(
        error('missing_if_match'),
      );
      await patch('ursula', 'me', { name: 'U1' });
      expect(await scheduleErrorOf(patch('ursula', 'me', { name: 'U2' }, '1'))).toMatchObject(
        error('version_conflict', { current_version: 2 }),
      );
    });

    it("lets a manager edit a managed person's profile but not their role", async () => {
      expect((await patch('mia', 'ursula', { name: 'Ursula M.' })).outcome.data).toMatchObject({ name: 'Ursula M.' });
      expect(await scheduleErrorOf(patch('mia', 'ursula', { role: 'manager' }, '2'))).toMatchObject(
        forbidden('role', { fields: ['role'] }),
      );
    });

    it('lets an admin change roles and managers, but never an owner', async () => {
      const { outcome } = await patch('ada', 'oscar', { role: 'manager', manages: ['ursula'] });
      expect(outcome.data).toMatchObject({ role: 'manager', manages: [PP.ursula] });
      expect(await scheduleErrorOf(patch('ada', 'olga', { name: 'O' }))).toMatchObject(forbidden('owner_only'));
      expect(await scheduleErrorOf(patch('ada', 'ursula', { role: 'owner' }))).toMatchObject(forbidden('owner_only', { fields: ['role'] }));
    });

    it('keeps the last active owner: demoting them is 409 last_owner, once another owner exists it is allowed', async () => {
      expect(await scheduleErrorOf(patch('olga', 'me', { role: 'admin' }))).toMatchObject(error('last_owner'));
      await patch('olga', 'ada', { role: 'owner' });
      expect((await patch('olga', 'me', { role: 'admin' })).outcome.data).toMatchObject({ role: 'admin' });
    });

    it('says in each refusal who may do it instead', async () => {
      const messageOf = async (attempt: Promise<unknown>) => (await scheduleErrorOf(attempt)).message;
      expect(await messageOf(call('ursula', 'create_person', { body: NEW }))).toBe('Only admins and owners may add people.');
      expect(await messageOf(patch('ada', 'olga', { name: 'O' }))).toBe('Only an owner may change an owner.');
      expect(await messageOf(patch('ada', 'ursula', { role: 'owner' }))).toBe('Only an owner may make someone an owner.');
      expect(await messageOf(patch('olga', 'me', { role: 'admin' }))).toBe(
        'This is the last active owner; make someone else an owner first.',
      );
    });

    it('says what each other refusal is about, in full', async () => {
      const deactivate = (ref: string) => call('ursula', 'deactivate_person', { params: { user_id: ref } });
      const reactivate = (ref: string) => call('ursula', 'reactivate_person', { params: { user_id: ref } });
      // Each attempt, then its code, message and details, in turn.
      const refusals: [() => Promise<unknown>, string, string, Record<string, unknown>][] = [
        [
          () => patch('ursula', 'me', { role: 'admin' }),
          'forbidden',
          'Only admins and owners may change roles and managers.',
          { reason: 'role', fields: ['role'] },
        ],
        [() => deactivate('me'), 'forbidden', 'Only admins and owners may deactivate people.', { reason: 'role' }],
        [() => reactivate('me'), 'forbidden', 'Only admins and owners may reactivate people.', { reason: 'role' }],
        [
          () => call('ada', 'create_person', { body: { ...NEW, username: 'oscar' } }),
          'username_taken',
          'The username "oscar" is taken.',
          { username: 'oscar' },
        ],
        [() => person('ada', 'nobody'), 'person_not_found', 'No person "nobody".', { user_id: 'nobody' }],
        [() => patch('ursula', 'me', { name: 'U' }, '7'), 'version_conflict', 'The person is at version 1.', { current_version: 1 }],
        [() => patch('olga', 'mia', { manages: ['ghost'] }), 'validation_error', 'manages: no person "ghost".', { fields: ['manages'] }],
        [
          () => patch('olga', 'ursula', { username: 'ulla', nme: 'U' }),
          'field_immutable',
          'These fields cannot be patched: username, nme. Send any of name, email, timezone, role, manages, reminders. Did you mean name (not nme)?',
          { fields: ['username', 'nme'] },
        ],
        [
          () => patch('olga', 'ursula', {}),
          'validation_error',
          'Send at least one of name, email, timezone, role, manages, reminders.',
          { fields: [] },
        ],
      ];
      for (const [attempt, code, message, details] of refusals) {
        expect(await scheduleErrorOf(attempt)).toEqual({ code, message, details, retryAfterSeconds: undefined });
      }
    });

    it('changes only what the patch names: an email alone keeps the name, the zone and the role', async () => {
      const { outcome } = await patch('ursula', 'me', { email: 'u2@people.test' });
      expect(outcome.data).toMatchObject({ email: 'u2@people.test', name: 'Ursula User', timezone: 'UTC', role: 'user', version: 2 });
    });

    it("clears a manager's list with an empty manages", async () => {
      expect((await patch('olga', 'mia', { manages: [] })).outcome.data).toMatchObject({ manages: [] });
    });

    it('lets the last owner edit their own profile, and name their own role again', async () => {
      expect((await patch('olga', 'me', { name: 'Olga O.' })).outcome.data).toMatchObject({ name: 'Olga O.', role: 'owner' });
      expect((await patch('olga', 'me', { role: 'owner' }, '2')).outcome.data).toMatchObject({ role: 'owner', version: 3 });
    });

    it('judges only an owner by the owners left: with none active, an admin still changes roles', async () => {
      // No API call leaves an organization so; the database may (an owner deactivated by hand).
      await pp.store.db.updateTable('users').set({ deactivated_at: T0 }).where('id', '=', PP.olga).execute();
      expect((await patch('ada', 'mia', { role: 'user' })).outcome.data).toMatchObject({ role: 'user' });
    });

    it('counts a deactivated owner as no owner', async () => {
      await patch('olga', 'ada', { role: 'owner' });
      await call('olga', 'deactivate_person', { params: { user_id: 'ada' } });
      expect(await scheduleErrorOf(patch('olga', 'me', { role: 'admin' }))).toMatchObject(error('last_owner'));
    });
  });

  describe('deactivate and reactivate', () => {
    it("stops every token of the person at once, even in a process that caches lookups, and their event types' bookings", async () => {
      const cache = createTokenCache();
      const authenticate = createAuthenticator(pp, { cacheTtlMs: 60_000, cache });
      pp.deps = { ...pp.deps, tokenCache: cache };
      expect((await authenticate(PP_TOKENS.ursula))?.account.id).toBe(PP.ursula);

      const { outcome } = await call('ada', 'deactivate_person', { params: { user_id: 'ursula' } });
      expect(outcome).toMatchObject({ status: 200, version: 2, data: { deactivated_at: T0, version: 2 } });
      expect(await authenticate(PP_TOKENS.ursula)).toBeUndefined();
      expect(await authenticate(PP_TOKENS.ursulaNoTokens)).toBeUndefined();
      expect((await authenticate(PP_TOKENS.oscar))?.account.id).toBe(PP.oscar);
      expect(await personEvents()).toEqual([{ type: 'person.deactivated', subject: PP.ursula, data: outcome.data }]);

      const booking = {
        event_type_id: URSULA_EVENT_TYPE,
        start: '2026-06-02T10:00:00Z',
        attendee: { name: 'Kim', email: 'kim@example.com', timezone: 'UTC' },
      };
      expect(await scheduleErrorOf(call('olga', 'create_booking', { body: booking }))).toMatchObject(error('event_type_inactive'));
      const check = await call('olga', 'check_slot', { query: { event_type_id: URSULA_EVENT_TYPE, start: '2026-06-02T10:00:00Z' } });
      expect(check.outcome.data).toMatchObject({ available: false, reason: 'event_type_inactive' });

      pp.clock.set('2026-06-01T09:01:00.000Z');
      const back = await call('ada', 'reactivate_person', { params: { user_id: 'ursula' } });
      expect(back.outcome.data).toMatchObject({ deactivated_at: null, version: 3 });
      expect((await authenticate(PP_TOKENS.ursula))?.account.id).toBe(PP.ursula);
      expect((await personEvents()).map((e) => e.type)).toEqual(['person.deactivated', 'person.updated']);
    });

    it("keeps a deactivated host's series active, and a resume books nothing for them (skipped, cause event_type_inactive)", async () => {
      const body = {
        host_user_id: PP.ursula,
        event_type_id: URSULA_EVENT_TYPE,
        attendee: { name: 'Kim', email: 'kim@example.com' },
        frequency: 'weekly',
        weekdays: ['mon'],
        time: '10:00',
        timezone: 'UTC',
        starts_on: '2026-06-08',
        count: 2,
      };
      const made = (await call('olga', 'create_series', { body })).outcome.data as { series: { uid: string }; occurrences: unknown[] };
      expect(made.occurrences).toHaveLength(2);
      const uid = made.series.uid;
      await call('ada', 'deactivate_person', { params: { user_id: 'ursula' } });
      expect((await call('olga', 'get_series', { params: { uid } })).outcome.data).toMatchObject({ status: 'active' });
      await call('olga', 'pause_series', { params: { uid } });
      const resumed = (await call('olga', 'resume_series', { params: { uid } })).outcome.data as {
        created: number;
        skipped: { reason: string; cause: string }[];
      };
      expect(resumed.created).toBe(0);
      expect(resumed.skipped.map((s) => [s.reason, s.cause])).toEqual([
        ['conflict', 'event_type_inactive'],
        ['conflict', 'event_type_inactive'],
      ]);
    });

    it('answers a repeat unchanged, with no second event', async () => {
      await call('ada', 'deactivate_person', { params: { user_id: 'ursula' } });
      const again = await call('ada', 'deactivate_person', { params: { user_id: 'ursula' } });
      expect(again.outcome).toMatchObject({ version: 2 });
      expect(await personEvents()).toHaveLength(1);
    });

    it('is for admins and owners; an owner only by an owner; never the last active owner', async () => {
      expect(await scheduleErrorOf(call('mia', 'deactivate_person', { params: { user_id: 'ursula' } }))).toMatchObject(forbidden('role'));
      expect(await scheduleErrorOf(call('ada', 'deactivate_person', { params: { user_id: 'olga' } }))).toMatchObject(
        forbidden('owner_only'),
      );
      expect(await scheduleErrorOf(call('olga', 'deactivate_person', { params: { user_id: 'me' } }))).toMatchObject(error('last_owner'));
      expect(await scheduleErrorOf(call('ursula', 'reactivate_person', { params: { user_id: 'me' } }))).toMatchObject(forbidden('role'));
    });
  });

  it('a workspace load that changes a person moves their version on; an unchanged one does not', async () => {
    const load = (workspace: Record<string, unknown>) =>
      loadWorkspace({ ...pp, ids: randomIds }, parseWorkspace(JSON.stringify(workspace)));
    await load(peopleWorkspace());
    expect((await person('olga', 'oscar')).version).toBe(1);
    const changed = peopleWorkspace();
    (changed.users as { username: string; name?: string }[]).find((u) => u.username === 'oscar')!.name = 'Oscar Renamed';
    await load(changed);
    expect(await person('olga', 'oscar')).toMatchObject({ name: 'Oscar Renamed', version: 2 });
  });
});
