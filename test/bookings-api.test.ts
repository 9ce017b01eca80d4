import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectedBooking, sortedByStart, TIMESTAMP, uids } from './support/booking-view.js';
import { type ApiResponse, api, expectData, expectPage } from './support/http.js';
import { startInProcess } from './support/in-process.js';
import { type TestServer, writeWorkspace } from './support/serve.js';
import { buildWorkspace, EVENT_TYPES, type FixtureBooking, SECRETS, USER_IDS, visibleTo } from './support/workspace.js';

// docs/api/endpoints.md "Bookings": list, read and patch, against the server the binary runs (in process) on an in-memory database.

const fx = buildWorkspace();
const { bookings: b, allBookings } = fx;
let server: TestServer;

beforeAll(async () => {
  server = await startInProcess({ workspace: writeWorkspace(fx.workspace), db: ':memory:' });
});

afterAll(async () => {
  await server?.stop();
});

const get = (path: string, token: string = SECRETS.owner) => api(server.url, path, { token });

const patch = (uid: string, body: unknown, ifMatch: string, token: string = SECRETS.owner) =>
  api(server.url, `/v1/bookings/${uid}`, {
    method: 'PATCH',
    token,
    json: body,
    headers: { 'idempotency-key': randomUUID(), 'if-match': ifMatch },
  });

/** Follows `meta.next_cursor` to the end; returns every page. */
async function allPages(path: string, token: string = SECRETS.owner): Promise<{ items: any[]; hasMore: boolean }[]> {
  const pages: { items: any[]; hasMore: boolean }[] = [];
  let cursor: string | null = null;
  for (let guard = 0; guard < 50; guard++) {
    const sep = path.includes('?') ? '&' : '?';
    const res = await get(cursor === null ? path : `${path}${sep}cursor=${encodeURIComponent(cursor)}`, token);
    const page = expectPage(res);
    pages.push({ items: page.items, hasMore: page.hasMore });
    if (!page.hasMore) return pages;
    cursor = page.nextCursor;
  }
  throw new Error('pagination did not end');
}

const dateOf = (iso: string) => iso.slice(0, 10);

