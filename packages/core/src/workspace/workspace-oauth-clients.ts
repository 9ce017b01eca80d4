import type { Clock } from '../clock.js';
import { clientMetadata } from '../oauth/oauth-clients.js';
import { upsertRecord } from '../oauth/oauth-records.js';
import type { Executor } from '../storage/store.js';
import type { Workspace, WorkspaceOAuthClient } from './workspace-schema.js';

// The file's `oauth_clients[]`: public apps registered ahead of time, stored
// as the `Client` rows `schedule oauth-clients create` makes, so the
// authorization server cannot tell the two apart.

interface StoredClient {
  readonly payload_json: string;
}

async function storedClient(trx: Executor, clientId: string): Promise<StoredClient | undefined> {
  return trx.selectFrom('oauth_records').select('payload_json').where('model', '=', 'Client').where('id', '=', clientId).executeTakeFirst();
}

/**
 * Problems with the file's clients that need the database: an id given
 * twice, or the id of a client made another way. A confidential client
 * (made with the CLI) or one an app registered itself is not the file's to
 * turn into a public client, which would drop its secret or its owner's
 * metadata.
 */
export async function oauthClientProblems(trx: Executor, workspace: Workspace): Promise<string[]> {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const [i, client] of workspace.oauth_clients.entries()) {
    const at = `oauth_clients[${i}].client_id`;
    if (seen.has(client.client_id)) {
      problems.push(`${at}: "${client.client_id}" appears twice`);
      continue;
    }
    seen.add(client.client_id);
    const stored = await storedClient(trx, client.client_id);
    if (!stored) continue;
    const payload = JSON.parse(stored.payload_json) as Record<string, unknown>;
    if (payload.registered_by !== 'operator' || payload.token_endpoint_auth_method !== 'none') {
      problems.push(`${at}: "${client.client_id}" is a client registered otherwise (confidential, or by the app itself)`);
    }
  }
  return problems;
}

/**
 * Writes one client unless it is stored exactly so already. The time it was
 * first registered is kept, so reloading an unchanged file writes nothing.
 */
export async function writeOAuthClient(trx: Executor, clock: Clock, client: WorkspaceOAuthClient): Promise<void> {
  const stored = await storedClient(trx, client.client_id);
  const issuedAt = stored ? (JSON.parse(stored.payload_json) as { client_id_issued_at?: unknown }).client_id_issued_at : undefined;
  const request = { client_name: client.client_name, redirect_uris: client.redirect_uris, confidential: false };
  const payload = {
    ...clientMetadata(request, client.client_id, undefined),
    client_id_issued_at: typeof issuedAt === 'number' ? issuedAt : Math.floor(clock.now() / 1000),
  };
  if (stored?.payload_json === JSON.stringify(payload)) return;
  await upsertRecord({ db: trx, clock }, 'Client', client.client_id, payload, undefined);
}
