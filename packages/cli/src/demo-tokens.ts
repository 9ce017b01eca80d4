import { hashSecret, type Store } from '@schedule/core';

/**
 * The secrets of demo/workspace.json's tokens. They are printed in the README
 * and the demo's hint, so anyone can use them: a database that serves real
 * users must never accept them. (A test keeps this list equal to the file.)
 */
export const PUBLIC_DEMO_SECRETS = ['pat_demo_alice_0123456789', 'pat_demo_bob_0123456789', 'pat_demo_carol_0123456789'] as const;

/**
 * Revokes any demo token found in a database that is not the demo's own.
 * Before `--demo` ran in a throw-away database, `npm start` loaded the demo
 * into the default database file; this closes that door on such a file.
 * Answers how many it revoked.
 */
export async function revokePublicDemoTokens(store: Store, nowIso: string): Promise<number> {
  const result = await store.db
    .updateTable('tokens')
    .set({ revoked_at: nowIso })
    .where(
      'secret_hash',
      'in',
      PUBLIC_DEMO_SECRETS.map((secret) => hashSecret(secret)),
    )
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