describe('GET /v1/bookings', () => {
  it('answers the list envelope: the first 20 by start_at descending, each booking as docs/api shows it', async () => {
    const res = await get('/v1/bookings');
    const page = expectPage(res);
    const expected = sortedByStart(visibleTo('owner', allBookings), 'desc');
    expect(expected.length).toBeGreaterThan(20);
    expect(page.hasMore).toBe(true);
    expect(page.items).toHaveLength(20);
    expect(page.items).toEqual(expected.slice(0, 20).map((x) => expectedBooking(x, 'list')));
    expect(res.headers.get('etag')).toBeNull();
  });

  it('pages to the end with limit and next_cursor: every booking exactly once, in order', async () => {
    const pages = await allPages('/v1/bookings?limit=5&sort=start_at_asc');
    const expected = sortedByStart(visibleTo('owner', allBookings), 'asc');
    expect(pages.map((p) => p.items.length)).toEqual(
      Array.from({ length: Math.ceil(expected.length / 5) }, (_, i) => Math.min(5, expected.length - i * 5)),
    );
    expect(pages.map((p) => p.hasMore)).toEqual(pages.map((_, i) => i < pages.length - 1));
    expect(pages.flatMap((p) => uids(p.items))).toEqual(uids(expected));
  });

  it('a page exactly as long as what remains has has_more false and next_cursor null', async () => {
    const visible = visibleTo('manager', allBookings);
    const res = await get(`/v1/bookings?limit=${visible.length}`, SECRETS.manager);
    const page = expectPage(res);
    expect(page).toEqual({ items: expect.any(Array), nextCursor: null, hasMore: false });
    expect(uids(page.items)).toEqual(uids(sortedByStart(visible, 'desc')));
  });

  it('limit=100 is accepted and returns everything visible', async () => {
    const page = expectPage(await get('/v1/bookings?limit=100'));
    expect(page.hasMore).toBe(false);
    expect(page.items).toHaveLength(visibleTo('owner', allBookings).length);
  });

  it.each([
    ['created_at_desc', 'created_at', -1],
    ['updated_at_asc', 'updated_at', 1],
    ['updated_at_desc', 'updated_at', -1],
  ] as const)('sort=%s orders by %s and pages through ties without loss or repeat', async (sort, field, sign) => {
    // Imported bookings share one created_at, so the keyset cursor must break ties.
    const pages = await allPages(`/v1/bookings?limit=3&sort=${sort}`);
    const items = pages.flatMap((p) => p.items);
    expect(new Set(uids(items)).size).toBe(items.length);
    expect([...uids(items)].sort()).toEqual(uids(visibleTo('owner', allBookings)).sort());
    for (let i = 1; i < items.length; i++) {
      expect(sign * items[i - 1][field].localeCompare(items[i][field])).toBeLessThanOrEqual(0);
    }
  });

  it('sort=start_at_desc is the default', async () => {
    const explicit = expectPage(await get('/v1/bookings?sort=start_at_desc&limit=100'));
    const implicit = expectPage(await get('/v1/bookings?limit=100'));
    expect(uids(implicit.items)).toEqual(uids(explicit.items));
    expect(uids(explicit.items)).toEqual(uids(sortedByStart(visibleTo('owner', allBookings), 'desc')));
  });

  describe('visibility by role', () => {
    it.each([
      ['owner', SECRETS.owner],
      ['manager', SECRETS.manager],
      ['member', SECRETS.member],
      ['other', SECRETS.other],
    ] as const)('%s sees exactly the bookings of who they may act for', async (user, token) => {
      const page = expectPage(await get('/v1/bookings?limit=100', token));
      expect(uids(page.items)).toEqual(uids(sortedByStart(visibleTo(user, allBookings), 'desc')));
    });

    it('an OAuth token sees what its account sees', async () => {
      const page = expectPage(await get('/v1/bookings?limit=100', SECRETS.oauth));
      expect(uids(page.items)).toEqual(uids(sortedByStart(visibleTo('member', allBookings), 'desc')));
    });

    it('host_user_id outside the visible set answers 200 with an empty page', async () => {
      for (const host of [USER_IDS.owner, USER_IDS.other]) {
        const page = expectPage(await get(`/v1/bookings?host_user_id=${host}`, SECRETS.manager));
        expect(page).toEqual({ items: [], nextCursor: null, hasMore: false });
      }
      const unknown = expectPage(await get(`/v1/bookings?host_user_id=${randomUUID()}`));
      expect(unknown).toEqual({ items: [], nextCursor: null, hasMore: false });
    });

    it('host_user_id inside the visible set filters to that host', async () => {
      const page = expectPage(await get(`/v1/bookings?host_user_id=${USER_IDS.member}`, SECRETS.manager));
      expect(uids(page.items)).toEqual(uids(sortedByStart([b.memberSoon, b.memberPast], 'desc')));
    });
  });

  describe('filters', () => {
    const expectUids = async (path: string, expected: readonly FixtureBooking[], token: string = SECRETS.owner) => {
      const page = expectPage(await get(path, token));
      expect(uids(page.items)).toEqual(uids(sortedByStart(expected, 'desc')));
      return page;
    };
    const ownerVisible = () => visibleTo('owner', allBookings);

    it('event_type_id', async () => {
      await expectUids(
        `/v1/bookings?limit=100&event_type_id=${EVENT_TYPES.member.id}`,
        ownerVisible().filter((x) => x.host === 'member'),
      );
      // An event type of someone outside the caller's set gives nothing, not an error.
      await expectUids(`/v1/bookings?event_type_id=${EVENT_TYPES.owner.id}`, [], SECRETS.member);
    });

    it('attendee_email matches exactly and case-sensitively', async () => {
      await expectUids(`/v1/bookings?attendee_email=${encodeURIComponent('Casey.Case@Example.com')}`, [b.ownerCanceled]);
      await expectUids(`/v1/bookings?attendee_email=${encodeURIComponent('casey.case@example.com')}`, []);
      await expectUids(`/v1/bookings?attendee_email=${encodeURIComponent('dana@example.com')}`, [b.ownerSoon, b.ownerPast]);
    });

    it('status, comma-separated', async () => {
      await expectUids('/v1/bookings?status=canceled', [b.ownerCanceled]);
      await expectUids(
        '/v1/bookings?limit=100&status=confirmed',
        ownerVisible().filter((x) => x.status === 'confirmed'),
      );
      await expectUids('/v1/bookings?limit=100&status=confirmed,canceled', ownerVisible());
    });

    it('include_cancelled: default includes canceled, false excludes them, status wins over it', async () => {
      await expectUids('/v1/bookings?limit=100', ownerVisible());
      await expectUids('/v1/bookings?limit=100&include_cancelled=true', ownerVisible());
      await expectUids(
        '/v1/bookings?limit=100&include_cancelled=false',
        ownerVisible().filter((x) => x.status !== 'canceled'),
      );
      await expectUids('/v1/bookings?status=canceled&include_cancelled=false', [b.ownerCanceled]);
    });

    it('start_date and end_date as instants are inclusive bounds on start_at', async () => {
      const from = b.ownerSoon.startAt;
      const to = b.ownerLater.startAt;
      await expectUids(
        `/v1/bookings?limit=100&start_date=${from}&end_date=${to}`,
        ownerVisible().filter((x) => x.startAt >= from && x.startAt <= to),
      );
      // Both boundary bookings are in.
      await expectUids(`/v1/bookings?start_date=${from}&end_date=${from}`, [b.ownerSoon]);
    });

    it('start_date and end_date as dates cover whole days', async () => {
      const day1 = dateOf(b.ownerSoon.startAt);
      const day2 = dateOf(b.ownerLater.startAt);
      await expectUids(
        `/v1/bookings?limit=100&start_date=${day1}&end_date=${day2}`,
        ownerVisible().filter((x) => dateOf(x.startAt) >= day1 && dateOf(x.startAt) <= day2),
      );
      await expectUids(
        `/v1/bookings?limit=100&end_date=${day1}`,
        ownerVisible().filter((x) => dateOf(x.startAt) <= day1),
      );
    });

    it('series_id filters to the occurrences of one series (imported bookings belong to none)', async () => {
      await expectUids(`/v1/bookings?series_id=${randomUUID()}`, []);
    });

    it('filters combine', async () => {
      await expectUids(
        `/v1/bookings?limit=100&host_user_id=${USER_IDS.owner}&status=confirmed&start_date=${dateOf(b.ownerSoon.startAt)}`,
        ownerVisible().filter((x) => x.host === 'owner' && x.status === 'confirmed' && x.startAt >= dateOf(b.ownerSoon.startAt)),
      );
    });

    it('updated_since: the catch-up sweep finds a booking changed after the given time, in updated_at order', async () => {
      const before = expectPage(await get('/v1/bookings?limit=100&updated_since=2000-01-01T00:00:00Z'));
      expect(before.items).toHaveLength(ownerVisible().length);
      const future = expectPage(await get(`/v1/bookings?updated_since=${new Date(Date.now() + 3_600_000).toISOString()}`));
      expect(future.items).toEqual([]);

      const patched = expectData(await patch(b.scratch8.uid, { metadata: { swept: true } }, '*'));
      const since = patched.updated_at as string;
      const pages = await allPages(`/v1/bookings?updated_since=${since}&sort=updated_at_asc&limit=100`);
      const items = pages.flatMap((p) => p.items);
      expect(uids(items)).toContain(b.scratch8.uid);
      for (const item of items) expect(item.updated_at >= since).toBe(true);
      // Bookings this file never changes were last updated at load time, before `since`.
      for (const untouched of [b.ownerSoon, b.ownerPast, b.memberSoon, b.otherSoon]) expect(uids(items)).not.toContain(untouched.uid);
      expect(items.at(-1)).toEqual({ ...expectedBooking(b.scratch8, 'list', patched.version), metadata: { swept: true } });
    });
  });
});

