import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Principal } from '../src/auth/principal.js';
import { manualClock } from '../src/clock.js';
import { bookingPagePath, bookingUrlOf } from '../src/event-types/booking-url.js';
import type { EventType } from '../src/event-types/event-type-view.js';
import { randomIds } from '../src/ids.js';
import type { ExecuteDeps } from '../src/operations/execute.js';
import type { ListOutcome } from '../src/operations/operation.js';
import type { Store } from '../src/storage/store.js';
import { loadWorkspace } from '../src/workspace/load-workspace.js';
import { parseWorkspace } from '../src/workspace/parse-workspace.js';
import { testDeps } from './support/deps.js';
import { principalOf } from './support/organization.js';
import { storeFixtures } from './support/stores.js';
import { callWebhooks } from './support/webhook-calls.js';

// Every event type's `booking_url` (event-types/booking-url.ts): where its
// booking page is, or null where no visitor can book it there.

describe('booking page paths', () => {
  it("is /@username for a host's page and /@username/slug for an event type's", () => {
    expect(bookingPagePath('alice')).toBe('/@alice');
    expect(bookingPagePath('alice', 'intro')).toBe('/@alice/intro');
  });

  it('escapes what a path segment cannot hold', () => {
    expect(bookingPagePath('a/b?c', 'x y#z')).toBe('/@a%2Fb%3Fc/x%20y%23z');
    // An empty slug is a slug, not the host's page.
    expect(bookingPagePath('alice', '')).toBe('/@alice/');
  });
});

describe('booking urls', () => {
  const type = { username: 'alice', slug: 'intro', visibility: 'public', archived: false } as const;

  it('is the page under the public address, one slash between however many it ends with', () => {
    expect(bookingUrlOf(() => 'https://book.test', type)).toBe('https://book.test/@alice/intro');
    expect(bookingUrlOf(() => 'https://book.test///', type)).toBe('https://book.test/@alice/intro');
    expect(bookingUrlOf(() => 'https://book.test/base/', type)).toBe('https://book.test/base/@alice/intro');
    // Only trailing slashes go: one inside the address stays.
    expect(bookingUrlOf(() => 'https://book.test//x', type)).toBe('https://book.test//x/@alice/intro');
  });

  it('a hidden type has one: it is bookable by its link', () => {
    expect(bookingUrlOf(() => 'https://book.test', { ...type, visibility: 'hidden' })).toBe('https://book.test/@alice/intro');
  });

  it('is null for a private or archived type, and where no server serves pages', () => {
    expect(bookingUrlOf(() => 'https://book.test', { ...type, visibility: 'private' })).toBeNull();
    expect(bookingUrlOf(() => 'https://book.test', { ...type, archived: true })).toBeNull();
    expect(bookingUrlOf(() => undefined, type)).toBeNull();
    expect(bookingUrlOf(undefined, type)).toBeNull();
  });

  it('reads the address each time: a server on port 0 knows it only once it listens', () => {
    let address: string | undefined;
    const pages = () => address;
    expect(bookingUrlOf(pages, type)).toBeNull();
    address = 'http://127.0.0.1:4321';
    expect(bookingUrlOf(pages, type)).toBe('http://127.0.0.1:4321/@alice/intro');
  });
});

const T0 = '2026-05-04T08:00:00.000Z';
const ANN = 'e0000000-0000-4000-8000-00000000000a';
const BOB = 'e0000000-0000-4000-8000-00000000000b';
const INTRO = 'e1000000-0000-4000-8000-00000000000a';
const HIDDEN = 'e1000000-0000-4000-8000-00000000000b';
const PRIVATE = 'e1000000-0000-4000-8000-00000000000c';
const BOBS = 'e1000000-0000-4000-8000-00000000000d';
const SECRET = 'pat_ann_booking_urls_x';

const WORKSPACE = {
  organization: { name: 'Urls' },
  users: [
    { id: ANN, username: 'ann', email: 'ann@urls.test', name: 'Ann', role: 'owner' },
    { id: BOB, username: 'bob', email: 'bob@urls.test', name: 'Bob' },
  ],
  event_types: [
    { id: INTRO, owner: 'ann', slug: 'intro', name: 'Intro', duration_minutes: 30 },
    { id: HIDDEN, owner: 'ann', slug: 'by-link', name: 'By link', duration_minutes: 30, visibility: 'hidden' },
    { id: PRIVATE, owner: 'ann', slug: 'inner', name: 'Inner', duration_minutes: 30, visibility: 'private' },
    { id: BOBS, owner: 'bob', slug: 'chat', name: 'Chat', duration_minutes: 15 },
  ],
  tokens: [{ name: 'ann', user: 'ann', secret: SECRET, scopes: ['event_types:write', 'slots:read'] }],
};

