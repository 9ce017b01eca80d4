import type { Principal } from '../../src/auth/principal.js';
import { type ManualClock, manualClock } from '../../src/clock.js';
import { randomIds } from '../../src/ids.js';
import type { ExecuteDeps } from '../../src/operations/execute.js';
import type { Store } from '../../src/storage/store.js';
import { loadWorkspace } from '../../src/workspace/load-workspace.js';
import { parseWorkspace } from '../../src/workspace/parse-workspace.js';
import { testDeps } from './deps.js';
import { principalOf } from './organization.js';

/** A store with a workspace loaded at a manual clock's start, and each named token's caller. */
export interface TokenWorld<Caller extends string> {
  readonly store: Store;
  readonly clock: ManualClock;
  readonly deps: ExecuteDeps;
  readonly who: Record<Caller, Principal>;
}

/** Opens the fixture's store, loads `workspace` at `start` and authenticates each token of `tokens` by name. */
export async function openTokenWorld<Caller extends string>(
  fixture: { open: () => Promise<Store> },
  start: string,
  workspace: unknown,
  tokens: Record<Caller, string>,
): Promise<TokenWorld<Caller>> {
  const store = await fixture.open();
  const clock = manualClock(start);
  await loadWorkspace({ store, clock, ids: randomIds }, parseWorkspace(JSON.stringify(workspace)));
  const who = {} as Record<Caller, Principal>;
  for (const name of Object.keys(tokens) as Caller[]) who[name] = await principalOf({ store, clock }, tokens[name]);
  return { store, clock, deps: testDeps(store, clock), who };
}

/** Every scope a team's tests call with: event types, bookings, series and slots. */
export const TEAM_SCOPES = [
  'event_types:write',
  'bookings:create',
  'bookings:read',
  'bookings:reschedule',
  'bookings:update',
  'bookings:cancel',
  'series:write',
  'slots:read',
];

/** Working hours 09:00 to 17:00 UTC, Monday to Friday. */
export const WEEKDAYS_9_TO_5 = {
  timezone: 'UTC',
  weekly: Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri'].map((d) => [d, [['09:00', '17:00']]])),
};
