import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Principal } from '../src/auth/principal.js';
import { type ManualClock, manualClock } from '../src/clock.js';
import type { ExecuteDeps } from '../src/operations/execute.js';
import type { ListOutcome } from '../src/operations/operation.js';
import type { Store } from '../src/storage/store.js';
import type { Delivery, Webhook, WebhookWithSecret } from '../src/webhooks/webhook-view.js';
import { testDeps } from './support/deps.js';
import { scheduleErrorOf } from './support/errors.js';
import { storeFixtures } from './support/stores.js';
import { callWebhooks, loadWebhookWorkspace, seedDelivery, type WhCaller } from './support/webhook-calls.js';

// docs/webhooks.md "Managing webhooks": every webhook operation through
// `execute`, on SQLite and PostgreSQL, with its refusals.

const T0 = '2026-05-04T09:00:00.000Z';
const MINUTE = 60_000;
const at = (minutes: number) => new Date(Date.parse(T0) + minutes * MINUTE).toISOString();
const TARGET = 'https://hooks.example.com/in';
const UNKNOWN = 'a1000000-0000-4000-8000-0000000000ff';
/** Standard Webhooks: `whsec_` and the base64 of 32 bytes (43 characters and one `=`). */
const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;

const error = (code: string, details: Record<string, unknown> = {}) => ({ code, details, retryAfterSeconds: undefined });
const badFields = (...fields: string[]) => error('validation_error', { fields });
/** What an event name a webhook cannot subscribe to is told, after its field. */
const ONE_OF_THE_EVENTS =
  'must be one of booking.created, booking.requested, booking.confirmed, booking.declined, booking.canceled, booking.rescheduled, booking.updated, booking.host_changed, booking.location_changed, booking.no_show, booking.no_show_cleared, booking.reminder, series.created, series.paused, series.resumed, series.ended, series.host_changed, series.updated, event_type.created, event_type.updated, event_type.deleted, availability.updated, time_off.created, time_off.updated, time_off.deleted, person.created, person.updated, person.deactivated';

