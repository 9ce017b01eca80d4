import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../src/auth/principal.js';
import { manualClock } from '../src/clock.js';
import { describeCaller, listEventTypes, listPeople } from '../src/directory/directory.js';
import { archiveEventTypeRow } from '../src/event-types/write-event-type.js';
import { randomIds } from '../src/ids.js';
import { encodeCursor, queryBinding } from '../src/pagination/cursor.js';
import type { Store } from '../src/storage/store.js';
import { loadWorkspace } from '../src/workspace/load-workspace.js';
import { parseWorkspace } from '../src/workspace/parse-workspace.js';
import { scheduleErrorOf } from './support/errors.js';
import { ADA, ALICE, CHAT, CONSULT, INTRO, MIA, OSCAR, organization, principalOf, URSULA } from './support/organization.js';
import { storeFixtures } from './support/stores.js';

// The directory (whoami, list_people, list_event_types) read straight from
// core on both stores: who the caller is, whom it may act for, what it can
// book, and how the lists page.

const T0 = '2026-05-04T08:00:00.000Z';
const STRICT = '20000000-0000-4000-8000-0000000000aa';
const GONE = '20000000-0000-4000-8000-0000000000ab';
const FIRST_PAGE = { limit: 100, cursor: undefined };

/** The shared organization, with Oscar's hours in New York and two more types of Alice's: one strict, one archived below. */
function workspace() {
  const org = organization();
  const users = (org.users as Record<string, unknown>[]).map((u) => {
    if (u.username === 'oscar') return { ...u, timezone: 'Europe/Paris', schedule: { timezone: 'America/New_York', weekly: {} } };
    // Mia also manages Alice, whose id sorts before Mia's own.
    if (u.username === 'mia') return { ...u, manages: ['ursula', 'alice'] };
    return u;
  });
  const questions = [{ id: 'topic', label: 'Topic', type: 'text', required: true }];
  const eventTypes = [
    ...(org.event_types as object[]),
    { id: STRICT, owner: 'alice', slug: 'strict', name: 'Strict', duration_minutes: 20, allow_reschedule: false, questions },
    { id: GONE, owner: 'alice', slug: 'gone', name: 'Gone', duration_minutes: 10 },
  ];
  const tokens = [
    ...(org.tokens as object[]),
    { name: 'alice-dir', user: 'alice', secret: 'pat_alice_directory', scopes: ['slots:read', 'bookings:read'] },
  ];
  return { ...org, users, event_types: eventTypes, tokens };
}

