import { hashSecret } from '../auth/token-secret.js';
import type { Entry, ResourceKind } from './resource-kind.js';
import { tokenRow } from './workspace-rows.js';
import { writeToken } from './workspace-writes.js';

// Tokens are known by their secret's digest, the only thing stored of it:
// so export cannot write them back (it leaves `tokens` out), and a file
// that has `tokens` manages every token of the database, those made with
// `schedule tokens create` or the API included.

interface TokenFields {
  name: string;
  user: string;
  scopes: readonly string[];
  oauth_client_id: string | null;
  expires_at: string | null;
  revoked: boolean;
}

const tokenEntry = (secretHash: string, username: string, f: TokenFields): Entry => ({
  key: secretHash,
  label: `${username}/${f.name}`,
  fields: { ...f },
});

export const tokensKind: ResourceKind = {
  kind: 'token',
  sections: ['tokens'],
  userRefs: ['user'],
  fromFile({ declared: { workspace }, users }) {
    return workspace.tokens.map((token, i) => {
      const user = users.get(token.user)!;
      const row = tokenRow(token, user.id);
      return {
        ...tokenEntry(hashSecret(token.secret), user.username, {
          name: row.name,
          user: user.id,
          scopes: token.scopes,
          oauth_client_id: row.oauth_client_id,
          expires_at: row.expires_at,
          revoked: token.revoked,
        }),
        at: `tokens[${i}]`,
        write: (trx, ctx) => writeToken(trx, ctx, token, user.id),
      };
    });
  },
  async read(trx, names) {
    const rows = await trx.selectFrom('tokens').selectAll().orderBy('created_at').orderBy('id').execute();
    return rows.map((row) =>
      tokenEntry(row.secret_hash, names.get(row.user_id) ?? row.user_id, {
        name: row.name,
        user: row.user_id,
        scopes: JSON.parse(row.scopes_json) as string[],
        oauth_client_id: row.oauth_client_id,
        expires_at: row.expires_at,
        revoked: row.revoked_at !== null,
      }),
    );
  },
  prune: {
    action: 'revoke',
    done: (entry) => entry.fields.revoked === true,
    async run(trx, ctx, entry) {
      await trx.updateTable('tokens').set({ revoked_at: ctx.now }).where('secret_hash', '=', entry.key).execute();
    },
  },
};
