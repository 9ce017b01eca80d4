import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Clock } from '../clock.js';
import { ScheduleError } from '../errors.js';
import type { Executor } from '../storage/store.js';
import { toTimestamp } from '../time.js';
import { revokeGrantRecords } from './oauth-records.js';

// Apps that may ask a host for access (docs/oauth.md): registered by an
// operator (the CLI, the workspace file) or by the app itself (dynamic
// registration). Each is a `Client` row of oauth_records, so the
// authorization server reads both kinds alike.

/** A client as an operator registers it; the metadata names are RFC 7591's. */
export const clientRegistrationSchema = z.object({
  client_name: z.string().min(1).max(200),
  redirect_uris: z.array(z.url().max(2000)).min(1).max(10),
  /** Public clients (apps on a device, MCP clients) prove themselves with PKCE only; confidential ones have a secret. */
  confidential: z.boolean().default(false),
});
export type ClientRegistration = z.input<typeof clientRegistrationSchema>;

export interface ClientSummary {
  readonly client_id: string;
  readonly client_name: string | null;
  readonly redirect_uris: readonly string[];
  readonly kind: 'public' | 'confidential';
  readonly registered: 'operator' | 'dynamic';
  readonly created_at: string | null;
  /** Who has authorized it, with the scopes each granted. */
  readonly grants: readonly GrantSummary[];
}

export interface GrantSummary {
  readonly grant_id: string;
  readonly client_id: string;
  readonly user: { readonly user_id: string; readonly username: string };
  readonly resources: Readonly<Record<string, readonly string[]>>;
  readonly created_at: string;
}

/** Loopback addresses take any port at sign-in (RFC 8252 section 7.3), so they are registered without one being special. */
function isLoopback(uri: string): boolean {
  const host = new URL(uri).hostname;
  return host === '127.0.0.1' || host === '[::1]' || host === 'localhost';
}

/** The metadata the authorization server stores for an operator-registered client. */
export function clientMetadata(request: z.output<typeof clientRegistrationSchema>, clientId: string, secret: string | undefined) {
  // An app whose redirects all come back to this machine is a native app (RFC 8252): any loopback port is accepted.
  const native = request.redirect_uris.every(isLoopback);
  return {
    client_id: clientId,
    client_name: request.client_name,
    redirect_uris: request.redirect_uris,
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    application_type: native ? 'native' : 'web',
    token_endpoint_auth_method: secret ? 'client_secret_basic' : 'none',
    ...(secret ? { client_secret: secret } : {}),
    registered_by: 'operator',
  };
}

/** Registers a client; a confidential one's secret is in the answer and shown once. */
export async function createOAuthClient(
  db: Executor,
  deps: { clock: Clock },
  input: ClientRegistration,
): Promise<{ client_id: string; client_secret: string | null }> {
  const parsed = clientRegistrationSchema.safeParse(input);
  if (!parsed.success) {
    // One `field: rule` clause per problem, as a body's validation words them, so a front end can name its own flags.
    const issues = parsed.error.issues;
    throw new ScheduleError('validation_error', issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '), {
      fields: [...new Set(issues.map((issue) => issue.path.join('.')))],
    });
  }
  const clientId = `app_${randomBytes(12).toString('base64url')}`;
  const secret = parsed.data.confidential ? `sec_${randomBytes(32).toString('base64url')}` : undefined;
  const payload = { ...clientMetadata(parsed.data, clientId, secret), client_id_issued_at: Math.floor(deps.clock.now() / 1000) };
  await db
    .insertInto('oauth_records')
    .values({
      model: 'Client',
      id: clientId,
      payload_json: JSON.stringify(payload),
      grant_id: null,
      uid: null,
      account_id: null,
      client_id: clientId,
      expires_at: null,
      consumed_at: null,
    })
    .execute();
  return { client_id: clientId, client_secret: secret ?? null };
}

function grantSummary(row: {
  id: string;
  client_id: string | null;
  payload_json: string;
  user_id: string;
  username: string;
}): GrantSummary {
  const payload = JSON.parse(row.payload_json) as { resources?: Record<string, string>; iat?: number };
  const resources: Record<string, string[]> = {};
  for (const [resource, scope] of Object.entries(payload.resources ?? {})) resources[resource] = scope.split(' ').filter(Boolean);
  return {
    grant_id: row.id,
    client_id: row.client_id ?? '',
    user: { user_id: row.user_id, username: row.username },
    resources,
    created_at: toTimestamp((payload.iat ?? 0) * 1000),
  };
}