describe.each(storeFixtures())('the directory on $name', (fixture) => {
  let store: Store;
  const who = {} as Record<'alice' | 'mia' | 'oscar' | 'ada', Principal>;

  beforeAll(async () => {
    store = await fixture.open();
    const clock = manualClock(T0);
    await loadWorkspace({ store, clock, ids: randomIds }, parseWorkspace(JSON.stringify(workspace())));
    await archiveEventTypeRow(store.db, GONE, T0);
    who.alice = await principalOf({ store, clock }, 'pat_alice_directory');
    who.mia = await principalOf({ store, clock }, 'pat_mia_bookings_rw');
    who.oscar = await principalOf({ store, clock }, 'pat_oscar_bookings_rw');
    who.ada = await principalOf({ store, clock }, 'pat_ada_bookings_rw');
  });
  afterAll(() => fixture.cleanup());

  it('describes the caller: its account, credential, sorted scopes, and whom it acts for', () => {
    expect(describeCaller(who.alice)).toEqual({
      user_id: ALICE,
      username: 'alice',
      name: 'Alice Host',
      email: 'alice@acme.test',
      timezone: 'Europe/Berlin',
      role: 'owner',
      credential: 'pat',
      scopes: ['bookings:read', 'slots:read'],
      acts_for: 'organization',
    });
    // A manager acts for itself and those it manages, in id order.
    expect(describeCaller(who.mia)).toMatchObject({ role: 'manager', acts_for: [ALICE, MIA, URSULA] });
    expect(describeCaller(who.oscar).acts_for).toEqual([OSCAR]);
  });

  it('lists the people the caller may act for, by username, whole', async () => {
    const all = await listPeople(store.db, who.ada, FIRST_PAGE);
    expect(all.items.map((p) => p.username)).toEqual(['ada', 'alice', 'mia', 'oscar', 'ursula']);
    expect(all.items[0]).toEqual({
      user_id: ADA,
      username: 'ada',
      name: 'Ada Admin',
      email: 'ada@acme.test',
      timezone: 'UTC',
      role: 'admin',
    });
    expect(all.nextCursor).toBeNull();
    const managed = await listPeople(store.db, who.mia, FIRST_PAGE);
    expect(managed.items.map((p) => p.user_id)).toEqual([ALICE, MIA, URSULA]);
  });

  it('pages people: a full page has a cursor, the next page starts after it', async () => {
    const first = await listPeople(store.db, who.ada, { limit: 2, cursor: undefined });
    expect(first.items.map((p) => p.username)).toEqual(['ada', 'alice']);
    expect(first.nextCursor).not.toBeNull();
    const second = await listPeople(store.db, who.ada, { limit: 2, cursor: first.nextCursor ?? undefined });
    expect(second.items.map((p) => p.username)).toEqual(['mia', 'oscar']);
    const last = await listPeople(store.db, who.ada, { limit: 2, cursor: second.nextCursor ?? undefined });
    expect(last.items.map((p) => p.username)).toEqual(['ursula']);
    expect(last.nextCursor).toBeNull();
  });

  it('lists the event types the caller can book, by owner then slug, archived ones left out', async () => {
    const all = await listEventTypes(store.db, who.ada, FIRST_PAGE);
    expect(all.items.map((t) => `${t.owner.username}/${t.slug}`)).toEqual(['alice/intro', 'alice/strict', 'oscar/chat', 'ursula/consult']);
    expect(all.nextCursor).toBeNull();
    const own = await listEventTypes(store.db, who.oscar, FIRST_PAGE);
    expect(own.items.map((t) => t.id)).toEqual([CHAT]);
    const managed = await listEventTypes(store.db, who.mia, FIRST_PAGE);
    expect(managed.items.map((t) => t.id)).toEqual([INTRO, STRICT, CONSULT]);
  });

  it('shows each type whole: rules, form, and the zone its hours are read in', async () => {
    const { items } = await listEventTypes(store.db, who.ada, FIRST_PAGE);
    const byId = Object.fromEntries(items.map((t) => [t.id, t]));
    expect(byId[INTRO]).toEqual({
      id: INTRO,
      slug: 'intro',
      name: 'Intro call',
      owner: { user_id: ALICE, username: 'alice' },
      duration_minutes: 30,
      status: 'on',
      recurring: 'on',
      allow_reschedule: true,
      minimum_notice_minutes: 0,
      cancel_notice_minutes: 0,
      reschedule_notice_minutes: 0,
      future_limit_days: 60,
      // Alice has no working hours of her own: her profile's zone.
      timezone: 'Europe/Berlin',
      questions: [],
      // No pages address given: no booking page.
      booking_url: null,
    });
    expect(byId[STRICT]).toMatchObject({
      allow_reschedule: false,
      questions: [{ id: 'topic', label: 'Topic', type: 'text', required: true }],
    });
    // Oscar's hours name their own zone, which wins over his profile's.
    expect(byId[CHAT]?.timezone).toBe('America/New_York');
  });

  it('pages event types across owners: the cursor holds both the owner and the slug', async () => {
    const pages: string[][] = [];
    let cursor: string | undefined;
    do {
      const page = await listEventTypes(store.db, who.ada, { limit: 1, cursor });
      pages.push(page.items.map((t) => `${t.owner.username}/${t.slug}`));
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
    expect(pages).toEqual([['alice/intro'], ['alice/strict'], ['oscar/chat'], ['ursula/consult']]);
  });

  it('refuses a cursor of the other list, or of any other query', async () => {
    const people = await listPeople(store.db, who.ada, { limit: 1, cursor: undefined });
    const types = await listEventTypes(store.db, who.ada, { limit: 1, cursor: undefined });
    const position = { value: 'alice intro', uid: INTRO };
    // An unfiltered series or bookings list binds its cursors to no filters at all; a list named by nothing is another query too.
    const foreign = [{}, { list: '' }].map((query) => encodeCursor(queryBinding(query), position));
    for (const cursor of [types.nextCursor ?? '', ...foreign]) {
      expect((await scheduleErrorOf(listPeople(store.db, who.ada, { limit: 1, cursor }))).code).toBe('invalid_query_param');
    }
    for (const cursor of [people.nextCursor ?? '', ...foreign]) {
      expect((await scheduleErrorOf(listEventTypes(store.db, who.ada, { limit: 1, cursor }))).code).toBe('invalid_query_param');
    }
  });
});
