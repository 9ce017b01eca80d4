import type { Store } from '../storage/store.js';
import { DEFAULT_LIMITS, type Limits, limitsSchema } from './limits.js';

/** The rate limits the loaded workspace set, or the spec's defaults. */
export async function loadLimits(store: Store): Promise<Limits> {
  const row = await store.db.selectFrom('organization').select('limits_json').where('id', '=', 1).executeTakeFirst();
  if (!row) return DEFAULT_LIMITS;
  return limitsSchema.parse(JSON.parse(row.limits_json));
}
