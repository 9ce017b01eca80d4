import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../src/auth/principal.js';
import { type ManualClock, manualClock } from '../src/clock.js';
import { getBookingOperation, listBookingsOperation } from '../src/operations/booking-operations.js';
import { type ExecuteDeps, execute } from '../src/operations/execute.js';
import type { ListOutcome } from '../src/operations/operation.js';
import type { CreateSeriesResult, Series } from '../src/series/series-view.js';
import type { Store } from '../src/storage/store.js';
import { testDeps } from './support/deps.js';
import { scheduleErrorOf } from './support/errors.js';
import { principalOf } from './support/organization.js';
import { createSeries, endSeries, getSeries, listSeries, pauseSeries } from './support/series-calls.js';
import { occurrenceBookingView, seriesBody } from './support/series-expect.js';
import { loadSeriesWorkspace, S0, SERIES_ET, SERIES_TOKEN, USER, type Username } from './support/series-workspace.js';
import { storeFixtures } from './support/stores.js';

const MINUTE = 60_000;
const at = (minutes: number) => new Date(Date.parse(S0) + minutes * MINUTE).toISOString();
const UNKNOWN = '7a000000-0000-4000-8000-0000000000ff';
const ROOM = 'https://video.example/room';

const error = (code: string, details: Record<string, unknown> = {}) => ({ code, details, retryAfterSeconds: undefined });
const badParam = (param: string) => error('invalid_query_param', { param });

type Name = 'H1' | 'I1' | 'S1' | 'H2' | 'P1' | 'I2' | 'H3' | 'I3';

/**
 * The series the read suite makes, in the order made: who hosts it, who
 * creates it, minutes after S0, its event type and the body changes that keep
 * each host's series from meeting. P1 and I2 share a creation instant, so the
 * list order breaks their tie by uid. H3 is paused and I3 ended afterwards.
 */
const PLAN: { name: Name; host: Username; by: keyof typeof SERIES_TOKEN; minute: number; changes: Record<string, unknown> }[] = [
  { name: 'H1', host: 'hana', by: 'hana', minute: 0, changes: {} },
  { name: 'I1', host: 'ivan', by: 'ivan', minute: 1, changes: { event_type_id: SERIES_ET.ivanWeekly } },
  { name: 'S1', host: 'sam', by: 'ada', minute: 2, changes: {} },
  { name: 'H2', host: 'hana', by: 'mona', minute: 3, changes: { event_type_id: SERIES_ET.buffered, time: '14:00' } },
  { name: 'P1', host: 'pia', by: 'owen', minute: 4, changes: { weekdays: ['tue'] } },
  { name: 'I2', host: 'ivan', by: 'ivan', minute: 4, changes: { event_type_id: SERIES_ET.ivanWeekly, time: '12:00', location_url: ROOM } },
  { name: 'H3', host: 'hana', by: 'hana', minute: 5, changes: { time: '11:00' } },
  { name: 'I3', host: 'ivan', by: 'ivan', minute: 6, changes: { event_type_id: SERIES_ET.ivanWeekly, time: '13:00' } },
];
const PAUSED_AT = at(7);
const ENDED_AT = at(8);