describe.each(storeFixtures())('booking_url through the API on $name', (fixture) => {
  let store: Store;
  let ann: Principal;
  let address: string | undefined;
  let deps: ExecuteDeps;
  const clock = manualClock(T0);

  beforeAll(async () => {
    store = await fixture.open();
    await loadWorkspace({ store, clock, ids: randomIds }, parseWorkspace(JSON.stringify(WORKSPACE)));
    ann = await principalOf({ store, clock }, SECRET);
    deps = testDeps(store, clock, { pages: () => address });
  });
  beforeEach(async () => {
    address = 'https://book.test/';
    await store.db.deleteFrom('event_types').where('id', 'not in', [INTRO, HIDDEN, PRIVATE, BOBS]).execute();
    await store.db.deleteFrom('outbox').execute();
  });
  afterAll(() => fixture.cleanup());

  /** A call one second after the last: the events it records sort by when they were written. */
  const call = (name: Parameters<typeof callWebhooks>[2], rest: Parameters<typeof callWebhooks>[3] = {}, on = deps) => {
    clock.advance(1000);
    return callWebhooks(on, ann, name, rest);
  };
  const get = async (id: string, on = deps) => (await call('get_event_type', { params: { id } }, on)).outcome.data as EventType;
  const listed = async (on = deps) =>
    ((await call('list_event_types', {}, on)).outcome as ListOutcome).data.map((t) => [
      (t as EventType).slug,
      (t as EventType).booking_url,
    ]);

  it('GET answers the page of a public or hidden type, null for a private one', async () => {
    expect((await get(INTRO)).booking_url).toBe('https://book.test/@ann/intro');
    expect((await get(HIDDEN)).booking_url).toBe('https://book.test/@ann/by-link');
    expect((await get(PRIVATE)).booking_url).toBeNull();
    expect((await get(BOBS)).booking_url).toBe('https://book.test/@bob/chat');
  });

  it('the list gives each type its own, by owner then slug', async () => {
    expect(await listed()).toEqual([
      ['by-link', 'https://book.test/@ann/by-link'],
      ['inner', null],
      ['intro', 'https://book.test/@ann/intro'],
      ['chat', 'https://book.test/@bob/chat'],
    ]);
  });

  it('every answer is null where no server serves pages', async () => {
    address = undefined;
    expect((await get(INTRO)).booking_url).toBeNull();
    expect((await listed()).map(([, url]) => url)).toEqual([null, null, null, null]);
    const without = testDeps(store, clock);
    expect((await get(INTRO, without)).booking_url).toBeNull();
    expect((await listed(without)).map(([, url]) => url)).toEqual([null, null, null, null]);
  });

  it('create, update and delete answer the page as the type now is, and record it in the event', async () => {
    const created = (await call('create_event_type', { body: { slug: 'new', name: 'New', duration_minutes: 20 } })).outcome
      .data as EventType;
    expect(created.booking_url).toBe('https://book.test/@ann/new');
    const renamed = (await call('update_event_type', { params: { id: created.id }, body: { slug: 'renamed' }, ifMatch: '"1"' })).outcome
      .data as EventType;
    expect(renamed.booking_url).toBe('https://book.test/@ann/renamed');
    const hidden = (await call('update_event_type', { params: { id: created.id }, body: { visibility: 'private' }, ifMatch: '"2"' }))
      .outcome.data as EventType;
    expect(hidden.booking_url).toBeNull();
    await call('update_event_type', { params: { id: created.id }, body: { visibility: 'public' }, ifMatch: '"3"' });
    const deleted = (await call('delete_event_type', { params: { id: created.id } })).outcome.data as EventType;
    expect(deleted).toMatchObject({ slug: 'renamed', booking_url: null });
    // Deleting it again answers it as it is, archived: still null.
    expect((await call('delete_event_type', { params: { id: created.id } })).outcome.data).toMatchObject({ booking_url: null });
    expect((await get(created.id)).booking_url).toBeNull();
    const events = await store.db.selectFrom('outbox').select(['event_type', 'payload_json']).orderBy('created_at').orderBy('id').execute();
    expect(events.map((e) => [e.event_type, (JSON.parse(e.payload_json) as EventType).booking_url])).toEqual([
      ['event_type.created', 'https://book.test/@ann/new'],
      ['event_type.updated', 'https://book.test/@ann/renamed'],
      ['event_type.updated', null],
      ['event_type.updated', 'https://book.test/@ann/renamed'],
      ['event_type.deleted', null],
    ]);
  });

  it("a PATCH merges over the type as it is, whatever its booking_url: a type's url is never stored or sent back", async () => {
    const patched = (await call('update_event_type', { params: { id: INTRO }, body: { name: 'Intro call' }, ifMatch: '"1"' })).outcome
      .data as EventType;
    expect(patched).toMatchObject({ name: 'Intro call', booking_url: 'https://book.test/@ann/intro', version: 2 });
    const columns = await store.db.selectFrom('event_types').selectAll().where('id', '=', INTRO).executeTakeFirstOrThrow();
    expect(Object.keys(columns)).not.toContain('booking_url');
    await store.db.updateTable('event_types').set({ name: 'Intro', version: 1 }).where('id', '=', INTRO).execute();
  });
});
