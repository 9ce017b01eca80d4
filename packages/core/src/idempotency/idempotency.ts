import type { Clock } from '../clock.js';
import { ScheduleError } from '../errors.js';
import type { IdGenerator } from '../ids.js';
import { executePrepared } from '../storage/prepared-query.js';
import type { Executor, Store } from '../storage/store.js';
import { toTimestamp } from '../time.js';

/** docs/api/requests.md "Idempotency": a key is remembered 24 hours per account. */
export const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;
export const MAX_KEY_LENGTH = 255;

/** What a replay gives back: the first success, as it was. */
export interface StoredResponse {
  /** A success's status: only successes are stored. */
  readonly status: 200 | 201 | 202;
  readonly data: unknown;
  /** The resource version behind an `ETag` header, if the response had one. */
  readonly version?: number | undefined;
  readonly location?: string | undefined;
  /** The first request's id: a replay is that response, so it carries that id. */
  readonly requestId: string;
}

export interface KeyRef {
  readonly accountId: string;
  readonly key: string;
}

/** A reservation held by this request; `lease` fences it against a takeover. */
export interface Reservation extends KeyRef {
  readonly lease: string;
}

export type ReserveResult =
  | { readonly kind: 'reserved'; readonly reservation: Reservation }
  | { readonly kind: 'replay'; readonly response: StoredResponse };

export interface IdempotencyDeps {
  store: Store;
  clock: Clock;
  ids: IdGenerator;
  /**
   * How long an in-flight reservation holds its key before another request may
   * take it over; this is what lets a retry proceed after a process died
   * mid-request. It must exceed the longest request.
   */
  leaseMs: number;
}

// The two statements every keyed write runs, compiled once (storage/prepared-query.ts).
const claim = (
  db: Executor,
  accountId: string,
  key: string,
  fingerprint: string,
  lease: string,
  lockedUntil: string,
  createdAt: string,
  expiresAt: string,
) =>
  db
    .insertInto('idempotency_keys')
    .values({
      account_id: accountId,
      key,
      fingerprint,
      state: 'in_flight',
      lease,
      locked_until: lockedUntil,
      response_json: null,
      created_at: createdAt,
      expires_at: expiresAt,
    })
    .onConflict((oc) => oc.columns(['account_id', 'key']).doNothing());

const complete = (db: Executor, responseJson: string, accountId: string, key: string, lease: string) =>
  db
    .updateTable('idempotency_keys')
    .set({
      // Stryker disable next-line StringLiteral: a completed key's state is only ever compared with 'in_flight' (reserveKey's abandoned check, releaseKey) or with itself (the takeover's where), so any other word, '' included, behaves the same.
      state: 'completed',
      response_json: responseJson,
    })
    .where('account_id', '=', accountId)
    .where('key', '=', key)
    .where('lease', '=', lease);

/** Refuses a key the spec does not allow: empty or longer than 255 characters. */
export function checkKeyShape(key: string): void {
  if (key.length === 0 || key.length > MAX_KEY_LENGTH) {
    throw new ScheduleError(
      'validation_error',
      (w) => `${w.name.idempotency_key} must be 1 to ${MAX_KEY_LENGTH} characters.`,
      (w) => ({ fields: [w.name.idempotency_key] }),
    );
  }
}

/**
 * Claims a key for this request, or tells why not. Exactly one of any number
 * of concurrent claimants wins, across processes: the claim is a single
 * insert on the (account, key) primary key, or a conditional update that only
 * one lease can satisfy.
 */
export async function reserveKey(deps: IdempotencyDeps, ref: KeyRef, fingerprint: string): Promise<ReserveResult> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const nowMs = deps.clock.now();
    const now = toTimestamp(nowMs);
    const lease = deps.ids.uuid();
    const fresh = {
      fingerprint,
      state: 'in_flight',
      lease,
      locked_until: toTimestamp(nowMs + deps.leaseMs),
      response_json: null,
      created_at: now,
      expires_at: toTimestamp(nowMs + KEY_LIFETIME_MS),
    };
    const inserted = await executePrepared(deps.store.db, claim, [
      ref.accountId,
      ref.key,
      fingerprint,
      lease,
      fresh.locked_until,
      fresh.created_at,
      fresh.expires_at,
    ]);
    if (Number(inserted.numAffectedRows ?? 0n) === 1) return { kind: 'reserved', reservation: { ...ref, lease } };

    const existing = await deps.store.db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('account_id', '=', ref.accountId)
      .where('key', '=', ref.key)
      .executeTakeFirst();
    if (!existing) continue; // released between our insert and read; claim again

    const expired = existing.expires_at <= now;
    const abandoned = existing.state === 'in_flight' && existing.locked_until <= now && existing.fingerprint === fingerprint;
    if (expired || abandoned) {
      const taken = await deps.store.db
        .updateTable('idempotency_keys')
        .set(fresh)
        .where('account_id', '=', ref.accountId)
        .where('key', '=', ref.key)
        // Both: completing keeps the lease, so a holder that finished since our read must not be overwritten.
        .where('lease', '=', existing.lease)
        .where('state', '=', existing.state)
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) === 1) return { kind: 'reserved', reservation: { ...ref, lease } };
      continue;
    }
    if (existing.fingerprint !== fingerprint) {
      throw new ScheduleError(
        'idempotency_key_conflict',
        (w) => `This ${w.name.idempotency_key} was used within the last 24 hours with a different request.`,
      );
    }
    // Completing sets the state and the response in one update: a stored response is a completed key.
    if (existing.response_json !== null) {
      return { kind: 'replay', response: JSON.parse(existing.response_json) as StoredResponse };
    }
    throw stillInProgress();
  }
  throw stillInProgress();
}

const stillInProgress = () =>
  new ScheduleError('idempotency_in_progress', (w) => `A request with this ${w.name.idempotency_key} is still in progress.`, {}, 1);

/**
 * Stores the success in the same transaction as the work it answers, so the
 * work and its replayable answer commit together or not at all. If another
 * request took the key over meanwhile, this throws and the work rolls back.
 */
export async function completeKey(trx: Executor, reservation: Reservation, response: StoredResponse): Promise<void> {
  const result = await executePrepared(trx, complete, [
    JSON.stringify(response),
    reservation.accountId,
    reservation.key,
    reservation.lease,
  ]);
  if (Number(result.numAffectedRows ?? 0n) !== 1) {
    throw new ScheduleError('idempotency_in_progress', (w) => `Another request took over this ${w.name.idempotency_key}.`, {}, 1);
  }
}

/** Lets a retry with the same key proceed after a failure: only successes are kept. */
export async function releaseKey(deps: Pick<IdempotencyDeps, 'store'>, reservation: Reservation): Promise<void> {
  await deps.store.db
    .deleteFrom('idempotency_keys')
    .where('account_id', '=', reservation.accountId)
    .where('key', '=', reservation.key)
    .where('lease', '=', reservation.lease)
    .where('state', '=', 'in_flight')
    .execute();
}

/** Forgets keys past their 24 hours. */
export async function purgeExpiredKeys(deps: Pick<IdempotencyDeps, 'store' | 'clock'>): Promise<number> {
  const result = await deps.store.db
    .deleteFrom('idempotency_keys')
    .where('expires_at', '<=', toTimestamp(deps.clock.now()))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
