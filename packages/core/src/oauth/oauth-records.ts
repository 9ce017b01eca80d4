import { hashSecret } from '../auth/token-secret.js';
import type { Clock } from '../clock.js';
import type { Executor } from '../storage/store.js';
import { toTimestamp } from '../time.js';

// The authorization server's state (docs/oauth.md), stored the same way on
// SQLite and PostgreSQL so that several server processes share it. Each
// model (Client, Grant, AccessToken, RefreshToken, AuthorizationCode,
// Session, Interaction, ...) is one row per object, its payload as JSON.

/**
 * Models whose id is kept as it is: they are listed and revoked by id (the
 * CLI, the connected-apps page). Every other id is a bearer secret (a token,
 * a code, a session cookie) and is stored only as its SHA-256 digest, like
 * a PAT, so a copy of the database holds nothing that can be replayed.
 */
const LISTED_MODELS = new Set(['Client', 'Grant']);

/** The key a model's id is stored under. */
export function recordKey(model: string, id: string): string {
  return LISTED_MODELS.has(model) ? id : hashSecret(id);
}

/** A payload as stored: a secret's `jti` is the secret itself, so it is left out and put back on reading. */
function storedPayload(model: string, payload: RecordPayload): RecordPayload {
  if (LISTED_MODELS.has(model) || !('jti' in payload)) return payload;
  const { jti: _secret, ...rest } = payload;
  return rest;
}

function readPayload(model: string, id: string, row: { payload_json: string; consumed_at: string | null }): RecordPayload {
  const payload = withConsumed(row);
  return LISTED_MODELS.has(model) ? payload : { ...payload, jti: id };
}

/** What the authorization server keeps of one object; `exp` and `consumed` are its own fields. */
export type RecordPayload = Record<string, unknown> & {
  readonly grantId?: string;
  readonly uid?: string;
  readonly accountId?: string;
  readonly clientId?: string;
  readonly client_id?: string;
  readonly consumed?: unknown;
};

export interface RecordDeps {
  readonly db: Executor;
  readonly clock: Clock;
}

function isLive(row: { expires_at: string | null }, nowMs: number): boolean {
  return row.expires_at === null || Date.parse(row.expires_at) > nowMs;
}

function withConsumed(row: { payload_json: string; consumed_at: string | null }): RecordPayload {
  const payload = JSON.parse(row.payload_json) as RecordPayload;
  // The library reads `consumed` as the epoch second the object was used up.
  return row.consumed_at === null ? payload : { ...payload, consumed: Math.floor(Date.parse(row.consumed_at) / 1000) };
}

/** One object by id, or undefined once it is gone or has expired. */
export async function findRecord(deps: RecordDeps, model: string, id: string): Promise<RecordPayload | undefined> {
  const row = await deps.db
    .selectFrom('oauth_records')
    .select(['payload_json', 'expires_at', 'consumed_at'])
    .where('model', '=', model)
    .where('id', '=', recordKey(model, id))
    .executeTakeFirst();
  return row && isLive(row, deps.clock.now()) ? readPayload(model, id, row) : undefined;
}

/** One object by its uid (sessions are looked up so). */
export async function findRecordByUid(deps: RecordDeps, model: string, uid: string): Promise<RecordPayload | undefined> {
  const row = await deps.db
    .selectFrom('oauth_records')
    .select(['payload_json', 'expires_at', 'consumed_at'])
    .where('model', '=', model)
    .where('uid', '=', uid)
    .executeTakeFirst();
  return row && isLive(row, deps.clock.now()) ? withConsumed(row) : undefined;
}

