import type { Insertable } from 'kysely';
import type { Clock } from '../../clock.js';
import type { IdGenerator } from '../../ids.js';
import { runPrepared } from '../../storage/prepared-query.js';
import type { WebhookDeliveriesTable } from '../../storage/schema.js';
import type { Executor, Store } from '../../storage/store.js';
import { toTimestamp } from '../../time.js';
import { type WebhookEventType, webhookEnvelope } from '../envelope.js';
import type { DeliveryStep } from './delivery-deps.js';
import { activeSubscribers, hostOf, receiversOf } from './subscribers.js';

/** Rows per INSERT: 15 columns each stays under SQLite's 32,766 bound parameters. */
const INSERT_CHUNK = 500;

// Most passes find nothing; this index-only look (outbox_undispatched) keeps
// them from opening a write transaction, which on SQLite takes the file's lock.
const firstUndispatched = (db: Executor) => db.selectFrom('outbox').select('id').where('dispatched_at', 'is', null).limit(1);

/**
 * Turns up to `batch` undispatched outbox events, oldest first, into one
 * delivery per receiving webhook, and marks them dispatched, in one
 * transaction: an event is fanned out exactly when it is marked, and a
 * process that dies halfway leaves it undispatched for the next pass. On
 * PostgreSQL the events are claimed with FOR UPDATE SKIP LOCKED, so several
 * processes fan out different events side by side; on SQLite the write
 * transaction (BEGIN IMMEDIATE) lets one process at a time in. Returns how
 * many events it dispatched.
 */
export async function fanOutEvents(
  deps: { store: Store; clock: Clock; ids: IdGenerator; steps?: ((step: DeliveryStep) => Promise<void>) | undefined },
  batch: number,
): Promise<number> {
  const { store } = deps;
  if ((await runPrepared(store.db, firstUndispatched, [])).length === 0) return 0;
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
    if (events.length === 0) return 0;
    await deps.steps?.({ phase: 'events-claimed', eventIds: events.map((e) => e.id) });

    const subscribers = await activeSubscribers(trx);
    const now = toTimestamp(deps.clock.now());
    const deliveries: Insertable<WebhookDeliveriesTable>[] = [];
    if (subscribers.length > 0) {
      for (const event of events) {
        const data: unknown = JSON.parse(event.payload_json);
        const receivers = receiversOf(subscribers, { type: event.event_type, createdAt: event.created_at, host: hostOf(data) });
        if (receivers.length === 0) continue;
        const payload = JSON.stringify(webhookEnvelope(event.event_type as WebhookEventType, event.id, event.created_at, data));
        for (const webhook of receivers) {
          deliveries.push({
            // The webhook-id header: one per event and webhook, the same on every attempt.
            id: deps.ids.uuid(),
            webhook_id: webhook.id,
            event_id: event.id,
            event_type: event.event_type,
            payload_json: payload,
            status: 'pending',
            attempts: 0,
            next_attempt_at: now,
            lease: null,
            locked_until: null,
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
      await trx
        .insertInto('webhook_deliveries')
        .values(deliveries.slice(i, i + INSERT_CHUNK))
        .onConflict((oc) => oc.columns(['webhook_id', 'event_id']).doNothing())
        .execute();
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
    return events.length;
  });
}
