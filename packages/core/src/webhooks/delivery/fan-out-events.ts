import type { Insertable } from 'kysely';
import type { Clock } from '../../clock.js';
import type { IdGenerator } from '../../ids.js';
import { runPrepared } from '../../storage/prepared-query.js';
import type { WebhookDeliveriesTable } from '../../storage/schema.js';
import type { Executor, Store } from '../../storage/store.js';
import { toTimestamp } from '../../time.js';
import { type WebhookEventType, webhookEnvelope } from '../envelope.js';
import type { ClaimedDelivery } from './claim-deliveries.js';
import type { DeliveryStep } from './delivery-deps.js';
import type { DeliverySlots } from './delivery-slots.js';
import { activeSubscribers, hostOf, receiversOf } from './subscribers.js';

/** Rows per INSERT: 15 columns each stays under SQLite's 32,766 bound parameters. */
const INSERT_CHUNK = 500;

// Most passes find nothing; this index-only look (outbox_undispatched) keeps
// them from opening a write transaction, which on SQLite takes the file's lock.
const firstUndispatched = (db: Executor) => db.selectFrom('outbox').select('id').where('dispatched_at', 'is', null).limit(1);

/**
 * An event's payload, or undefined when it is not JSON: such an event goes
 * to no webhook (it names no host) and is marked dispatched like any other,
 * so one bad row never stops the outbox behind it.
 */
function parsed(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return undefined;
  }
}

/** Room this process has to start deliveries now, so fan-out can lease some of what it creates to itself. */
export interface FanOutLease {
  readonly lease: string;
  readonly leaseMs: number;
  /** A copy of this process's slots, counting what fan-out leases to it. */
  readonly slots: DeliverySlots;
}

/** What a fan-out did: events dispatched, and the deliveries it leased to this process to send at once. */
export interface FanOut {
  readonly events: number;
  readonly claimed: ClaimedDelivery[];
}

/**
 * Turns up to `batch` undispatched outbox events, oldest first, into one
 * delivery per receiving webhook, and marks them dispatched, in one
 * transaction: an event is fanned out exactly when it is marked, and a
 * process that dies halfway leaves it undispatched for the next pass. On
 * PostgreSQL the events are claimed with FOR UPDATE SKIP LOCKED, so several
 * processes fan out different events side by side; on SQLite the write
 * transaction (BEGIN IMMEDIATE) lets one process at a time in.
 *
 * Deliveries this process has room to send are inserted already leased to
 * it and returned: the common case, an event while idle, then goes out
 * without a claim's round trips (the idle commit-to-delivery time).
 */
export async function fanOutEvents(
  deps: { store: Store; clock: Clock; ids: IdGenerator; steps?: ((step: DeliveryStep) => Promise<void>) | undefined },
  batch: number,
  room: FanOutLease,
): Promise<FanOut> {
  const { store } = deps;
  if ((await runPrepared(store.db, firstUndispatched, [])).length === 0) return { events: 0, claimed: [] };
  return store.db.transaction().execute(async (trx) => {
    let claim = trx
      .selectFrom('outbox')
      .select(['id', 'event_type', 'payload_json', 'created_at'])
      .where('dispatched_at', 'is', null)
      .orderBy('created_at')
      .orderBy('id')
      .limit(batch);
    if (store.dialect === 'postgres') claim = claim.forUpdate().skipLocked();
    const events = await claim.execute();
    if (events.length === 0) return { events: 0, claimed: [] };
    await deps.steps?.({ phase: 'events-claimed', eventIds: events.map((e) => e.id) });

    const subscribers = await activeSubscribers(trx);
    const nowMs = deps.clock.now();
    const now = toTimestamp(nowMs);
    const lockedUntil = toTimestamp(nowMs + room.leaseMs);
    const claimed: ClaimedDelivery[] = [];
    const deliveries: Insertable<WebhookDeliveriesTable>[] = [];
    if (subscribers.length > 0) {
      for (const event of events) {
        const data = parsed(event.payload_json);
        const receivers = receiversOf(subscribers, { type: event.event_type, createdAt: event.created_at, host: hostOf(data) });
        if (receivers.length === 0) continue;
        const payload = JSON.stringify(webhookEnvelope(event.event_type as WebhookEventType, event.id, event.created_at, data));
        for (const webhook of receivers) {
          // The webhook-id header: one per event and webhook, the same on every attempt.
          const id = deps.ids.uuid();
          const standing = { webhook_id: webhook.id, owner_user_id: webhook.owner_user_id, answers_promptly: webhook.answers_promptly };
          // A webhook backed off gets its deliveries when the back-off ends, as those queued before it.
          const backoffEnd = webhook.backoff_until ?? now;
          // Stryker disable next-line EqualityOperator: at the back-off's very end both sides are now
          const dueAt = backoffEnd > now ? backoffEnd : now;
          // Stryker disable next-line ConditionalExpression: leasing none here, the claim of the same step takes them a round trip later (speed only); the other variants are killed
          const ours = dueAt === now && room.slots.admits(standing);
          if (ours) {
            room.slots.take(standing);
            claimed.push({
              ...standing,
              url: webhook.url,
              secret: webhook.secret,
              previous_secret: webhook.previous_secret,
              previous_secret_until: webhook.previous_secret_until,
              consecutive_failures: webhook.consecutive_failures,
              id,
              event_id: event.id,
              event_type: event.event_type,
              payload_json: payload,
              attempts: 0,
              lease: room.lease,
            });
          }
          deliveries.push({
            id,
            webhook_id: webhook.id,
            event_id: event.id,
            event_type: event.event_type,
            payload_json: payload,
            status: 'pending',
            attempts: 0,
            next_attempt_at: dueAt,
            lease: ours ? room.lease : null,
            locked_until: ours ? lockedUntil : null,
            last_status_code: null,
            last_response_body: null,
            last_error: null,
            created_at: now,
            delivered_at: null,
          });
        }
      }
    }
    for (let i = 0; i < deliveries.length; i += INSERT_CHUNK) {
      // UNIQUE(webhook_id, event_id): should an event ever be fanned out twice, its deliveries are not doubled.
      const inserted = await trx
        .insertInto('webhook_deliveries')
        .values(deliveries.slice(i, i + INSERT_CHUNK))
        .onConflict((oc) => oc.columns(['webhook_id', 'event_id']).doNothing())
        .returning('id')
        .execute();
      // A row that was not inserted (the conflict) is not ours to send.
      if (inserted.length !== Math.min(INSERT_CHUNK, deliveries.length - i)) {
        const kept = new Set(inserted.map((r) => r.id));
        const dropped = deliveries.slice(i, i + INSERT_CHUNK).filter((d) => !kept.has(d.id as string));
        for (const d of dropped) {
          const at = claimed.findIndex((c) => c.id === d.id);
          if (at >= 0) claimed.splice(at, 1);
        }
      }
    }
    await trx
      .updateTable('outbox')
      .set({ dispatched_at: now })
      .where(
        'id',
        'in',
        events.map((e) => e.id),
      )
      .execute();
    return { events: events.length, claimed };
  });
}
