import type { Insertable } from 'kysely';
import type { Clock } from '../clock.js';
import type { IdGenerator } from '../ids.js';
import { executePrepared } from '../storage/prepared-query.js';
import type { OutboxTable } from '../storage/schema.js';
import type { Executor } from '../storage/store.js';
import { toTimestamp } from '../time.js';

/**
 * Event names of docs/api/choices.md "Events and mail", as a list: a webhook
 * subscribes to some of them by name (docs/webhooks.md), so they are checked
 * at run time too. `booking.updated` is what api.md says and nothing else:
 * a `PATCH /v1/bookings/:uid` of metadata, responses or the attendee's name.
 * A series moving an occurrence to another host, or restamping its link, is
 * a change of its own name.
 */
export const EVENT_NAMES = [
  'booking.created',
  // A booking of a type that requires confirmation: requested (made pending), then confirmed or declined.
  'booking.requested',
  'booking.confirmed',
  'booking.declined',
  'booking.canceled',
  'booking.rescheduled',
  'booking.updated',
  'booking.host_changed',
  'booking.location_changed',
  // The attendee did not come (POST /v1/bookings/:uid/no-show), and the mark taken back (DELETE).
  'booking.no_show',
  'booking.no_show_cleared',
  // A reminder rule with `via: webhook` came due (docs/reminders.md): the receiver reminds as it likes (an SMS, a chat message).
  'booking.reminder',
  'series.created',
  'series.paused',
  'series.resumed',
  'series.ended',
  'series.host_changed',
  'series.updated',
  // The self-service resources (docs/api): an event type's payload is the
  // event type (its owner decides who receives it); working hours and a
  // range of time off carry the person's user_id; a person is the person.
  'event_type.created',
  'event_type.updated',
  'event_type.deleted',
  'availability.updated',
  'time_off.created',
  'time_off.updated',
  'time_off.deleted',
  'person.created',
  'person.updated',
  'person.deactivated',
] as const;

export type EventName = (typeof EVENT_NAMES)[number];

/** The columns an event is written with, in the order `outboxRow` gives its values. */
export const OUTBOX_COLUMNS = ['id', 'event_type', 'subject_uid', 'payload_json', 'created_at', 'dispatched_at'] as const;

/** A new, undispatched event as its outbox row. */
export function outboxRow(
  deps: { clock: Clock; ids: IdGenerator },
  event: EventName,
  subjectUid: string,
  payload: unknown,
): Pick<OutboxTable, (typeof OUTBOX_COLUMNS)[number]> {
  return {
    id: deps.ids.uuid(),
    event_type: event,
    subject_uid: subjectUid,
    payload_json: JSON.stringify(payload),
    created_at: toTimestamp(deps.clock.now()),
    dispatched_at: null,
  };
}

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
  await insertOutboxRow(trx, outboxRow(deps, event, subjectUid, payload));
}

/** Writes an event's row (outboxRow) in the caller's transaction. */
export async function insertOutboxRow(trx: Executor, row: ReturnType<typeof outboxRow>): Promise<void> {
  await executePrepared(
    trx,
    insertEvent,
    OUTBOX_COLUMNS.map((column) => row[column]),
  );
}

// Compiled once: every value is a parameter in OUTBOX_COLUMNS order.
const insertEvent = (db: Executor, ...values: unknown[]) =>
  db
    .insertInto('outbox')
    .values(Object.fromEntries(OUTBOX_COLUMNS.map((column, i) => [column, values[i]])) as unknown as Insertable<OutboxTable>);
