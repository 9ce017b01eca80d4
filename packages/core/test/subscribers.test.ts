import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../src/auth/principal.js';
import { manualClock } from '../src/clock.js';
import type { ExecuteDeps } from '../src/operations/execute.js';
import type { Store } from '../src/storage/store.js';
import { activeSubscribers, hostOf, receiversOf, type Subscriber } from '../src/webhooks/delivery/subscribers.js';
import { testDeps } from './support/deps.js';
import { storeFixtures } from './support/stores.js';
import { callWebhooks, loadWebhookWorkspace, WH_USERS, type WhCaller } from './support/webhook-calls.js';

// Who gets an event (webhooks/delivery/subscribers.ts): whose resource a
// payload shows, which webhooks may read it, and a stored row that cannot
// be read whole, which must not stop fan-out for the others.

const T0 = '2026-05-04T08:00:00.000Z';
const TARGET = 'https://hooks.example.com/in';

describe('hostOf: whose resource a payload shows', () => {
  it('reads a host, an owner, or a user_id, in that order', () => {
    expect(hostOf({ host: { user_id: 'h' }, owner: { user_id: 'o' }, user_id: 'u' })).toBe('h');
    expect(hostOf({ owner: { user_id: 'o' }, user_id: 'u' })).toBe('o');
    expect(hostOf({ user_id: 'u' })).toBe('u');
  });

  it('answers undefined for a payload without one, or with one that is not a string', () => {
    expect(hostOf(null)).toBeUndefined();
    expect(hostOf({})).toBeUndefined();
    expect(hostOf({ host: {} })).toBeUndefined();
    expect(hostOf({ host: { user_id: 7 } })).toBeUndefined();
    expect(hostOf({ user_id: { id: 'u' } })).toBeUndefined();
  });
});

describe('receiversOf', () => {
  const subscriber = (id: string, reach: Subscriber['reach'], events: string[], createdAt = T0): Subscriber => ({
    id,
    url: TARGET,
    secret: 's',
    previous_secret: null,
    previous_secret_until: null,
    consecutive_failures: 0,
    owner_user_id: id,
    answers_promptly: true,
    backoff_until: null,
    events: new Set(events),
    reach,
    createdAt,
  });
  const own = subscriber('own', { kind: 'users', ids: new Set(['h']) }, ['booking.created']);
  const other = subscriber('other', { kind: 'users', ids: new Set(['x']) }, ['booking.created']);
  const admin = subscriber('admin', { kind: 'organization' }, ['booking.created', 'booking.canceled']);
  const later = subscriber('later', { kind: 'organization' }, ['booking.created'], '2026-05-04T09:00:00.000Z');
  const all = [own, other, admin, later];

  it('gives an event to the webhooks subscribed to it, existing then, whose owner may read its host', () => {
    expect(receiversOf(all, { type: 'booking.created', createdAt: T0, host: 'h' })).toEqual([own, admin]);
    expect(receiversOf(all, { type: 'booking.canceled', createdAt: T0, host: 'h' })).toEqual([admin]);
    expect(receiversOf(all, { type: 'booking.created', createdAt: '2026-05-04T09:00:00.000Z', host: 'x' })).toEqual([other, admin, later]);
  });

  it('gives a payload without a host to no one, an admin included', () => {
    expect(receiversOf(all, { type: 'booking.created', createdAt: T0, host: undefined })).toEqual([]);
  });
});

describe.each(storeFixtures())('activeSubscribers on $name', (fixture) => {
  let store: Store;
  let deps: ExecuteDeps;
  let who: Record<WhCaller, Principal>;

  beforeAll(async () => {
    store = await fixture.open();
    const clock = manualClock(T0);
    deps = testDeps(store, clock);
    who = await loadWebhookWorkspace({ store, clock });
  });
  afterAll(() => fixture.cleanup());

  const create = async (caller: WhCaller, events: string[]) =>
    (await callWebhooks(deps, who[caller], 'create_webhook', { body: { url: TARGET, events } })).outcome.data as { id: string };

  it('reads each active webhook with its events and its owner’s reach; a malformed stored list counts as empty, not as a failure', async () => {
    const good = await create('ann', ['booking.created', 'booking.canceled']);
    const mixed = await create('ben', ['booking.created']);
    const broken = await create('ada', ['booking.created']);
    const paused = await create('ann', ['booking.created']);
    const notList = await create('ann', ['booking.created']);
    // Rows another version or a hand edit may have left: a list holding a non-string, and JSON that does not parse.
    await store.db.updateTable('webhooks').set({ events_json: '["booking.created", 7, null]' }).where('id', '=', mixed.id).execute();
    await store.db.updateTable('webhooks').set({ events_json: '{not json' }).where('id', '=', broken.id).execute();
    await store.db.updateTable('webhooks').set({ events_json: '"booking.created"' }).where('id', '=', notList.id).execute();
    await store.db.updateTable('webhooks').set({ status: 'paused' }).where('id', '=', paused.id).execute();
    await store.db.updateTable('users').set({ role: 'manager', manages_json: '[7, "x"' }).where('id', '=', WH_USERS.ben).execute();

    const byId = Object.fromEntries((await activeSubscribers(store.db)).map((s) => [s.id, s]));
    expect(Object.keys(byId).sort()).toEqual([good.id, mixed.id, broken.id, notList.id].sort());
    expect([...(byId[good.id]?.events ?? [])].sort()).toEqual(['booking.canceled', 'booking.created']);
    expect(byId[good.id]?.reach).toEqual({ kind: 'users', ids: new Set([WH_USERS.ann]) });
    expect(byId[good.id]).toMatchObject({ owner_user_id: WH_USERS.ann, url: TARGET, answers_promptly: false, createdAt: T0 });
    expect([...(byId[mixed.id]?.events ?? [])]).toEqual(['booking.created']);
    // Ben's managed list does not parse: he reaches himself only.
    expect(byId[mixed.id]?.reach).toEqual({ kind: 'users', ids: new Set([WH_USERS.ben]) });
    expect([...(byId[broken.id]?.events ?? [])]).toEqual([]);
    expect(byId[broken.id]?.reach).toEqual({ kind: 'organization' });
    // JSON that parses but is not a list: no events either.
    expect([...(byId[notList.id]?.events ?? [])]).toEqual([]);
  });
});
