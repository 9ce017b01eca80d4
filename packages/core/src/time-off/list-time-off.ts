import { sql } from 'kysely';
import { decodeCursor, type Page, pageOf, queryBinding } from '../pagination/cursor.js';
import type { Executor } from '../storage/store.js';
import { toTimestamp } from '../time.js';
import type { ListTimeOffQuery } from './time-off-input.js';
import { type TimeOff, toTimeOff } from './time-off-view.js';

/**
 * The user's time off, earliest start first (`start_at`, then `id`), one
 * keyset page at a time; `from`/`to` keep the ranges overlapping that window.
 */
export async function listTimeOff(db: Executor, userId: string, query: ListTimeOffQuery): Promise<Page<TimeOff>> {
  const from = query.from === undefined ? undefined : toTimestamp(query.from.epochMs);
  const to = query.to === undefined ? undefined : toTimestamp(query.to.epochMs);
  // Bound to the user and the window: a cursor of one list is no cursor of another's.
  // Stryker disable next-line StringLiteral: equivalent: the binding also holds the user and window, and no other list binds a cursor with these keys, so the list's name changes no answer.
  const binding = queryBinding({ list: 'time_off', user: userId, from: from ?? null, to: to ?? null });
  let q = db.selectFrom('time_off').selectAll().where('user_id', '=', userId);
  if (from !== undefined) q = q.where('end_at', '>', from);
  if (to !== undefined) q = q.where('start_at', '<', to);
  if (query.cursor !== undefined) {
    const after = decodeCursor(query.cursor, binding);
    q = q.where(sql<boolean>`(start_at > ${after.value} or (start_at = ${after.value} and id > ${after.uid}))`);
  }
  const rows = await q
    .orderBy('start_at')
    .orderBy('id')
    .limit(query.limit + 1)
    .execute();
  return pageOf(rows, query.limit, binding, (row) => ({ value: row.start_at, uid: row.id }), toTimeOff);
}
