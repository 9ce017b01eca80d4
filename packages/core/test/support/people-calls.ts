import { afterAll, beforeEach } from 'vitest';
import type { Principal } from '../../src/auth/principal.js';
import { SCOPES } from '../../src/auth/scopes.js';
import { type Clock, type ManualClock, manualClock } from '../../src/clock.js';
import { randomIds } from '../../src/ids.js';
import type { ExecuteDeps, Executed } from '../../src/operations/execute.js';
import type { RawCall } from '../../src/operations/operation.js';
import type { operationsByName } from '../../src/operations/registry.js';
import type { Store } from '../../src/storage/store.js';
import { loadWorkspace } from '../../src/workspace/load-workspace.js';
import { parseWorkspace } from '../../src/workspace/parse-workspace.js';
import { testDeps } from './deps.js';
import { principalOf } from './organization.js';
import type { StoreFixture } from './stores.js';
import { callWebhooks } from './webhook-calls.js';

// The people and token endpoints' organization: an owner, an admin, a
// manager of one user, and a user nobody manages; every token holds every
// scope but the narrow ones, and one stands for an OAuth app.

export const PP = {
  olga: 'b0000000-0000-4000-8000-00000000000a',
  ada: 'b0000000-0000-4000-8000-00000000000b',
  mia: 'b0000000-0000-4000-8000-00000000000c',
  ursula: 'b0000000-0000-4000-8000-00000000000d',
  oscar: 'b0000000-0000-4000-8000-00000000000e',
} as const;

export const PP_TOKENS = {
  olga: 'pat_olga_every_scope_x',
  ada: 'pat_ada_every_scope_xx',
  mia: 'pat_mia_every_scope_xx',
  ursula: 'pat_ursula_every_scope',
  oscar: 'pat_oscar_every_scope_',
  adaNarrow: 'pat_ada_people_tokens_',
  olgaApp: 'oauth_olga_app_every_x',
  ursulaNoTokens: 'pat_ursula_bookings_xx',
} as const;

export type PpCaller = keyof typeof PP_TOKENS;

export const URSULA_EVENT_TYPE = 'c0000000-0000-4000-8000-00000000000d';

export function peopleWorkspace(): Record<string, unknown> {
  const every = [...SCOPES];
  return {
    organization: { name: 'People' },
    users: [
      { id: PP.olga, username: 'olga', email: 'olga@people.test', name: 'Olga Owner', timezone: 'Europe/Berlin', role: 'owner' },
      { id: PP.ada, username: 'ada', email: 'ada@people.test', name: 'Ada Admin', role: 'admin' },
      { id: PP.mia, username: 'mia', email: 'mia@people.test', name: 'Mia Manager', role: 'manager', manages: ['ursula'] },
      { id: PP.ursula, username: 'ursula', email: 'ursula@people.test', name: 'Ursula User', role: 'user' },
      { id: PP.oscar, username: 'oscar', email: 'oscar@people.test', name: 'Oscar Other', role: 'user' },
    ],
    event_types: [{ id: URSULA_EVENT_TYPE, owner: 'ursula', slug: 'chat', name: 'Chat', duration_minutes: 30 }],
    tokens: [
      { name: 'olga', user: 'olga', secret: PP_TOKENS.olga, scopes: every },
      { name: 'ada', user: 'ada', secret: PP_TOKENS.ada, scopes: every },
      { name: 'mia', user: 'mia', secret: PP_TOKENS.mia, scopes: every },
      { name: 'ursula', user: 'ursula', secret: PP_TOKENS.ursula, scopes: every },
      { name: 'oscar', user: 'oscar', secret: PP_TOKENS.oscar, scopes: every },
      {
        name: 'ada-narrow',
        user: 'ada',
        secret: PP_TOKENS.adaNarrow,
        scopes: ['people:write', 'tokens:read', 'tokens:write', 'slots:read'],
      },
      { name: 'olga-app', user: 'olga', secret: PP_TOKENS.olgaApp, scopes: every, oauth_client_id: 'some-app' },
      { name: 'ursula-bookings', user: 'ursula', secret: PP_TOKENS.ursulaNoTokens, scopes: ['bookings:read'] },
    ],
  };
}

/** Loads the organization and answers every caller's principal. */
export async function loadPeopleWorkspace(deps: { store: Store; clock: Clock }): Promise<Record<PpCaller, Principal>> {
  await loadWorkspace({ ...deps, ids: randomIds }, parseWorkspace(JSON.stringify(peopleWorkspace())));
  const who = {} as Record<PpCaller, Principal>;
  for (const name of Object.keys(PP_TOKENS) as PpCaller[]) who[name] = await principalOf(deps, PP_TOKENS[name]);
  return who;
}

/** When every people and tokens test starts. */
export const PP_T0 = '2026-06-01T09:00:00.000Z';

type CallRest = Partial<RawCall> & { key?: string | null };
type OperationName = keyof typeof operationsByName;

/** One store's people suite, fresh for each test; a test may replace `deps` (a cache, a cap) for its own calls. */
export interface PeopleSuite {
  store: Store;
  clock: ManualClock;
  deps: ExecuteDeps;
  who: Record<PpCaller, Principal>;
  /** Calls an operation through `execute` as one of the organization's callers. */
  call(caller: PpCaller, name: OperationName, rest?: CallRest): Promise<Executed>;
  /** The same as any principal, such as one of a token a test made. */
  callAs(principal: Principal, name: OperationName, rest?: CallRest): Promise<Executed>;
}

/**
 * Registers, inside a `describe` over store fixtures, a fresh store per
 * test with the organization loaded at PP_T0, and answers the suite; its
 * fields are set before each test.
 */
export function peopleSuite(fixture: StoreFixture): PeopleSuite {
  const suite = {
    callAs: (principal, name, rest = {}) => callWebhooks(suite.deps, principal, name, rest),
    call: (caller, name, rest = {}) => suite.callAs(suite.who[caller], name, rest),
  } as PeopleSuite;
  beforeEach(async () => {
    suite.store = await fixture.open();
    suite.clock = manualClock(PP_T0);
    suite.deps = testDeps(suite.store, suite.clock);
    suite.who = await loadPeopleWorkspace(suite);
  });
  afterAll(() => fixture.cleanup());
  return suite;
}
