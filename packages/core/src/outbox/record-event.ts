import type { Clock } from '../clock.js';
import type { IdGenerator } from '../ids.js';
import { executePrepared } from '../storage/prepared-query.js';
import type { Executor } from '../storage/store.js';
import { toTimestamp } from '../time.js';

/**
 * Event names of docs/api/choices.md "Events and mail", as a list: a webhook
 * subscribes to some of them by name (docs/webhooks.md), so they are checked
 * at run time too.
 */
export const EVENT_NAMES = [
  'booking.created',
  'booking.canceled',
  'booking.rescheduled',
  'booking.updated',
  'series.created',
  'series.paused',
  'series.resumed',
  'series.ended',
  'series.host_changed',
  'series.updated',
] as const;

export type EventName = (typeof EVENT_NAMES)[number];

/**
 * Records an event in the outbox inside the caller's transaction: the event
 * exists exactly when the change it reports committed. A dispatcher delivers
 * it later.
 */
export async function recordEvent(
  trx: Executor,
  deps: { clock: Clock; ids: IdGenerator },
  event: EventName,
  subjectUid: string,
  payload: unknown,
): Promise<void> {
  await executePrepared(trx, insertEvent, [deps.ids.uuid(), event, subjectUid, JSON.stringify(payload), toTimestamp(deps.clock.now())]);
}

const insertEvent = (db: Executor, id: string, event: string, subjectUid: string, payloadJson: string, createdAt: string) =>
  db
    .insertInto('outbox')
    .values({ id, event_type: event, subject_uid: subjectUid, payload_json: payloadJson, created_at: createdAt, dispatched_at: null });
