import type { Principal } from '../../src/auth/principal.js';
import type { Scope } from '../../src/auth/scopes.js';
import { type ManualClock, manualClock } from '../../src/clock.js';
import type { ExecuteDeps } from '../../src/operations/execute.js';
import type { Store } from '../../src/storage/store.js';
import { loadWorkspace } from '../../src/workspace/load-workspace.js';
import { parseWorkspace } from '../../src/workspace/parse-workspace.js';
import { testDeps } from './deps.js';
import { principalOf } from './organization.js';

// The property tests that generate a host per case share one store: an owner
// who may act for everyone, and each case's host and event type loaded
// beside the earlier ones (cheaper than a store per case).

export interface GeneratedHostsWorld {
  readonly store: Store;
  readonly clock: ManualClock;
  readonly deps: ExecuteDeps;
  readonly owner: Principal;
  /** Loads more of a workspace (a case's host and event type) into the store. */
  load(workspace: Record<string, unknown>): Promise<void>;
}

/** A store with an owner whose token has `scopes`, the clock pinned at `now`. */
export async function openGeneratedHostsWorld(store: Store, now: string, scopes: readonly Scope[]): Promise<GeneratedHostsWorld> {
  const clock = manualClock(now);
  const deps = testDeps(store, clock);
  const load = async (workspace: Record<string, unknown>) => {
    await loadWorkspace({ store, clock, ids: deps.ids }, parseWorkspace(JSON.stringify(workspace)));
  };
  const secret = 'pat_generated_hosts_owner';
  await load({
    users: [{ username: 'owner', email: 'owner@example.test', role: 'owner' }],
    tokens: [{ name: 'owner', user: 'owner', secret, scopes }],
  });
  return { store, clock, deps, owner: await principalOf({ store, clock }, secret), load };
}
