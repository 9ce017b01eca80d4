import type { ExpressionBuilder } from 'kysely';
import { z } from 'zod';
import type { Principal } from '../auth/principal.js';
import { decodeCursor, type Page, pageOf, queryBinding } from '../pagination/cursor.js';
import { csvParam, cursorParam, limitParam } from '../pagination/query-params.js';
import type { Database } from '../storage/schema.js';
import type { Executor } from '../storage/store.js';
import { uuid } from '../validation/fields.js';
import { selectSeries, toSeries } from './series-rows.js';
import { SERIES_STATUSES, type Series } from './series-view.js';

/** The query of `GET /v1/series` (docs/api). */
export const listSeriesQuerySchema = z.object({
  limit: limitParam(),
  cursor: cursorParam,
  status: csvParam(SERIES_STATUSES).optional(),
  host_user_id: uuid.optional().meta({ description: 'Only this host.' }),
  event_type_id: uuid.optional().meta({ description: 'Only this event type.' }),
});
export type ListSeriesQuery = z.output<typeof listSeriesQuerySchema>;

/**
 * Lists the series the caller can see (hosted by someone they may act for),
 * newest first, one keyset page at a time. A `host_user_id` outside that set
 * simply matches nothing: an empty page, not an error.
 */
export async function listSeries(db: Executor, principal: Principal, query: ListSeriesQuery): Promise<Page<Series>> {
  const { limit, cursor, ...filters } = query;
  const binding = queryBinding(filters);
  let q = selectSeries(db);
  if (principal.actsFor.kind === 'users') q = q.where('series.host_user_id', 'in', [...principal.actsFor.ids]);
  if (query.status) q = q.where('series.status', 'in', query.status);
  if (query.host_user_id) q = q.where('series.host_user_id', '=', query.host_user_id);
  if (query.event_type_id) q = q.where('series.event_type_id', '=', query.event_type_id);
  if (cursor !== undefined) {
    const after = decodeCursor(cursor, binding);
    q = q.where((eb: ExpressionBuilder<Database, 'series'>) =>
      eb.or([
        eb('series.created_at', '<', after.value),
        eb.and([eb('series.created_at', '=', after.value), eb('series.uid', '<', after.uid)]),
      ]),
    );
  }
  const rows = await q
    .orderBy('series.created_at', 'desc')
    .orderBy('series.uid', 'desc')
    .limit(limit + 1)
    .execute();
  return pageOf(rows, limit, binding, (row) => ({ value: row.created_at, uid: row.uid }), toSeries);
}
