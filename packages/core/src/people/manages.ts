import { ScheduleError } from '../errors.js';
import type { Executor } from '../storage/store.js';

/**
 * The user ids of a manager's `manages`, given by username or id, in the
 * order given and each once; a name that is no one is `400 validation_error`
 * on `manages`, as a workspace file's is refused.
 */
export async function managedIds(db: Executor, refs: readonly string[]): Promise<string[]> {
  if (refs.length === 0) return [];
  const rows = await db
    .selectFrom('users')
    .select(['id', 'username'])
    .where((eb) =>
      eb.or([
        eb('username', 'in', refs),
        eb(
          'id',
          'in',
          refs.map((r) => r.toLowerCase()),
        ),
      ]),
    )
    .execute();
  const ids: string[] = [];
  for (const ref of refs) {
    const row = rows.find((r) => r.username === ref || r.id === ref.toLowerCase());
    if (!row) throw new ScheduleError('validation_error', `manages: no person "${ref}".`, { fields: ['manages'] });
    if (!ids.includes(row.id)) ids.push(row.id);
  }
  return ids;
}
