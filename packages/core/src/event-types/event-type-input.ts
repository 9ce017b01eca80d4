import { z } from 'zod';
import { ScheduleError } from '../errors.js';
import { bodyObject, parseBody, parsePatch } from '../validation/parse-body.js';
import { eventTypeDeclaration, eventTypeFields } from './event-type-fields.js';

/** The body of `POST /v1/event-types`: the fields, defaults as the workspace file's, and whose type it is. */
export const createEventTypeBodySchema = eventTypeDeclaration.extend({
  owner: z.string().min(1).optional().meta({ description: 'The user_id or username of whose type it is; the caller when absent.' }),
});
export type CreateEventTypeBody = z.output<typeof createEventTypeBodySchema>;

/** The body of `PATCH /v1/event-types/:id`: send only what changes; null clears the description. */
export const updateEventTypeBodySchema = z.object(
  Object.fromEntries(Object.entries(eventTypeFields).map(([name, field]) => [name, field.optional()])) as {
    [K in keyof typeof eventTypeFields]: z.ZodOptional<(typeof eventTypeFields)[K]>;
  },
);
export type UpdateEventTypeBody = z.output<typeof updateEventTypeBodySchema>;

/**
 * What the view shows but a PATCH cannot change: the id and the times are
 * the service's; the owner is whose time bookings take, so moving a type
 * to another host would move its bookings' meaning with it (make a new one).
 */
export const IMMUTABLE_FIELDS = ['id', 'owner', 'version', 'created_at', 'updated_at', 'archived_at'] as const;

export function parseCreateEventTypeBody(body: unknown): CreateEventTypeBody {
  return parseBody(createEventTypeBodySchema, body);
}

/**
 * Checks a PATCH body: a field of the view that cannot change is `422
 * field_immutable` naming each (as a booking's PATCH answers), any other
 * unknown key `400 validation_error`, a patchable field of the wrong shape
 * `400 validation_error` naming it.
 */
export function parseUpdateEventTypeBody(body: unknown): UpdateEventTypeBody {
  const keys = Object.keys(bodyObject(body));
  const immutable = keys.filter((key) => (IMMUTABLE_FIELDS as readonly string[]).includes(key));
  if (immutable.length > 0) {
    throw new ScheduleError('field_immutable', `These fields cannot be patched: ${immutable.join(', ')}.`, { fields: immutable });
  }
  return parsePatch(updateEventTypeBodySchema, body);
}
