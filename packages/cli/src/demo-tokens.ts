import { type Clock, hashSecret, type Store, setPassword } from '@schedule/core';

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
  const hashes = PUBLIC_DEMO_SECRETS.map((secret) => hashSecret(secret));
  // Looked for first: every command opens the database, and an UPDATE would
  // take SQLite's write lock each time, though there is almost never anything to revoke.
  const found = await store.db
    .selectFrom('tokens')
    .select('id')
    .where('secret_hash', 'in', hashes)
    .where('revoked_at', 'is', null)
    .execute();
  if (found.length === 0) return 0;
  await store.db
    .updateTable('tokens')
    .set({ revoked_at: nowIso })
    .where(
      'id',
      'in',
      found.map((t) => t.id),
    )
    .execute();
  return found.length;
}

/**
 * The demo users' sign-in password, printed in the demo's hint like the
 * tokens: with it a first-time user tries the OAuth flow (an MCP client
 * given only the /mcp URL, the consent page, the connected-apps page).
 * Set only in the demo's throw-away database.
 */
export const PUBLIC_DEMO_PASSWORD = 'demo-password';

export async function giveDemoPasswords(store: Store, clock: Clock, usernames: readonly string[]): Promise<void> {
  await Promise.all(usernames.map((username) => setPassword(store.db, { clock }, username, PUBLIC_DEMO_PASSWORD)));
}
