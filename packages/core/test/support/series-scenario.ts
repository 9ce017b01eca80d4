import type { Principal } from '../../src/auth/principal.js';
import { type ManualClock, manualClock } from '../../src/clock.js';
import type { ExecuteDeps } from '../../src/operations/execute.js';
import type { Series } from '../../src/series/series-view.js';
import type { Store } from '../../src/storage/store.js';
import { createBooking, getBooking } from './booking-calls.js';
import { testDeps } from './deps.js';
import { principalOf } from './organization.js';
import { createSeries, getSeries, occurrenceRowsOf, owedRowsOf } from './series-calls.js';
import { loadSeriesWorkspace, S0, SERIES_ET, SERIES_TOKEN, USER } from './series-workspace.js';
import type { StoreFixture } from './stores.js';

// The state the series action suites start each test from: the series
// workspace loaded, nothing booked, the clock at S0. Reset between tests by
// forgetting every series, booking and queued message, which is much
// cheaper than a new database.

/** The principals the action suites act as. */
export interface SeriesPrincipals {
  readonly hana: Principal;
  readonly ivan: Principal;
  /** Manages hana and ivan. */
  readonly mona: Principal;
  /** Admin: acts for everyone. */
  readonly ada: Principal;
  /** hana with series:read only. */
  readonly hanaRead: Principal;
}

export interface SeriesScenario {
  readonly store: Store;
  readonly clock: ManualClock;
  readonly deps: ExecuteDeps;
  readonly as: SeriesPrincipals;
}

/** Opens a store of the fixture, loads the workspace and authenticates the suite's principals. */
export async function openSeriesScenario(fixture: StoreFixture, overrides: Partial<ExecuteDeps> = {}): Promise<SeriesScenario> {
  const store = await fixture.open();
  const clock = manualClock(S0);
  await loadSeriesWorkspace({ store, clock });
  const as: SeriesPrincipals = {
    hana: await principalOf({ store, clock }, SERIES_TOKEN.hana),
    ivan: await principalOf({ store, clock }, SERIES_TOKEN.ivan),
    mona: await principalOf({ store, clock }, SERIES_TOKEN.mona),
    ada: await principalOf({ store, clock }, SERIES_TOKEN.ada),
    hanaRead: await principalOf({ store, clock }, SERIES_TOKEN.hanaRead),
  };
  return { store, clock, deps: testDeps(store, clock, overrides), as };
}

/** Back to the freshly loaded workspace (with these imported bookings) at S0. */
export async function resetSeriesScenario(scenario: SeriesScenario, extra: { bookings?: object[] } = {}): Promise<void> {
  const { store, clock } = scenario;
  clock.set(S0);
  const { db } = store;
  await db.deleteFrom('notifications').execute();
  await db.deleteFrom('series_owed').execute();
  await db.deleteFrom('outbox').execute();
  await db.deleteFrom('idempotency_keys').execute();
  await db.deleteFrom('bookings').execute();
  await db.deleteFrom('series').execute();
  await loadSeriesWorkspace({ store, clock }, extra);
}

/** An instant of the suites, UTC with milliseconds as the API shows it: `at('2026-03-04')` is 10:00 that day. */
export const at = (date: string, time = '10:00'): string => `${date}T${time}:00.000Z`;

/** The six dates of the standard series: Mondays and Wednesdays from S0's Monday. */
export const MON_WED_DATES = ['2026-03-02', '2026-03-04', '2026-03-09', '2026-03-11', '2026-03-16', '2026-03-18'] as const;

/** The attendee of every standard series. */
export const ATTENDEE = { email: 'bob@example.com', name: 'Bob Invitee' } as const;

/** hana's weekly series, Monday and Wednesday at 10:00 UTC, six times from 2026-03-02, with `changes`. */
export const weeklyBody = (changes: Record<string, unknown> = {}): Record<string, unknown> => ({
  host_user_id: USER.hana,
  event_type_id: SERIES_ET.weekly,
  attendee: ATTENDEE,
  frequency: 'weekly',
  weekdays: ['mon', 'wed'],
  time: '10:00',
  starts_on: '2026-03-02',
  count: 6,
  ...changes,
});

export interface CreatedSeries {
  readonly series: Series;
  readonly occurrences: { uid: string; start_at: string; end_at: string; status: string }[];
  readonly skipped: { date: string; start_at: string; reason: string }[];
}

/** Creates a series (hana's standard one unless `body` says otherwise) and answers the create's data. */
export async function seriesCreated(
  scenario: SeriesScenario,
  body: Record<string, unknown> = weeklyBody(),
  principal: Principal = scenario.as.hana,
): Promise<CreatedSeries> {
  return (await createSeries(scenario.deps, principal, body)).outcome.data as CreatedSeries;
}

/** The series as the admin reads it now. */
export async function seriesNow(scenario: SeriesScenario, uid: string): Promise<Series> {
  return (await getSeries(scenario.deps, scenario.as.ada, uid)).outcome.data as Series;
}

/** One booking as the admin reads it now. */
export async function bookingNow(scenario: SeriesScenario, uid: string): Promise<Record<string, unknown>> {
  return (await getBooking(scenario.deps, scenario.as.ada, uid)).data as Record<string, unknown>;
}

/** A series' bookings as `{uid, status, start_at}`, by start then uid. */
export async function occurrencesOf(scenario: SeriesScenario, seriesUid: string) {
  return (await occurrenceRowsOf(scenario.store, seriesUid)).map(({ uid, status, start_at }) => ({ uid, status, start_at }));
}

/** The confirmed bookings of a series: the occurrences that hold a pattern instant. */
export async function liveCountOf(scenario: SeriesScenario, seriesUid: string): Promise<number> {
  return (await occurrenceRowsOf(scenario.store, seriesUid)).filter((o) => o.status === 'confirmed').length;
}

/** Occurrences held plus entries owed: docs/api/choices.md says this never changes through pause, resume or PATCH. */
export async function heldPlusOwed(scenario: SeriesScenario, seriesUid: string): Promise<number> {
  return (await liveCountOf(scenario, seriesUid)) + (await owedRowsOf(scenario.store, seriesUid)).length;
}

/** A workspace `bookings[]` entry: an ordinary booking imported on ivan's weekly type. */
export function ivanBooking(uid: string, start: string): Record<string, unknown> {
  return {
    uid,
    event_type: SERIES_ET.ivanWeekly,
    host: 'ivan',
    start,
    attendee: { email: 'carol@example.com', name: 'Carol', timezone: 'UTC' },
    status: 'confirmed',
  };
}

/** The expected error as scheduleErrorOf reports it. */
export const seen = (code: string, details: Record<string, unknown> = {}) => ({ code, details, retryAfterSeconds: undefined });

/** An ordinary booking of hana's weekly type for Carol at `start` (making hana busy there); its uid. */
export async function hanaBooked(scenario: SeriesScenario, start: string, key: string): Promise<string> {
  const booked = await createBooking(
    scenario.deps,
    scenario.as.hana,
    { event_type_id: SERIES_ET.weekly, start, attendee: { email: 'carol@example.com', name: 'Carol' } },
    key,
  );
  if (booked.outcome.status !== 201) throw new Error(`hana could not be booked at ${start}: ${JSON.stringify(booked.outcome)}`);
  return (booked.outcome.data as { uid: string }).uid;
}
