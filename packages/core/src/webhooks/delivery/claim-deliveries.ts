import type { Clock } from '../../clock.js';
import type { Store } from '../../storage/store.js';
import { toTimestamp } from '../../time.js';
import type { DeliverySlots, Standing } from './delivery-slots.js';

/** A delivery this process holds the lease of, with what sending it needs from its webhook. */
export interface ClaimedDelivery extends Standing {
  readonly id: string;
  readonly event_id: string;
  readonly event_type: string;
  readonly payload_json: string;
  /** Attempts made before this one. */
  readonly attempts: number;
  readonly url: string;
  readonly secret: string;
  readonly previous_secret: string | null;
  readonly previous_secret_until: string | null;
  /** The webhook's run of failures when claimed: a success resets it only if there was one. */
  readonly consecutive_failures: number;
  /** This claim's lease: every write about the attempt names it, so a process whose lease ran out writes nothing. */
  readonly lease: string;
}

/** What a claim took, and whether claiming again at once might take more. */
export interface Claim {
  readonly claimed: ClaimedDelivery[];
  /**
   * False when this claim saw every due delivery it could take: candidates
   * were fewer than the limit, or some were left for lack of room (their
   * webhook's, their account's, the unproven receivers'; those wait for
   * requests to end). Claiming again at once would then only scan past the
   * full webhooks' backlog to find nothing.
   */
  readonly more: boolean;
}

export interface ClaimOptions {
  /** A token new to this claim. */
  readonly lease: string;
  readonly leaseMs: number;
  /** A copy of this process's slots: rows are picked against it while it counts them taken. */
  readonly slots: DeliverySlots;
}

/**
 * Claims due deliveries of active webhooks not backed off, oldest due first,
 * taking no more than the slots admit (per webhook, per account, for
 * unproven receivers): a receiver that hangs holds its own share only, and
 * webhooks and accounts with none left are left out in the query itself, so
 * their backlog never fills the candidates. Candidates are read first; the
 * claim then leases those still due and unleased. On PostgreSQL the rows are
 * locked with FOR UPDATE SKIP LOCKED, so two processes claiming at once take
 * different rows without waiting on each other, and the lock re-checks the
 * conditions on the newest row, so a row another process leased since this
 * one read it is not taken. On SQLite the one UPDATE is atomic.
 */
export async function claimDueDeliveries(deps: { store: Store; clock: Clock }, options: ClaimOptions): Promise<Claim> {
  const { store } = deps;
  const db = store.db;
  const nowMs = deps.clock.now();
  const now = toTimestamp(nowMs);
  const { slots } = options;
  const left = slots.exclusions();
  if (left.free <= 0) return { claimed: [], more: false };

  let candidates = db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
    .select([
      'd.id',
      'd.webhook_id',
      'd.event_id',
      'd.event_type',
      'd.payload_json',
      'd.attempts',
      'w.url',
      'w.secret',
      'w.previous_secret',
      'w.previous_secret_until',
      'w.consecutive_failures',
      'w.owner_user_id',
      'w.answers_promptly',
    ])
    .where('d.status', '=', 'pending')
    .where('d.next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('d.locked_until', 'is', null), eb('d.locked_until', '<=', now)]))
    // A paused webhook keeps the deliveries queued before its pause; they wait here until it resumes.
    .where('w.status', '=', 'active')
    // A receiver that timed out is left alone until its back-off ends (record-outcome.ts moves its deliveries there too).
    .where((eb) => eb.or([eb('w.backoff_until', 'is', null), eb('w.backoff_until', '<=', now)]))
    // next_attempt_at alone, no tie-break: the due index (status, next_attempt_at) then yields rows in
    // this order and the scan stops at the limit; a tie-break would sort every due row on each claim.
    .orderBy('d.next_attempt_at')
    .limit(left.free);
  if (left.webhooks.length > 0) candidates = candidates.where('d.webhook_id', 'not in', left.webhooks);
  if (left.owners.length > 0) candidates = candidates.where('w.owner_user_id', 'not in', left.owners);
  if (left.promptOnly) candidates = candidates.where('w.answers_promptly', '=', 1);
  const rows = (await candidates.execute()).map((row) => ({ ...row, answers_promptly: row.answers_promptly === 1 }));

  const picked = rows.filter((row) => {
    if (!slots.admits(row)) return false;
    slots.take(row);
    return true;
  });
  // Every candidate taken and the window full: more may be due beyond it.
  const more = rows.length === left.free && picked.length === rows.length;
  if (picked.length === 0) return { claimed: [], more };

  const ids = picked.map((row) => row.id);
  const claim = db
    .updateTable('webhook_deliveries')
    .set({ lease: options.lease, locked_until: toTimestamp(nowMs + options.leaseMs) })
    .where(
      'id',
      'in',
      store.dialect === 'postgres'
        ? db
            .selectFrom('webhook_deliveries')
            .select('id')
            .where('id', 'in', ids)
            .where('status', '=', 'pending')
            .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
            .forUpdate()
            .skipLocked()
        : ids,
    )
    .where('status', '=', 'pending')
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
    .returning('id');
  const claimed = new Set((await claim.execute()).map((row) => row.id));
  return { claimed: picked.filter((row) => claimed.has(row.id)).map((row) => ({ ...row, lease: options.lease })), more };
}