describe.each(storeFixtures())('webhook management on $name', (fixture) => {
  let store: Store;
  let clock: ManualClock;
  let deps: ExecuteDeps;
  let who: Record<WhCaller, Principal>;

  beforeAll(async () => {
    store = await fixture.open();
    clock = manualClock(T0);
    deps = testDeps(store, clock);
    who = await loadWebhookWorkspace({ store, clock });
  });
  afterAll(() => fixture.cleanup());

  beforeEach(async () => {
    clock.set(T0);
    await store.db.deleteFrom('webhook_deliveries').execute();
    await store.db.deleteFrom('webhooks').execute();
  });

  const call = (caller: WhCaller, name: Parameters<typeof callWebhooks>[2], rest: Parameters<typeof callWebhooks>[3] = {}) =>
    callWebhooks(deps, who[caller], name, rest);
  const create = async (caller: WhCaller, body: Record<string, unknown> = {}) =>
    (await call(caller, 'create_webhook', { body: { url: TARGET, events: ['booking.created'], ...body } })).outcome
      .data as WebhookWithSecret;
  const stored = async (id: string) => store.db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const deliveries = async (webhookId: string) =>
    store.db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', webhookId).orderBy('id').execute();

  describe('POST /v1/webhooks', () => {
    it('answers 201 with the webhook, its secret, version 1 and its Location; the row holds that secret', async () => {
      const { outcome } = await call('ann', 'create_webhook', {
        body: { url: TARGET, events: ['booking.canceled', 'booking.created'], description: 'CRM sync' },
      });
      const data = outcome.data as WebhookWithSecret;
      expect(data.secret).toMatch(SECRET);
      expect(Buffer.from(data.secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
      expect(outcome).toEqual({
        status: 201,
        version: 1,
        location: `/v1/webhooks/${data.id}`,
        data: {
          id: data.id,
          url: TARGET,
          // Kept in the order of the event list, whatever order they were sent in.
          events: ['booking.created', 'booking.canceled'],
          description: 'CRM sync',
          status: 'active',
          paused_reason: null,
          consecutive_failures: 0,
          failing_since: null,
          created_at: T0,
          updated_at: T0,
          version: 1,
          secret: data.secret,
        },
      });
      expect(await stored(data.id)).toEqual({
        id: data.id,
        owner_user_id: who.ann.account.id,
        url: TARGET,
        events_json: '["booking.created","booking.canceled"]',
        description: 'CRM sync',
        secret: data.secret,
        previous_secret: null,
        previous_secret_until: null,
        status: 'active',
        paused_reason: null,
        consecutive_failures: 0,
        failing_since: null,
        version: 1,
        created_at: T0,
        updated_at: T0,
        // A new receiver: one request at a time until it answers promptly; not backed off.
        answers_promptly: 0,
        backoff_until: null,
      });
    });

    it('gives each webhook its own secret, keeps each event once, and stores the URL as the URL parser writes it', async () => {
      const a = await create('ann', { url: 'HTTPS://Hooks.Example.com', events: ['series.ended', 'booking.updated', 'series.ended'] });
      const b = await create('ann');
      expect(a.secret).not.toBe(b.secret);
      expect([a.url, a.events, a.description]).toEqual(['https://hooks.example.com/', ['booking.updated', 'series.ended'], null]);
    });

    it('replays the first answer, secret included, for the same key; creates nothing more', async () => {
      const body = { url: TARGET, events: ['booking.created'] };
      const first = await call('ann', 'create_webhook', { body, key: 'hook-once' });
      const again = await call('ann', 'create_webhook', { body, key: 'hook-once' });
      expect(again).toEqual({ ...first, replayed: true });
      expect(await store.db.selectFrom('webhooks').select('id').execute()).toEqual([{ id: (first.outcome.data as Webhook).id }]);
    });

    it.each([
      ['a relative URL', { url: '/hooks' }, ['url'], 'url: must be an absolute http:// or https:// URL'],
      ['another scheme', { url: 'ftp://hooks.example.com/' }, ['url'], 'url: must be an absolute http:// or https:// URL'],
      ['credentials in the URL', { url: 'https://user:pw@hooks.example.com/' }, ['url'], 'url: must not carry a user name or password'],
      [
        'a URL over 2000 characters',
        { url: `https://hooks.example.com/${'a'.repeat(1975)}` },
        ['url'],
        'url: must be at most 2000 characters',
      ],
      ['no URL', { url: undefined }, ['url'], 'url: is required'],
      ['no events', { events: [] }, ['events'], 'events: must name at least one event'],
      ['an unknown event name', { events: ['booking.created', 'booking.deleted'] }, ['events.1'], `events.1: ${ONE_OF_THE_EVENTS}`],
      ['a wildcard', { events: ['*'] }, ['events.0'], `events.0: ${ONE_OF_THE_EVENTS}`],
      ['the test event, which is not subscribed to', { events: ['webhook.test'] }, ['events.0'], `events.0: ${ONE_OF_THE_EVENTS}`],
      [
        'a description over 255 characters',
        { description: 'd'.repeat(256) },
        ['description'],
        'description: must be at most 255 characters',
      ],
    ])('refuses %s: 400 validation_error naming the field, nothing stored', async (_, change, fields, message) => {
      const body = { url: TARGET, events: ['booking.created'], ...change };
      expect(await scheduleErrorOf(call('ann', 'create_webhook', { body }))).toEqual({ ...badFields(...fields), message });
      expect(await store.db.selectFrom('webhooks').select('id').execute()).toEqual([]);
    });

    it('accepts a URL of exactly 2000 characters', async () => {
      const url = `https://hooks.example.com/${'a'.repeat(1974)}`;
      expect(url).toHaveLength(2000);
      expect((await create('ann', { url })).url).toBe(url);
    });

    it.each([
      'http://127.0.0.1:8080/in',
      'http://10.1.2.3/',
      'http://172.20.0.5/',
      'http://192.168.1.10/',
      'http://169.254.169.254/latest/meta-data',
      'http://100.64.0.1/',
      'http://0.0.0.0/',
      'http://[::1]/',
      'http://[fd12::1]/',
      'http://[fe80::1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://0x7f.1/',
      'http://2130706433/',
      'http://localhost:3000/',
      'http://api.localhost/',
      'http://localhost./',
    ])('refuses the private or loopback target %s by default', async (url) => {
      expect(await scheduleErrorOf(call('ann', 'create_webhook', { body: { url, events: ['booking.created'] } }))).toEqual({
        ...badFields('url'),
        message:
          'url: must not name a private, loopback or link-local address (the server allows them only with WEBHOOK_ALLOW_PRIVATE_TARGETS=1).',
      });
    });

    it('allows private and loopback targets when the setting says so (WEBHOOK_ALLOW_PRIVATE_TARGETS=1)', async () => {
      const allowing = { ...deps, allowPrivateWebhookTargets: true };
      const { outcome } = await callWebhooks(allowing, who.ann, 'create_webhook', {
        body: { url: 'http://127.0.0.1:8080/in', events: ['booking.created'] },
      });
      expect((outcome.data as Webhook).url).toBe('http://127.0.0.1:8080/in');
    });

    it('takes public literal addresses and names: names are checked where they resolve, at connect time', async () => {
      expect((await create('ann', { url: 'http://93.184.216.34/in' })).url).toBe('http://93.184.216.34/in');
      expect((await create('ann', { url: 'http://[2001:db8::1]/in' })).url).toBe('http://[2001:db8::1]/in');
    });

    it('needs webhooks:write: 403 insufficient_scope for a read-only token, nothing stored', async () => {
      expect(await scheduleErrorOf(call('annRead', 'create_webhook', { body: { url: TARGET, events: ['booking.created'] } }))).toEqual({
        ...error('insufficient_scope', { required_scope: 'webhooks:write' }),
        message: 'This token lacks the scope webhooks:write.',
      });
      expect(await store.db.selectFrom('webhooks').select('id').execute()).toEqual([]);
    });

    it('needs an Idempotency-Key', async () => {
      expect(
        await scheduleErrorOf(call('ann', 'create_webhook', { body: { url: TARGET, events: ['booking.created'] }, key: null })),
      ).toEqual({ ...error('missing_idempotency_key'), message: 'This operation requires an Idempotency-Key.' });
    });
  });

  describe('GET /v1/webhooks and /v1/webhooks/:id', () => {
    it('lists only the caller’s own webhooks, newest first; an admin sees only hers', async () => {
      const first = await create('ann');
      clock.set(at(1));
      const ben = await create('ben');
      clock.set(at(2));
      const second = await create('ann', { events: ['series.created'] });
      clock.set(at(3));
      const ada = await create('ada');
      const { secret: _, ...secondView } = second;
      const list = (await call('ann', 'list_webhooks')).outcome as ListOutcome;
      expect(list).toEqual({
        status: 200,
        data: [secondView, (({ secret: _s, ...view }) => view)(first)],
        page: { nextCursor: null, hasMore: false },
      });
      expect(((await call('ada', 'list_webhooks')).outcome.data as Webhook[]).map((w) => w.id)).toEqual([ada.id]);
      expect(((await call('ben', 'list_webhooks')).outcome.data as Webhook[]).map((w) => w.id)).toEqual([ben.id]);
      expect(((await call('annRead', 'list_webhooks')).outcome.data as Webhook[]).map((w) => w.id)).toEqual([second.id, first.id]);
    });

    it('pages by created_at then id, both descending; a cursor of another account’s list is refused', async () => {
      const made: string[] = [];
      for (let i = 0; i < 5; i++) {
        // Two share each instant, so the id breaks the tie.
        clock.set(at(Math.floor(i / 2)));
        made.push((await create('ann')).id);
      }
      const order = made
        .map((id, i) => ({ id, created: at(Math.floor(i / 2)) }))
        .sort((a, b) => b.created.localeCompare(a.created) || b.id.localeCompare(a.id))
        .map((w) => w.id);
      const pages: string[][] = [];
      let cursor: string | undefined;
      do {
        const page = (await call('ann', 'list_webhooks', { query: { limit: '2', ...(cursor ? { cursor } : {}) } })).outcome as ListOutcome;
        pages.push((page.data as Webhook[]).map((w) => w.id));
        cursor = page.page.nextCursor ?? undefined;
      } while (cursor !== undefined);
      expect(pages).toEqual([order.slice(0, 2), order.slice(2, 4), order.slice(4)]);
      const firstPage = (await call('ann', 'list_webhooks', { query: { limit: 2 } })).outcome as ListOutcome;
      expect(await scheduleErrorOf(call('ben', 'list_webhooks', { query: { cursor: firstPage.page.nextCursor } }))).toEqual({
        ...error('invalid_query_param', { param: 'cursor' }),
        message: 'The cursor is not valid for this query.',
      });
      expect(await scheduleErrorOf(call('ann', 'list_webhooks', { query: { limit: '0' } }))).toEqual({
        ...error('invalid_query_param', { param: 'limit' }),
        message: 'limit: must be an integer from 1 to 100.',
      });
    });

    it('answers one webhook without its secret, with its version; an upper-case id reads it too', async () => {
      const { secret: _, ...view } = await create('ann');
      expect((await call('ann', 'get_webhook', { params: { id: view.id } })).outcome).toEqual({ status: 200, data: view, version: 1 });
      expect((await call('ann', 'get_webhook', { params: { id: view.id.toUpperCase() } })).outcome.data).toEqual(view);
    });

    it.each([
      ['another account’s', 'ben'],
      ['an admin asking for another’s', 'ada'],
    ] as const)('answers %s webhook 404 webhook_not_found, as an unknown or malformed id', async (_, caller) => {
      const { id } = await create('ann');
      for (const asked of [id, UNKNOWN, 'not-a-uuid']) {
        expect(await scheduleErrorOf(call(caller, 'get_webhook', { params: { id: asked } }))).toEqual({
          ...error('webhook_not_found', { id: asked }),
          message: 'No webhook with this id.',
        });
      }
    });

    it('needs webhooks:read', async () => {
      expect(await scheduleErrorOf(call('annBookings', 'list_webhooks'))).toEqual({
        ...error('insufficient_scope', { required_scope: 'webhooks:read' }),
        message: 'This token lacks the scope webhooks:read.',
      });
    });
  });

  describe('PATCH /v1/webhooks/:id', () => {
    /** `ifMatch` null sends none. */
    const patch = (caller: WhCaller, id: string, body: unknown, ifMatch: string | null = '"1"') =>
      call(caller, 'update_webhook', { params: { id }, body, ifMatch: ifMatch ?? undefined, key: null });

    it('changes url, events and description, bumps the version and updated_at; the secret stays', async () => {
      const made = await create('ann', { description: 'old' });
      clock.set(at(5));
      const { outcome } = await patch('ann', made.id, { url: 'https://other.example.com/x', events: ['series.paused'], description: null });
      const { secret: _, ...view } = made;
      expect(outcome).toEqual({
        status: 200,
        version: 2,
        data: { ...view, url: 'https://other.example.com/x', events: ['series.paused'], description: null, version: 2, updated_at: at(5) },
      });
      expect((await stored(made.id)).secret).toBe(made.secret);
    });

    it('a new url is a new receiver: what was learnt of the old one (prompt answers, a back-off) is forgotten', async () => {
      const made = await create('ann');
      await store.db
        .updateTable('webhooks')
        .set({ answers_promptly: 1, backoff_until: at(60) })
        .where('id', '=', made.id)
        .execute();
      await patch('ann', made.id, { description: 'same receiver' });
      expect(await stored(made.id)).toMatchObject({ answers_promptly: 1, backoff_until: at(60) });
      await patch('ann', made.id, { url: 'https://other.example.com/x' }, '"2"');
      expect(await stored(made.id)).toMatchObject({ answers_promptly: 0, backoff_until: null });
    });

    it('pauses for its owner and ends the pending deliveries; finished ones stay as they were', async () => {
      const made = await create('ann');
      await seedDelivery(store, {
        id: 'd-pending',
        webhook_id: made.id,
        event_id: 'e1',
        created_at: T0,
        attempts: 2,
        last_status_code: 500,
      });
      await seedDelivery(store, { id: 'd-done', webhook_id: made.id, event_id: 'e2', created_at: T0, status: 'succeeded', attempts: 1 });
      const { outcome } = await patch('ann', made.id, { status: 'paused' });
      expect(outcome.data).toMatchObject({ status: 'paused', paused_reason: 'owner', version: 2 });
      expect((await deliveries(made.id)).map((d) => [d.id, d.status, d.attempts, d.last_status_code, d.last_error])).toEqual([
        ['d-done', 'succeeded', 1, null, null],
        ['d-pending', 'failed', 2, 500, 'The webhook was paused by its owner.'],
      ]);
    });

    it.each([
      ['paused by failures', { status: 'paused', paused_reason: 'failures' }],
      ['disabled by a 410', { status: 'disabled', paused_reason: 'gone' }],
      ['paused by its owner', { status: 'paused', paused_reason: 'owner' }],
    ] as const)('resumes a webhook %s and clears its run of failures', async (_, state) => {
      const made = await create('ann');
      await store.db
        .updateTable('webhooks')
        .set({ ...state, consecutive_failures: 7, failing_since: at(-600), backoff_until: at(60) })
        .where('id', '=', made.id)
        .execute();
      const { outcome } = await patch('ann', made.id, { status: 'active' });
      expect(outcome.data).toMatchObject({
        status: 'active',
        paused_reason: null,
        consecutive_failures: 0,
        failing_since: null,
        version: 2,
      });
      expect((await stored(made.id)).backoff_until).toBeNull();
    });

    it('bumps the version even when nothing changed, and takes If-Match as "N", N or *', async () => {
      const made = await create('ann');
      expect((await patch('ann', made.id, { events: ['booking.created'] }, '"1"')).outcome.version).toBe(2);
      expect((await patch('ann', made.id, { description: 'x' }, '2')).outcome.version).toBe(3);
      expect((await patch('ann', made.id, { description: 'y' }, '*')).outcome.version).toBe(4);
    });

    it.each([
      ['an old version', '"1"'],
      ['a weak tag', 'W/"2"'],
      ['a list', '"2", "3"'],
    ])('answers %s 409 version_conflict with the current version, and changes nothing', async (_, ifMatch) => {
      const made = await create('ann');
      await patch('ann', made.id, { description: 'first' });
      const before = await stored(made.id);
      expect(await scheduleErrorOf(patch('ann', made.id, { description: 'second' }, ifMatch))).toEqual({
        ...error('version_conflict', { current_version: 2 }),
        message: 'The webhook is at version 2.',
      });
      expect(await stored(made.id)).toEqual(before);
    });

    it('needs If-Match: 428 missing_if_match', async () => {
      const made = await create('ann');
      expect(await scheduleErrorOf(patch('ann', made.id, { description: 'x' }, null))).toEqual({
        ...error('missing_if_match'),
        message: 'This operation requires an If-Match with the current version.',
      });
    });

    it.each([
      [
        'a key that cannot be patched',
        { secret: 'whsec_x', description: 'x' },
        ['secret'],
        'These fields cannot be patched: secret. Send any of url, events, description, status.',
      ],
      [
        'several',
        { id: UNKNOWN, owner_user_id: UNKNOWN },
        ['id', 'owner_user_id'],
        'These fields cannot be patched: id, owner_user_id. Send any of url, events, description, status.',
      ],
      ['an empty body', {}, [], 'Send at least one of url, events, description, status.'],
      ['a status an owner cannot set', { status: 'disabled' }, ['status'], 'status: must be one of active, paused'],
      [
        'a private target',
        { url: 'http://10.0.0.1/' },
        ['url'],
        'url: must not name a private, loopback or link-local address (the server allows them only with WEBHOOK_ALLOW_PRIVATE_TARGETS=1).',
      ],
      ['an unknown event', { events: ['booking.moved'] }, ['events.0'], `events.0: ${ONE_OF_THE_EVENTS}`],
    ])('refuses %s with 400 validation_error', async (_, body, fields, message) => {
      const made = await create('ann');
      expect(await scheduleErrorOf(patch('ann', made.id, body))).toEqual({ ...badFields(...fields), message });
      expect((await stored(made.id)).version).toBe(1);
    });

    it('checks the body before looking the webhook up, then answers another’s 404', async () => {
      const made = await create('ann');
      expect(await scheduleErrorOf(patch('ben', made.id, { secret: 'x' }))).toEqual({
        ...badFields('secret'),
        message: 'These fields cannot be patched: secret. Send any of url, events, description, status.',
      });
      expect(await scheduleErrorOf(patch('ben', made.id, { description: 'mine now' }))).toEqual({
        ...error('webhook_not_found', { id: made.id }),
        message: 'No webhook with this id.',
      });
    });
  });

  describe('DELETE /v1/webhooks/:id', () => {
    it('deletes the webhook and all its deliveries, answering it as it was; a second delete is 404', async () => {
      const made = await create('ann');
      const other = await create('ann');
      await seedDelivery(store, { id: 'd1', webhook_id: made.id, event_id: 'e1', created_at: T0 });
      await seedDelivery(store, { id: 'd2', webhook_id: made.id, event_id: 'e2', created_at: T0, status: 'succeeded' });
      await seedDelivery(store, { id: 'd3', webhook_id: other.id, event_id: 'e1', created_at: T0 });
      const { secret: _, ...view } = made;
      expect((await call('ann', 'delete_webhook', { params: { id: made.id } })).outcome).toEqual({ status: 200, data: view });
      expect(await store.db.selectFrom('webhooks').select('id').execute()).toEqual([{ id: other.id }]);
      expect(await store.db.selectFrom('webhook_deliveries').select('id').execute()).toEqual([{ id: 'd3' }]);
      expect(await scheduleErrorOf(call('ann', 'delete_webhook', { params: { id: made.id } }))).toEqual({
        ...error('webhook_not_found', { id: made.id }),
        message: 'No webhook with this id.',
      });
    });

    it('answers a retry with the same key as the first deletion', async () => {
      const made = await create('ann');
      const first = await call('ann', 'delete_webhook', { params: { id: made.id }, key: 'delete-once' });
      expect(await call('ann', 'delete_webhook', { params: { id: made.id }, key: 'delete-once' })).toEqual({ ...first, replayed: true });
    });

    it('leaves another account’s webhook alone: 404', async () => {
      const made = await create('ann');
      expect(await scheduleErrorOf(call('ada', 'delete_webhook', { params: { id: made.id } }))).toEqual({
        ...error('webhook_not_found', { id: made.id }),
        message: 'No webhook with this id.',
      });
      expect((await stored(made.id)).id).toBe(made.id);
    });
  });

  describe('POST /v1/webhooks/:id/rotate-secret', () => {
    it('answers a new secret once and keeps the previous one signing for 24 hours; the version goes up', async () => {
      const made = await create('ann');
      clock.set(at(10));
      const { outcome } = await call('ann', 'rotate_webhook_secret', { params: { id: made.id } });
      const rotated = outcome.data as WebhookWithSecret;
      expect(rotated.secret).toMatch(SECRET);
      expect(rotated.secret).not.toBe(made.secret);
      expect(outcome).toEqual({
        status: 200,
        version: 2,
        data: { ...made, secret: rotated.secret, version: 2, updated_at: at(10) },
      });
      expect(await stored(made.id)).toMatchObject({
        secret: rotated.secret,
        previous_secret: made.secret,
        previous_secret_until: at(10 + 24 * 60),
      });
      // The secret is never shown again.
      expect(Object.keys((await call('ann', 'get_webhook', { params: { id: made.id } })).outcome.data as object)).not.toContain('secret');
    });

    it('drops the oldest secret when rotated again within the overlap: only the two latest sign', async () => {
      const made = await create('ann');
      const second = (await call('ann', 'rotate_webhook_secret', { params: { id: made.id } })).outcome.data as WebhookWithSecret;
      clock.set(at(60));
      const third = (await call('ann', 'rotate_webhook_secret', { params: { id: made.id } })).outcome.data as WebhookWithSecret;
      expect(await stored(made.id)).toMatchObject({
        secret: third.secret,
        previous_secret: second.secret,
        previous_secret_until: at(60 + 24 * 60),
        version: 3,
      });
    });

    it('needs an Idempotency-Key, and answers another’s webhook 404', async () => {
      const made = await create('ann');
      expect(await scheduleErrorOf(call('ann', 'rotate_webhook_secret', { params: { id: made.id }, key: null }))).toEqual({
        ...error('missing_idempotency_key'),
        message: 'This operation requires an Idempotency-Key.',
      });
      expect(await scheduleErrorOf(call('ben', 'rotate_webhook_secret', { params: { id: made.id } }))).toEqual({
        ...error('webhook_not_found', { id: made.id }),
        message: 'No webhook with this id.',
      });
      expect((await stored(made.id)).secret).toBe(made.secret);
    });
  });

  describe('GET /v1/webhooks/:id/deliveries', () => {
    it('lists one webhook’s deliveries newest first, next_attempt_at only while pending; filters by status; pages', async () => {
      const made = await create('ann');
      const other = await create('ann');
      await seedDelivery(store, {
        id: 'd-old',
        webhook_id: made.id,
        event_id: 'e1',
        created_at: at(1),
        status: 'succeeded',
        attempts: 2,
        next_attempt_at: at(2),
        last_status_code: 204,
        last_response_body: '',
        delivered_at: at(2),
      });
      await seedDelivery(store, {
        id: 'd-new',
        webhook_id: made.id,
        event_id: 'e2',
        event_type: 'series.created',
        created_at: at(3),
        attempts: 1,
        next_attempt_at: at(4),
        last_error: 'connect ECONNREFUSED',
      });
      await seedDelivery(store, { id: 'd-other', webhook_id: other.id, event_id: 'e1', created_at: at(5) });
      const newer: Delivery = {
        id: 'd-new',
        webhook_id: made.id,
        event_id: 'e2',
        event_type: 'series.created',
        status: 'pending',
        attempts: 1,
        next_attempt_at: at(4),
        last_status_code: null,
        last_response_body: null,
        last_error: 'connect ECONNREFUSED',
        created_at: at(3),
        delivered_at: null,
      };
      const older: Delivery = {
        id: 'd-old',
        webhook_id: made.id,
        event_id: 'e1',
        event_type: 'booking.created',
        status: 'succeeded',
        attempts: 2,
        next_attempt_at: null,
        last_status_code: 204,
        last_response_body: '',
        last_error: null,
        created_at: at(1),
        delivered_at: at(2),
      };
      const list = (query: Record<string, unknown> = {}) =>
        call('annRead', 'list_webhook_deliveries', { params: { id: made.id }, query }).then((r) => r.outcome as ListOutcome);
      expect(await list()).toEqual({ status: 200, data: [newer, older], page: { nextCursor: null, hasMore: false } });
      expect((await list({ status: 'succeeded,failed' })).data).toEqual([older]);
      const first = await list({ limit: '1' });
      expect([first.data, first.page.hasMore]).toEqual([[newer], true]);
      expect((await list({ limit: '1', cursor: first.page.nextCursor })).data).toEqual([older]);
      // A cursor is bound to its filters.
      expect(await scheduleErrorOf(list({ cursor: first.page.nextCursor, status: 'pending' }))).toEqual({
        ...error('invalid_query_param', { param: 'cursor' }),
        message: 'The cursor is not valid for this query.',
      });
      expect(await scheduleErrorOf(list({ status: 'lost' }))).toEqual({
        ...error('invalid_query_param', { param: 'status' }),
        message: 'status: must be a comma-separated list of pending, succeeded, failed.',
      });
    });

    it('answers another’s webhook 404', async () => {
      const made = await create('ann');
      expect(await scheduleErrorOf(call('ben', 'list_webhook_deliveries', { params: { id: made.id } }))).toEqual({
        ...error('webhook_not_found', { id: made.id }),
        message: 'No webhook with this id.',
      });
    });
  });

  describe('POST /v1/webhooks/:id/deliveries/:delivery_id/redeliver', () => {
    const redeliver = (caller: WhCaller, id: string, deliveryId: string) =>
      call(caller, 'redeliver_webhook_delivery', { params: { id, delivery_id: deliveryId } });

    it('makes the same delivery due now with its attempts from zero, same id and envelope: 202', async () => {
      const made = await create('ann');
      await seedDelivery(store, {
        id: 'd1',
        webhook_id: made.id,
        event_id: 'e1',
        created_at: at(1),
        status: 'failed',
        attempts: 8,
        last_status_code: 503,
        last_response_body: 'down',
      });
      const before = (await deliveries(made.id))[0]!;
      clock.set(at(30));
      expect((await redeliver('ann', made.id, 'd1')).outcome).toEqual({
        status: 202,
        data: {
          id: 'd1',
          webhook_id: made.id,
          event_id: 'e1',
          event_type: 'booking.created',
          status: 'pending',
          attempts: 0,
          next_attempt_at: at(30),
          last_status_code: 503,
          last_response_body: 'down',
          last_error: null,
          created_at: at(1),
          delivered_at: null,
        },
      });
      expect(await deliveries(made.id)).toEqual([
        { ...before, status: 'pending', attempts: 0, next_attempt_at: at(30), delivered_at: null },
      ]);
    });

    it('answers an unknown delivery, or another webhook’s, 404 delivery_not_found', async () => {
      const made = await create('ann');
      const other = await create('ann');
      await seedDelivery(store, { id: 'd-other', webhook_id: other.id, event_id: 'e1', created_at: T0 });
      for (const deliveryId of ['d-none', 'd-other']) {
        expect(await scheduleErrorOf(redeliver('ann', made.id, deliveryId))).toEqual({
          ...error('delivery_not_found', { id: deliveryId }),
          message: 'This webhook has no delivery with this id.',
        });
      }
      expect(await scheduleErrorOf(redeliver('ben', other.id, 'd-other'))).toEqual({
        ...error('webhook_not_found', { id: other.id }),
        message: 'No webhook with this id.',
      });
    });

    it('refuses while the webhook is not active: 409 webhook_inactive, the delivery untouched', async () => {
      const made = await create('ann');
      await seedDelivery(store, { id: 'd1', webhook_id: made.id, event_id: 'e1', created_at: T0, status: 'failed', attempts: 3 });
      await call('ann', 'update_webhook', { params: { id: made.id }, body: { status: 'paused' }, ifMatch: '1' });
      expect(await scheduleErrorOf(redeliver('ann', made.id, 'd1'))).toEqual({
        ...error('webhook_inactive', { status: 'paused' }),
        message: 'The webhook is paused; set its status to active first.',
      });
      expect((await deliveries(made.id)).map((d) => [d.status, d.attempts])).toEqual([['failed', 3]]);
    });
  });

  describe('POST /v1/webhooks/:id/test', () => {
    it('queues a webhook.test event for this webhook alone, due now, in the one envelope: 202 with the delivery', async () => {
      const made = await create('ann', { events: ['series.ended'] });
      const other = await create('ann');
      clock.set(at(7));
      const { outcome } = await call('ann', 'test_webhook', { params: { id: made.id } });
      const delivery = outcome.data as Delivery;
      expect(outcome).toEqual({
        status: 202,
        data: {
          id: delivery.id,
          webhook_id: made.id,
          event_id: delivery.event_id,
          event_type: 'webhook.test',
          status: 'pending',
          attempts: 0,
          next_attempt_at: at(7),
          last_status_code: null,
          last_response_body: null,
          last_error: null,
          created_at: at(7),
          delivered_at: null,
        },
      });
      expect(delivery.id).not.toBe(delivery.event_id);
      const [row] = await deliveries(made.id);
      expect(JSON.parse(row!.payload_json)).toEqual({
        type: 'webhook.test',
        id: delivery.event_id,
        created_at: at(7),
        data: { webhook_id: made.id },
      });
      expect(await deliveries(other.id)).toEqual([]);
      expect(await store.db.selectFrom('outbox').select('id').execute()).toEqual([]);
    });

    it('refuses a paused webhook (409 webhook_inactive) and another’s (404)', async () => {
      const made = await create('ann');
      await call('ann', 'update_webhook', { params: { id: made.id }, body: { status: 'paused' }, ifMatch: '1' });
      expect(await scheduleErrorOf(call('ann', 'test_webhook', { params: { id: made.id } }))).toEqual({
        ...error('webhook_inactive', { status: 'paused' }),
        message: 'The webhook is paused; set its status to active first.',
      });
      expect(await scheduleErrorOf(call('ben', 'test_webhook', { params: { id: made.id } }))).toEqual({
        ...error('webhook_not_found', { id: made.id }),
        message: 'No webhook with this id.',
      });
      expect(await deliveries(made.id)).toEqual([]);
    });
  });
});
