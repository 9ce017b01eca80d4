import type { Principal } from '../../src/auth/principal.js';
import { type Clock, type ManualClock, manualClock } from '../../src/clock.js';
import { randomIds } from '../../src/ids.js';
import type { ExecuteDeps } from '../../src/operations/execute.js';
import type { Store } from '../../src/storage/store.js';
import { loadWorkspace } from '../../src/workspace/load-workspace.js';
import { parseWorkspace } from '../../src/workspace/parse-workspace.js';
import { testDeps } from './deps.js';
import { principalOf } from './organization.js';
import type { StoreFixture } from './stores.js';

// The time-off endpoints, called as every front end calls them: through
// `execute` with a raw call. Ann works in Berlin; Mia manages her; Ben is a
// user nobody manages; Ada is an admin.

export const TO_USERS = {
  ann: 'b0000000-0000-4000-8000-00000000000a',
  mia: 'b0000000-0000-4000-8000-00000000000b',
  ben: 'b0000000-0000-4000-8000-00000000000c',
  ada: 'b0000000-0000-4000-8000-00000000000d',
} as const;

export const TO_TOKENS = {
  ann: 'pat_ann_availability_rw',
  annRead: 'pat_ann_availability_read',
  annBookings: 'pat_ann_bookings_only_x',
  mia: 'pat_mia_availability_rw',
  ben: 'pat_ben_availability_rw',
  ada: 'pat_ada_availability_rw',
} as const;

export type ToCaller = keyof typeof TO_TOKENS;

export const ANN_EVENT_TYPE = 'c0000000-0000-4000-8000-00000000000a';

const RW = ['availability:read', 'availability:write', 'slots:read', 'bookings:read', 'bookings:create', 'bookings:reschedule'];
const weekdays = Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri'].map((d) => [d, [['09:00', '17:00']]]));

/** The workspace: Ann hosts a 30-minute call on weekdays 09:00-17:00 Berlin time. */
export function timeOffWorkspace(): Record<string, unknown> {
  return {
    organization: { name: 'Away' },
    users: [
      {
        id: TO_USERS.ann,
        username: 'ann',
        email: 'ann@away.test',
        name: 'Ann',
        role: 'user',
        timezone: 'Europe/Berlin',
        schedule: { timezone: 'Europe/Berlin', weekly: weekdays },
      },
      { id: TO_USERS.mia, username: 'mia', email: 'mia@away.test', name: 'Mia', role: 'manager', manages: ['ann'] },
      { id: TO_USERS.ben, username: 'ben', email: 'ben@away.test', name: 'Ben', role: 'user' },
      { id: TO_USERS.ada, username: 'ada', email: 'ada@away.test', name: 'Ada', role: 'admin' },
    ],
    event_types: [
      {
        id: ANN_EVENT_TYPE,
        owner: 'ann',
        slug: 'call',
        name: 'Call',
        duration_minutes: 30,
        slot_interval_minutes: 30,
        future_limit_days: 400,
        recurring: 'on',
      },
    ],
    tokens: [
      { name: 'ann', user: 'ann', secret: TO_TOKENS.ann, scopes: [...RW, 'series:read', 'series:write'] },
      { name: 'ann-read', user: 'ann', secret: TO_TOKENS.annRead, scopes: ['availability:read'] },
      { name: 'ann-bookings', user: 'ann', secret: TO_TOKENS.annBookings, scopes: ['bookings:read'] },
      { name: 'mia', user: 'mia', secret: TO_TOKENS.mia, scopes: RW },
      { name: 'ben', user: 'ben', secret: TO_TOKENS.ben, scopes: RW },
      { name: 'ada', user: 'ada', secret: TO_TOKENS.ada, scopes: RW },
    ],
  };
}

/** Loads the workspace and answers every caller's principal. */
export async function loadTimeOffWorkspace(deps: { store: Store; clock: Clock }): Promise<Record<ToCaller, Principal>> {
  await loadWorkspace({ ...deps, ids: randomIds }, parseWorkspace(JSON.stringify(timeOffWorkspace())));
  const who = {} as Record<ToCaller, Principal>;
  for (const name of Object.keys(TO_TOKENS) as ToCaller[]) who[name] = await principalOf(deps, TO_TOKENS[name]);
  return who;
}

/** What the time-off suites start from: the workspace loaded, every caller authenticated. */
export interface TimeOffScenario {
  readonly store: Store;
  readonly clock: ManualClock;
  readonly deps: ExecuteDeps;
  readonly who: Record<ToCaller, Principal>;
}

/** Opens a store of the fixture with the workspace loaded at `t0`. */
export async function openTimeOffScenario(fixture: StoreFixture, t0: string): Promise<TimeOffScenario> {
  const store = await fixture.open();
  const clock = manualClock(t0);
  return { store, clock, deps: testDeps(store, clock), who: await loadTimeOffWorkspace({ store, clock }) };
}

/** Back to the loaded workspace at `t0`: no time off, bookings, events, mail or stored answers. */
export async function resetTimeOffScenario({ store, clock }: TimeOffScenario, t0: string): Promise<void> {
  clock.set(t0);
  for (const table of ['outbox', 'idempotency_keys', 'notifications', 'bookings', 'time_off'] as const) {
    await store.db.deleteFrom(table).execute();
  }
}

/** A call of any operation through `execute` (webhook-calls.ts's helper, which is not webhook-specific). */
export { callWebhooks as callAs } from './webhook-calls.js';