/** Stores an object, replacing what was under its id; `expiresInSeconds` bounds its life. */
export async function upsertRecord(
  deps: RecordDeps,
  model: string,
  id: string,
  payload: RecordPayload,
  expiresInSeconds: number | undefined,
): Promise<void> {
  const key = recordKey(model, id);
  const row = {
    payload_json: JSON.stringify(storedPayload(model, payload)),
    grant_id: payload.grantId ?? null,
    uid: payload.uid ?? null,
    account_id: payload.accountId ?? null,
    client_id: payload.clientId ?? payload.client_id ?? null,
    expires_at: expiresInSeconds === undefined ? null : toTimestamp(deps.clock.now() + expiresInSeconds * 1000),
    consumed_at: null,
  };
  await deps.db
    .insertInto('oauth_records')
    .values({ model, id: key, ...row })
    .onConflict((oc) => oc.columns(['model', 'id']).doUpdateSet(row))
    .execute();
}

/** Marks a code or refresh token used; a second use is then recognised (and revokes its grant). */
export async function consumeRecord(deps: RecordDeps, model: string, id: string): Promise<void> {
  await deps.db
    .updateTable('oauth_records')
    .set({ consumed_at: toTimestamp(deps.clock.now()) })
    .where('model', '=', model)
    .where('id', '=', recordKey(model, id))
    .execute();
}

export async function destroyRecord(deps: RecordDeps, model: string, id: string): Promise<void> {
  await deps.db.deleteFrom('oauth_records').where('model', '=', model).where('id', '=', recordKey(model, id)).execute();
}

/** Ends a grant: it and every code and token issued under it are deleted at once. */
export async function revokeGrantRecords(db: Executor, grantId: string): Promise<void> {
  await db
    .deleteFrom('oauth_records')
    .where((eb) => eb.or([eb('grant_id', '=', grantId), eb.and([eb('model', '=', 'Grant'), eb('id', '=', grantId)])]))
    .execute();
}

/**
 * How long a client that registered itself may go without any host's grant
 * before it is deleted (docs/oauth.md "Clients"). Registration is open, so
 * clients nobody ever authorized (or no longer does) would otherwise pile up.
 */
export const UNUSED_CLIENT_SECONDS = 30 * 24 * 60 * 60;

/**
 * Deletes what has expired, then the self-registered clients that are
 * older than UNUSED_CLIENT_SECONDS and hold no grant (an expired grant was
 * deleted just before); returns how many rows went. Clients the operator
 * registered stay until the operator removes them.
 */
export async function purgeExpiredRecords(deps: RecordDeps): Promise<number> {
  const now = deps.clock.now();
  const result = await deps.db.deleteFrom('oauth_records').where('expires_at', '<=', toTimestamp(now)).executeTakeFirst();
  return Number(result.numDeletedRows) + (await purgeUnusedClients(deps.db, now));
}

async function purgeUnusedClients(db: Executor, nowMs: number): Promise<number> {
  const cutoff = Math.floor(nowMs / 1000) - UNUSED_CLIENT_SECONDS;
  const candidates = await db.selectFrom('oauth_records').select(['id', 'payload_json']).where('model', '=', 'Client').execute();
  let deleted = 0;
  for (const row of candidates) {
    const payload = JSON.parse(row.payload_json) as { registered_by?: unknown; client_id_issued_at?: unknown };
    // A client without an issue time in seconds cannot be told old; it is kept.
    const old = typeof payload.client_id_issued_at === 'number' && payload.client_id_issued_at <= cutoff;
    if (payload.registered_by === 'operator' || !old) continue;
    // One client a statement (each goes once, 30 days after it came): the client and what is filed under it (its
    // registration access token), unless a host holds a grant for it by now.
    const result = await db
      .deleteFrom('oauth_records')
      .where('client_id', '=', row.id)
      .where(({ exists, not, selectFrom }) =>
        not(
          exists(
            selectFrom('oauth_records as granted')
              .select('granted.id')
              .where('granted.model', '=', 'Grant')
              .whereRef('granted.client_id', '=', 'oauth_records.client_id'),
          ),
        ),
      )
      .executeTakeFirst();
    deleted += Number(result.numDeletedRows);
  }
  return deleted;
}
