import { revokeOAuthClient } from '../oauth/oauth-clients.js';
import type { Entry, ResourceKind } from './resource-kind.js';
import { writeOAuthClient } from './workspace-oauth-clients.js';

// The public clients an operator registered (the file's, and those of
// `schedule oauth-clients create` without --confidential, which are stored
// alike). Confidential and self-registered clients are not the file's.

const clientEntry = (clientId: string, clientName: unknown, redirectUris: unknown): Entry => ({
  key: clientId,
  label: clientId,
  fields: { client_id: clientId, client_name: clientName, redirect_uris: redirectUris },
});

export const oauthClientsKind: ResourceKind = {
  kind: 'oauth_client',
  sections: ['oauth_clients'],
  userRefs: [],
  fromFile({ declared: { workspace } }) {
    return workspace.oauth_clients.map((client, i) => ({
      ...clientEntry(client.client_id, client.client_name, client.redirect_uris),
      // Stryker disable next-line StringLiteral: a client id given twice is refused first, by oauthClientProblems (workspace-oauth-clients.ts)
      at: `oauth_clients[${i}]`,
      write: (trx, ctx) => writeOAuthClient(trx, ctx.deps.clock, client),
    }));
  },
  async read(trx) {
    const rows = await trx.selectFrom('oauth_records').select(['id', 'payload_json']).where('model', '=', 'Client').orderBy('id').execute();
    return rows.flatMap((row) => {
      const payload = JSON.parse(row.payload_json) as Record<string, unknown>;
      const operatorsPublic = payload.registered_by === 'operator' && payload.token_endpoint_auth_method === 'none';
      return operatorsPublic ? [clientEntry(row.id, payload.client_name, payload.redirect_uris)] : [];
    });
  },
  exportAs: (oauth_clients) => ({ oauth_clients }),
  // As `schedule oauth-clients revoke`: its grants end and the client is removed.
  prune: {
    action: 'revoke',
    done: () => false,
    async run(trx, _ctx, entry) {
      await revokeOAuthClient(trx, entry.key);
    },
  },
};