describe('GET /v1/bookings/:uid', () => {
  it('answers one booking with responses populated and ETag "1"', async () => {
    const res = await get(`/v1/bookings/${b.ownerSoon.uid}`);
    expect(expectData(res)).toEqual(expectedBooking(b.ownerSoon, 'single'));
    expect(res.body.data.responses).toEqual({ topic: 'Pricing' });
    expect(res.headers.get('etag')).toBe('"1"');
    expect(Object.keys(res.body.meta)).toEqual(['request_id']);
  });

  it('a booking imported without answers shows an empty responses object', async () => {
    const res = await get(`/v1/bookings/${b.ownerLater.uid}`);
    expect(expectData(res)).toEqual(expectedBooking(b.ownerLater, 'single'));
    expect(res.body.data.responses).toEqual({});
  });

  it('a canceled booking shows its cancellation', async () => {
    const data = expectData(await get(`/v1/bookings/${b.ownerCanceled.uid}`));
    expect(data).toEqual(expectedBooking(b.ownerCanceled, 'single'));
    expect(data).toMatchObject({ status: 'canceled', cancellation_reason: 'Client asked', cancelled_at: b.ownerCanceled.cancelledAt });
  });

  it('a manager reads a booking of someone managed; an OAuth token reads its account’s', async () => {
    expect(expectData(await get(`/v1/bookings/${b.memberSoon.uid}`, SECRETS.manager))).toEqual(expectedBooking(b.memberSoon, 'single'));
    expect(expectData(await get(`/v1/bookings/${b.memberPast.uid}`, SECRETS.oauth))).toEqual(expectedBooking(b.memberPast, 'single'));
  });

  it('an upper-case uid names the same booking', async () => {
    const res = await get(`/v1/bookings/${b.ownerSoon.uid.toUpperCase()}`);
    expect(expectData(res)).toEqual(expectedBooking(b.ownerSoon, 'single'));
  });

  it('the list shows the same booking with responses null', async () => {
    const single = expectData(await get(`/v1/bookings/${b.ownerSoon.uid}`));
    const list = expectPage(await get(`/v1/bookings?attendee_email=dana%40example.com&start_date=${b.ownerSoon.startAt}`));
    expect(list.items).toEqual([{ ...single, responses: null }]);
  });
});