/** The grants hosts have given, oldest first; only one user's with `userId`. */
export async function listGrants(db: Executor, filter: { userId?: string; clientId?: string } = {}): Promise<GrantSummary[]> {
  let query = db
    .selectFrom('oauth_records')
    .innerJoin('users', 'users.id', 'oauth_records.account_id')
    .select(['oauth_records.id', 'oauth_records.client_id', 'oauth_records.payload_json', 'users.id as user_id', 'users.username'])
    .where('oauth_records.model', '=', 'Grant');
  if (filter.userId) query = query.where('oauth_records.account_id', '=', filter.userId);
  if (filter.clientId) query = query.where('oauth_records.client_id', '=', filter.clientId);
  const rows = await query.orderBy('oauth_records.id').execute();
  // Grants carry whole seconds (`iat`); two made in the same second are listed by username, not by chance.
  return rows.map(grantSummary).sort((a, b) => a.created_at.localeCompare(b.created_at) || a.user.username.localeCompare(b.user.username));
}

/** Every registered client with who authorized it; clients known only by a metadata document URL appear through their grants. */
export async function listOAuthClients(db: Executor): Promise<ClientSummary[]> {
  const rows = await db.selectFrom('oauth_records').select(['id', 'payload_json']).where('model', '=', 'Client').orderBy('id').execute();
  const grants = await listGrants(db);
  const summaries: ClientSummary[] = rows.map((row) => {
    const p = JSON.parse(row.payload_json) as Record<string, unknown>;
    return {
      client_id: row.id,
      client_name: typeof p.client_name === 'string' ? p.client_name : null,
      redirect_uris: Array.isArray(p.redirect_uris) ? (p.redirect_uris as string[]) : [],
      kind: p.token_endpoint_auth_method === 'none' ? 'public' : 'confidential',
      registered: p.registered_by === 'operator' ? 'operator' : 'dynamic',
      created_at: typeof p.client_id_issued_at === 'number' ? toTimestamp(p.client_id_issued_at * 1000) : null,
      grants: grants.filter((g) => g.client_id === row.id),
    };
  });
  const known = new Set(rows.map((r) => r.id));
  for (const clientId of new Set(grants.map((g) => g.client_id))) {
    if (known.has(clientId)) continue;
    summaries.push({
      client_id: clientId,
      client_name: null,
      redirect_uris: [],
      kind: 'public',
      registered: 'dynamic',
      created_at: null,
      grants: grants.filter((g) => g.client_id === clientId),
    });
  }
  return summaries;
}

/**
 * Revokes a client: for one user (their grants to it end, with every token
 * issued under them), or for everyone, and then the client itself is
 * removed so it cannot ask again. Returns the number of grants ended.
 */
export async function revokeOAuthClient(db: Executor, clientId: string, options: { userId?: string } = {}): Promise<{ grants: number }> {
  const grants = await listGrants(db, { clientId, ...(options.userId ? { userId: options.userId } : {}) });
  const client = await db
    .selectFrom('oauth_records')
    .select('id')
    .where('model', '=', 'Client')
    .where('id', '=', clientId)
    .executeTakeFirst();
  if (!client && grants.length === 0) throw new ScheduleError('not_found', `No OAuth client "${clientId}".`, { client_id: clientId });
  for (const grant of grants) await revokeGrantRecords(db, grant.grant_id);
  if (!options.userId) await db.deleteFrom('oauth_records').where('client_id', '=', clientId).execute();
  return { grants: grants.length };
}

/** Ends one grant of one user (the connected-apps page); false when it is not theirs or already gone. */
export async function revokeGrant(db: Executor, grantId: string, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('oauth_records')
    .select('id')
    .where('model', '=', 'Grant')
    .where('id', '=', grantId)
    .where('account_id', '=', userId)
    .executeTakeFirst();
  if (!row) return false;
  await revokeGrantRecords(db, grantId);
  return true;
}
