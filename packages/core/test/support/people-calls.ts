import type { Principal } from '../../src/auth/principal.js';
import { SCOPES } from '../../src/auth/scopes.js';
import type { Clock } from '../../src/clock.js';
import { randomIds } from '../../src/ids.js';
import type { Store } from '../../src/storage/store.js';
import { loadWorkspace } from '../../src/workspace/load-workspace.js';
import { parseWorkspace } from '../../src/workspace/parse-workspace.js';
import { principalOf } from './organization.js';

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