describe.each(storeFixtures())('reading series on $name', (fixture) => {
  let store: Store;
  let clock: ManualClock;
  let deps: ExecuteDeps;
  const who = {} as Record<keyof typeof SERIES_TOKEN, Principal>;
  /** Each series as its create answered, and the whole answers. */
  const made = {} as Record<Name, Series>;
  const answers = {} as Record<Name, CreateSeriesResult>;

  beforeAll(async () => {
    store = await fixture.open();
    clock = manualClock(S0);
    deps = testDeps(store, clock);
    await loadSeriesWorkspace({ store, clock });
    for (const name of Object.keys(SERIES_TOKEN) as (keyof typeof SERIES_TOKEN)[]) {
      who[name] = await principalOf({ store, clock }, SERIES_TOKEN[name]);
    }
    for (const plan of PLAN) {
      clock.set(at(plan.minute));
      const body = seriesBody({ host_user_id: USER[plan.host], ...plan.changes });
      answers[plan.name] = (await createSeries(deps, who[plan.by], body)).outcome.data as CreateSeriesResult;
      made[plan.name] = answers[plan.name].series;
    }
    clock.set(PAUSED_AT);
    await pauseSeries(deps, who.hana, made.H3.uid);
    clock.set(ENDED_AT);
    await endSeries(deps, who.ivan, made.I3.uid);
  });
  afterAll(() => fixture.cleanup());

  /** The series of these names, newest first (created_at desc, then uid desc). */
  const newestFirst = (...names: Name[]) =>
    names
      .map((name) => ({ uid: made[name].uid, created: at(PLAN.find((p) => p.name === name)!.minute) }))
      .sort((a, b) => b.created.localeCompare(a.created) || b.uid.localeCompare(a.uid))
      .map((s) => s.uid);
  const list = async (principal: Principal, query: Record<string, unknown> = {}) =>
    (await listSeries(deps, principal, query)).outcome as ListOutcome;
  const listedUids = async (principal: Principal, query: Record<string, unknown> = {}) =>
    ((await list(principal, query)).data as Series[]).map((s) => s.uid);
  /** Every page of a query, followed through next_cursor, with the pages' sizes. */
  const allPages = async (principal: Principal, query: Record<string, unknown>) => {
    const pages: { uids: string[]; hasMore: boolean }[] = [];
    let cursor: string | undefined;
    do {
      const page = await list(principal, cursor === undefined ? query : { ...query, cursor });
      pages.push({ uids: (page.data as Series[]).map((s) => s.uid), hasMore: page.page.hasMore });
      cursor = page.page.nextCursor ?? undefined;
      expect(page.page.hasMore).toBe(cursor !== undefined);
    } while (cursor !== undefined && pages.length < 20);
    return pages;
  };

  describe('GET /v1/series/:uid', () => {
    it('answers 200 with the Series the create answered, and its version', async () => {
      expect((await getSeries(deps, who.hana, made.H1.uid)).outcome).toEqual({ status: 200, data: made.H1, version: 1 });
    });

    it.each(['hana', 'mona', 'ada', 'owen', 'hanaRead'] as const)(
      'shows hana’s series to %s (host, her manager, admin, owner)',
      async (reader) => {
        expect((await getSeries(deps, who[reader], made.H1.uid)).outcome).toEqual({ status: 200, data: made.H1, version: 1 });
      },
    );

    it('reads a uid sent in upper case', async () => {
      expect((await getSeries(deps, who.hana, made.H1.uid.toUpperCase())).outcome.data).toEqual(made.H1);
    });

    it('shows the version, status and updated_at an action left: paused H3 at version 2', async () => {
      expect((await getSeries(deps, who.hana, made.H3.uid)).outcome).toEqual({
        status: 200,
        data: { ...made.H3, version: 2, status: 'paused', updated_at: PAUSED_AT },
        version: 2,
      });
    });

    it('shows an ended series with ended_at', async () => {
      expect((await getSeries(deps, who.ivan, made.I3.uid)).outcome).toEqual({
        status: 200,
        data: { ...made.I3, version: 2, status: 'ended', updated_at: ENDED_AT, ended_at: ENDED_AT },
        version: 2,
      });
    });

    it.each([
      ['a malformed uid', 'hana', 'not-a-uuid'],
      ['an unknown uid', 'hana', UNKNOWN],
      ["ivan's series, to hana", 'hana', 'I1'],
      ["hana's series, to ivan", 'ivan', 'H1'],
      ["sam's series, to mona who does not manage him", 'mona', 'S1'],
      ["hana's series, to sam", 'sam', 'H1'],
    ] as const)('answers 404 series_not_found, the same for every cause: %s', async (_, reader, target) => {
      const uid = target in made ? made[target as Name].uid : target;
      expect(await scheduleErrorOf(getSeries(deps, who[reader], uid))).toEqual({
        ...error('series_not_found', { uid }),
        message: 'No series with this uid.',
      });
    });

    it('refuses a token without series:read with insufficient_scope', async () => {
      expect(await scheduleErrorOf(getSeries(deps, who.hanaBookings, made.H1.uid))).toEqual({
        ...error('insufficient_scope', { required_scope: 'series:read' }),
        message: 'This token lacks the scope series:read.',
      });
    });
  });

  describe('GET /v1/series', () => {
    it('lists a user’s own series as whole Series objects, newest first, in one page', async () => {
      const page = await list(who.sam);
      expect(page).toEqual({ status: 200, data: [made.S1], page: { nextCursor: null, hasMore: false } });
    });

    it.each([
      ['hana, a user: her own', 'hana', ['H1', 'H2', 'H3']],
      ['ivan, a user: his own', 'ivan', ['I1', 'I2', 'I3']],
      ['mona, a manager: the people she manages', 'mona', ['H1', 'H2', 'H3', 'I1', 'I2', 'I3']],
      ['ada, an admin: the whole organization', 'ada', ['H1', 'I1', 'S1', 'H2', 'P1', 'I2', 'H3', 'I3']],
      ['owen, the owner: the whole organization', 'owen', ['H1', 'I1', 'S1', 'H2', 'P1', 'I2', 'H3', 'I3']],
    ] as const)('shows by role — %s — newest first, ties by uid', async (_, reader, names) => {
      expect(await listedUids(who[reader])).toEqual(newestFirst(...names));
    });

    it('shows the current state of each series, not its state at creation', async () => {
      const data = (await list(who.hana)).data as Series[];
      expect(data.map((s) => [s.uid, s.status, s.version])).toEqual([
        [made.H3.uid, 'paused', 2],
        [made.H2.uid, 'active', 1],
        [made.H1.uid, 'active', 1],
      ]);
    });

    it.each([
      ['hana asks for ivan’s', 'hana', USER.ivan],
      ['mona asks for sam’s', 'mona', USER.sam],
      ['ivan asks for an unknown user’s', 'ivan', UNKNOWN],
    ] as const)('answers a host_user_id outside the visible set with an empty page, not an error: %s', async (_, reader, host) => {
      expect(await list(who[reader], { host_user_id: host })).toEqual({
        status: 200,
        data: [],
        page: { nextCursor: null, hasMore: false },
      });
    });

    it.each([
      ['mona, for ivan', 'mona', { host_user_id: USER.ivan }, ['I1', 'I2', 'I3']],
      ['ada, for pia in upper case', 'ada', { host_user_id: USER.pia.toUpperCase() }, ['P1']],
      ['status paused', 'ada', { status: 'paused' }, ['H3']],
      ['status ended', 'mona', { status: 'ended' }, ['I3']],
      ['status active,paused', 'mona', { status: 'active,paused' }, ['H1', 'H2', 'H3', 'I1', 'I2']],
      ['status of all three', 'hana', { status: 'active,paused,ended' }, ['H1', 'H2', 'H3']],
      ['status ended, none of hana’s', 'hana', { status: 'ended' }, []],
      ['event_type_id buffered', 'ada', { event_type_id: SERIES_ET.buffered }, ['H2']],
      ['event_type_id of ivan’s type', 'ada', { event_type_id: SERIES_ET.ivanWeekly }, ['I1', 'I2', 'I3']],
      ['hana’s weekly type, across hosts', 'ada', { event_type_id: SERIES_ET.weekly }, ['H1', 'S1', 'P1', 'H3']],
      ['filters together', 'ada', { event_type_id: SERIES_ET.weekly, host_user_id: USER.hana, status: 'active' }, ['H1']],
    ] as const)('filters: %s', async (_, reader, query, names) => {
      expect(await listedUids(who[reader], query)).toEqual(newestFirst(...names));
    });

    const STATUSES = 'status: must be a comma-separated list of active, paused, ended.';
    it.each([
      [{ status: 'active,bogus' }, 'status', STATUSES],
      [{ status: 'ACTIVE' }, 'status', STATUSES],
      [{ status: '' }, 'status', STATUSES],
      [{ host_user_id: 'ivan' }, 'host_user_id', 'host_user_id: must be a UUID.'],
      [{ event_type_id: 'weekly' }, 'event_type_id', 'event_type_id: must be a UUID.'],
      [{ limit: '0' }, 'limit', 'limit: must be an integer from 1 to 100.'],
      [{ limit: '101' }, 'limit', 'limit: must be an integer from 1 to 100.'],
      [{ limit: 'ten' }, 'limit', 'limit: must be an integer from 1 to 100.'],
      [{ cursor: 'not-a-cursor' }, 'cursor', 'The cursor is not valid for this query.'],
    ])('refuses %j with 400 invalid_query_param naming the parameter', async (query, param, message) => {
      expect(await scheduleErrorOf(listSeries(deps, who.ada, query))).toEqual({ ...badParam(param), message });
    });

    it('pages with limit and cursor across every page, without duplicates or gaps', async () => {
      const all = newestFirst('H1', 'I1', 'S1', 'H2', 'P1', 'I2', 'H3', 'I3');
      const pages = await allPages(who.ada, { limit: 3 });
      expect(pages).toEqual([
        { uids: all.slice(0, 3), hasMore: true },
        { uids: all.slice(3, 6), hasMore: true },
        { uids: all.slice(6), hasMore: false },
      ]);
    });

    it('pages a filtered list through a page boundary that ends exactly at the last row', async () => {
      const pages = await allPages(who.mona, { limit: 2, status: 'active' });
      const active = newestFirst('H1', 'H2', 'I1', 'I2');
      expect(pages).toEqual([
        { uids: active.slice(0, 2), hasMore: true },
        { uids: active.slice(2), hasMore: false },
      ]);
    });

    it('pages with limit 1 and with the default limit (20) the same rows', async () => {
      const one = (await allPages(who.owen, { limit: 1 })).flatMap((p) => p.uids);
      expect(one).toEqual(await listedUids(who.owen));
      expect(one).toHaveLength(8);
    });

    it.each([
      ['with other filters', { limit: 2, status: 'active' }, { limit: 2 }],
      ['with another host', { limit: 2, host_user_id: USER.hana }, { limit: 2, host_user_id: USER.ivan }],
      ['with another event type', { limit: 1, event_type_id: SERIES_ET.weekly }, { limit: 1, event_type_id: SERIES_ET.buffered }],
    ])('refuses a cursor from another query (%s) as invalid_query_param cursor', async (_, from, to) => {
      const cursor = (await list(who.ada, from)).page.nextCursor;
      expect(cursor).toEqual(expect.any(String));
      expect(await scheduleErrorOf(listSeries(deps, who.ada, { ...to, cursor }))).toEqual({
        ...badParam('cursor'),
        message: 'The cursor is not valid for this query.',
      });
    });

    it('refuses a token without series:read with insufficient_scope', async () => {
      expect(await scheduleErrorOf(listSeries(deps, who.hanaBookings))).toEqual({
        ...error('insufficient_scope', { required_scope: 'series:read' }),
        message: 'This token lacks the scope series:read.',
      });
    });
  });

  describe('occurrences are ordinary bookings', () => {
    const getBooking = (principal: Principal, uid: string) =>
      execute(deps, getBookingOperation, principal, { params: { uid }, query: {}, body: undefined }, 'req-get').then((e) => e.outcome);
    const listBookings = async (principal: Principal, query: Record<string, unknown>) =>
      (await execute(deps, listBookingsOperation, principal, { params: {}, query, body: undefined }, 'req-list')).outcome.data;

    it('GET /v1/bookings/:uid shows each occurrence as a full Booking, version 1, with its own conference link', async () => {
      for (const occurrence of answers.H1.occurrences) {
        expect(await getBooking(who.hana, occurrence.uid)).toEqual({ status: 200, data: occurrenceBookingView(occurrence), version: 1 });
      }
    });

    it('carries the series location_url as a link location (I2)', async () => {
      for (const occurrence of answers.I2.occurrences) {
        expect((await getBooking(who.ivan, occurrence.uid)).data).toEqual(
          occurrenceBookingView(occurrence, {
            host: 'ivan',
            event_type_id: SERIES_ET.ivanWeekly,
            location: { type: 'link', url: ROOM, value: null },
            created_at: at(4),
            updated_at: at(4),
          }),
        );
      }
    });

    it("takes the series zone as booking and attendee timezone, and the host's name in the title (S1, sam)", async () => {
      const [occurrence] = answers.S1.occurrences;
      expect((await getBooking(who.ada, occurrence!.uid)).data).toEqual(
        occurrenceBookingView(occurrence!, { host: 'sam', timezone: 'Asia/Kolkata', created_at: at(2), updated_at: at(2) }),
      );
    });

    it('marks calendar sync synced for a host with a static calendar (P1, pia)', async () => {
      const [occurrence] = answers.P1.occurrences;
      expect((await getBooking(who.ada, occurrence!.uid)).data).toEqual(
        occurrenceBookingView(occurrence!, { host: 'pia', calendar_sync_status: 'synced', created_at: at(4), updated_at: at(4) }),
      );
    });

    it('GET /v1/bookings?series_id=<uid> lists exactly its occurrences (not the host’s other series), newest start first', async () => {
      const expected = answers.H1.occurrences.map((o) => occurrenceBookingView(o, { responses: null })).reverse();
      expect(await listBookings(who.hana, { series_id: made.H1.uid })).toEqual(expected);
      expect(await listBookings(who.ada, { series_id: made.H1.uid })).toEqual(expected);
    });

    it('lists nothing for a series_id whose host the caller cannot see', async () => {
      expect(await listBookings(who.ivan, { series_id: made.H1.uid })).toEqual([]);
    });
  });

  describe('a cursor stays valid when series are created meanwhile (keyset, not offset)', () => {
    let own: ExecuteDeps;
    beforeAll(async () => {
      const other = await fixture.open();
      own = testDeps(other, clock);
      await loadSeriesWorkspace({ store: other, clock });
    });

    it('continues after the last row seen: no duplicate and no gap, the newer series only on a fresh first page', async () => {
      const ada = await principalOf({ store: own.store, clock }, SERIES_TOKEN.ada);
      const make = async (minute: number, host: Username) => {
        clock.set(at(minute));
        const body = seriesBody({ host_user_id: USER[host], weekdays: ['thu'], time: `${10 + minute}:00` });
        return ((await createSeries(own, ada, body)).outcome.data as CreateSeriesResult).series.uid;
      };
      const older = [await make(0, 'hana'), await make(1, 'ivan'), await make(2, 'sam'), await make(3, 'pia')];
      const first = (await listSeries(own, ada, { limit: 2 })).outcome as ListOutcome;
      const newer = await make(4, 'hana');
      const second = (await listSeries(own, ada, { limit: 2, cursor: first.page.nextCursor })).outcome as ListOutcome;
      const fresh = (await listSeries(own, ada, { limit: 2 })).outcome as ListOutcome;
      expect({
        first: (first.data as Series[]).map((s) => s.uid),
        second: (second.data as Series[]).map((s) => s.uid),
        fresh: (fresh.data as Series[]).map((s) => s.uid),
      }).toEqual({ first: [older[3], older[2]], second: [older[1], older[0]], fresh: [newer, older[3]] });
    });
  });
});
