import { applyWorkspace } from './apply-plan.js';
import type { ApplyDeps } from './resource-kind.js';
import type { Workspace } from './workspace-schema.js';
import { declaringAll } from './workspace-sections.js';

export type LoadWorkspaceDeps = ApplyDeps;

export interface LoadReport {
  users: number;
  eventTypes: number;
  tokens: number;
  bookingsWritten: number;
  bookingsUnchanged: number;
  oauthClients: number;
}

/**
 * Applies a validated workspace built in code, managing every section, and
 * never pruning: loading the same file twice changes nothing; a changed file
 * updates what it names and leaves everything else alone (docs/workspace.md).
 * A bad file writes nothing.
 */
export async function loadWorkspace(deps: LoadWorkspaceDeps, workspace: Workspace): Promise<LoadReport> {
  const plan = await applyWorkspace(deps, declaringAll(workspace));
  const bookings = plan.items.filter((item) => item.kind === 'booking');
  const written = bookings.filter((item) => item.action === 'create' || item.action === 'change').length;
  return {
    users: workspace.users.length,
    eventTypes: workspace.event_types.length,
    tokens: workspace.tokens.length,
    bookingsWritten: written,
    bookingsUnchanged: bookings.length - written,
    oauthClients: workspace.oauth_clients.length,
  };
}
