import type { Clock } from '../clock.js';
import type { Executor } from '../storage/store.js';
import { toTimestamp } from '../time.js';

/**
 * A secret every server process on this database shares (cookie signing
 * keys, the token signing key): made by whichever process asks first, then
 * read by all. A second process making one at the same moment loses the
 * insert and reads the winner's.
 */
export async function sharedSecret(db: Executor, deps: { clock: Clock }, name: string, make: () => string): Promise<string> {
  await db
    .insertInto('server_secrets')
    .values({ name, value: make(), created_at: toTimestamp(deps.clock.now()) })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db.selectFrom('server_secrets').select('value').where('name', '=', name).executeTakeFirstOrThrow();
  return row.value;
}