describe('PATCH /v1/bookings/:uid', () => {
  const read = async (uid: string) => {
    const res = await get(`/v1/bookings/${uid}`);
    return { data: expectData(res), etag: res.headers.get('etag') };
  };

  /** A successful PATCH answers the new detail and ETag, and a GET then shows exactly that. */
  const expectPatched = async (res: ApiResponse, version: number) => {
    const data = expectData(res);
    expect(data.version).toBe(version);
    expect(res.headers.get('etag')).toBe(`"${version}"`);
    expect(Object.keys(res.body.meta)).toEqual(['request_id']);
    const after = await read(data.uid);
    expect(after.data).toEqual(data);
    expect(after.etag).toBe(`"${version}"`);
    return data;
  };

  it('metadata is merged shallowly: named keys replaced whole, the others kept', async () => {
    const before = await read(b.scratch2.uid);
    expect(before.data.metadata).toEqual({ a: 1, b: { deep: true } });
    const data = await expectPatched(await patch(b.scratch2.uid, { metadata: { b: { other: 1 }, c: 'new' } }, '"1"'), 2);
    expect(data).toEqual({
      ...expectedBooking(b.scratch2, 'single', 2),
      metadata: { a: 1, b: { other: 1 }, c: 'new' },
    });
    expect(data.created_at).toBe(before.data.created_at);
    expect(data.updated_at).toMatch(TIMESTAMP);
    expect(Date.parse(data.updated_at)).toBeGreaterThan(Date.parse(before.data.updated_at));
  });

  it('responses are replaced wholesale', async () => {
    const data = await expectPatched(await patch(b.scratch3.uid, { responses: { topic: 'New' } }, '"1"'), 2);
    expect(data).toEqual({ ...expectedBooking(b.scratch3, 'single', 2), responses: { topic: 'New' } });
  });

  it('attendee_name renames the primary attendee only', async () => {
    const data = await expectPatched(await patch(b.scratch4.uid, { attendee_name: 'Renamed Person' }, '"1"'), 2);
    expect(data).toEqual({
      ...expectedBooking(b.scratch4, 'single', 2),
      attendees: [{ email: b.scratch4.attendeeEmail, name: 'Renamed Person', timezone: 'Europe/London' }],
    });
  });

  it('all three fields in one call', async () => {
    const data = await expectPatched(
      await patch(b.scratch1.uid, { metadata: { x: [1, 2] }, responses: { topic: 'All' }, attendee_name: 'Kim Renamed' }, '"1"'),
      2,
    );
    expect(data).toEqual({
      ...expectedBooking(b.scratch1, 'single', 2),
      metadata: { x: [1, 2] },
      responses: { topic: 'All' },
      attendees: [{ email: b.scratch1.attendeeEmail, name: 'Kim Renamed', timezone: 'Europe/London' }],
    });
  });

  it('If-Match accepts "N", N and *; each PATCH bumps the version by one', async () => {
    const uid = b.scratch5.uid;
    await expectPatched(await patch(uid, { metadata: { step: 1 } }, '"1"'), 2);
    await expectPatched(await patch(uid, { metadata: { step: 2 } }, '2'), 3);
    const data = await expectPatched(await patch(uid, { metadata: { step: 3 } }, '*'), 4);
    expect(data.metadata).toEqual({ step: 3 });
  });

  it('a manager may patch a booking of someone managed', async () => {
    const data = await expectPatched(await patch(b.memberSoon.uid, { metadata: { by: 'manager' } }, '"1"', SECRETS.manager), 2);
    expect(data.metadata).toEqual({ by: 'manager' });
  });

  it('the list shows the patched booking without responses', async () => {
    const data = await expectPatched(await patch(b.scratch6.uid, { responses: { topic: 'Listed' }, metadata: { l: 1 } }, '*'), 2);
    const list = expectPage(await get(`/v1/bookings?attendee_email=${encodeURIComponent(b.scratch6.attendeeEmail)}`));
    expect(list.items).toEqual([{ ...data, responses: null }]);
  });
});
