import type { Executor } from '../storage/store.js';
import { fileEntryOf } from './file-terms.js';
import { WORKSPACE_KINDS } from './workspace-kinds.js';

/**
 * The database as a workspace file: the organization, users (with working
 * hours and the calendars a file declares), event types and the public
 * OAuth clients an operator registered. Tokens (stored as digests only)
 * and bookings (data, not configuration) are left out, so a file of this
 * does not manage them. Read through the same kinds the plan compares, so
 * applying the export back plans no change.
 */
export async function exportWorkspace(db: Executor): Promise<Record<string, unknown>> {
  const users = await db.selectFrom('users').select(['id', 'username']).execute();
  const names = new Map(users.map((user) => [user.id, user.username]));
  let file: Record<string, unknown> = {};
  for (const kind of WORKSPACE_KINDS) {
    if (!kind.exportAs) continue;
    const entries = await kind.read(db, names, new Set());
    file = { ...file, ...kind.exportAs(entries.map((entry) => fileEntryOf(kind, entry.fields, names))) };
  }
  return file;
}
