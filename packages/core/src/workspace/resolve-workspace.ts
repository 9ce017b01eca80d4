import { checkTeamShape } from '../event-types/pool.js';
import type { BookingsTable } from '../storage/schema.js';
import type { Executor } from '../storage/store.js';
import { WorkspaceError } from './parse-workspace.js';
import type { ResolvedFile } from './resource-kind.js';
import { oauthClientProblems } from './workspace-oauth-clients.js';
import { resolveEventTypes, resolveUsers } from './workspace-refs.js';
import { importedBookingRow } from './workspace-rows.js';
import type { DeclaredWorkspace } from './workspace-sections.js';

/**
 * The file's references resolved against the database. Every reference is
 * checked before anything is planned or written, so a file naming a user or
 * event type that exists nowhere writes nothing (docs/workspace.md "All or
 * nothing").
 */
export async function resolveWorkspace(trx: Executor, declared: DeclaredWorkspace, now: string): Promise<ResolvedFile> {
  const { workspace } = declared;
  const users = await resolveUsers(trx, workspace);
  const eventTypes = await resolveEventTypes(trx, workspace, users);
  const problems: string[] = [];
  for (const [i, user] of workspace.users.entries()) {
    for (const [j, managed] of user.manages.entries()) {
      if (!users.has(managed)) problems.push(`users[${i}].manages[${j}]: no user "${managed}"`);
    }
  }
  for (const [i, eventType] of workspace.event_types.entries()) {
    if (!users.has(eventType.owner)) problems.push(`event_types[${i}].owner: no user "${eventType.owner}"`);
    for (const [j, host] of eventType.hosts.entries()) {
      const name = host.user_id ?? host.username ?? '';
      if (!users.has(name)) problems.push(`event_types[${i}].hosts[${j}]: no user "${name}"`);
    }
    try {
      checkTeamShape(eventType);
    } catch (error) {
      problems.push(`event_types[${i}].${(error as Error).message}`);
    }
  }
  for (const [i, token] of workspace.tokens.entries()) {
    if (!users.has(token.user)) problems.push(`tokens[${i}].user: no user "${token.user}"`);
  }
  const bookingRows = workspace.bookings.map((booking, i) => importedBookingRow(booking, i, users, eventTypes.all, problems, now));
  problems.push(...(await oauthClientProblems(trx, workspace)));
  if (problems.length > 0) throw new WorkspaceError(problems);
  return {
    declared,
    users,
    eventTypes: eventTypes.all,
    eventTypeIds: eventTypes.ofFile,
    bookingRows: bookingRows as BookingsTable[],
  };
}
