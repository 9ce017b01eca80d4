import type { Principal } from '../auth/principal.js';
import { mayActFor } from '../auth/roles.js';
import { ScheduleError } from '../errors.js';
import { isUuid } from '../ids.js';
import type { Executor } from '../storage/store.js';
import { type EventTypeRow, eventTypeRowQuery } from './event-type-rows.js';

/** The `404 event_type_not_found` of an id, whatever made it unknown. */
export function eventTypeNotFound(id: string): ScheduleError {
  return new ScheduleError('event_type_not_found', 'No such event type.', { id });
}

/**
 * The event type with this id, archived or not, if the caller may act for
 * its owner: what `GET /v1/event-types` would list (archived ones aside).
 * Malformed, unknown and someone else's all answer `404
 * event_type_not_found`, so existence never leaks.
 */
export async function findVisibleEventType(db: Executor, principal: Principal, id: string): Promise<EventTypeRow> {
  // Stryker disable next-line ConditionalExpression: equivalent: event type ids are UUIDs in a text column on both stores, so an id that is none matches no row and the same 404 follows; raw-call-bounds.ts refuses a param no store can hold (a NUL byte) before here.
  if (!isUuid(id)) throw eventTypeNotFound(id);
  const row = await eventTypeRowQuery(db).where('event_types.id', '=', id.toLowerCase()).executeTakeFirst();
  if (!row || !mayActFor(principal.actsFor, row.owner_user_id)) throw eventTypeNotFound(id);
  return row;
}

/** `409 slug_taken` unless the owner has no live type with this slug but `exceptId`. */
export async function checkSlugFree(db: Executor, ownerId: string, slug: string, exceptId?: string): Promise<void> {
  let query = db.selectFrom('event_types').select('id').where('owner_user_id', '=', ownerId).where('slug', '=', slug);
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  if (await query.executeTakeFirst()) {
    throw new ScheduleError('slug_taken', `The owner already has an event type with the slug "${slug}".`, { fields: ['slug'] });
  }
}
