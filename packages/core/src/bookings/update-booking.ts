import { z } from 'zod';
import type { Principal } from '../auth/principal.js';
import { canonicalJson } from '../canonical-json.js';
import type { Clock } from '../clock.js';
import { type IfMatch, matchesVersion } from '../conditional.js';
import { ScheduleError } from '../errors.js';
import type { IdGenerator } from '../ids.js';
import type { Executor } from '../storage/store.js';
import { didYouMean } from '../validation/closest-name.js';
import { attendeeName, jsonObject } from '../validation/fields.js';
import { bodyObject, parseBody } from '../validation/parse-body.js';
import { applyBookingChange } from './apply-change.js';
import type { Booking } from './booking-view.js';
import { findVisibleBooking } from './find-booking.js';

/** The body of `PATCH /v1/bookings/:uid`: only these three fields may change. */
export const updateBookingBodySchema = z.object({
  metadata: jsonObject.optional().meta({ description: 'Merged key by key into the metadata.' }),
  responses: jsonObject.optional().meta({ description: 'Replaces the form answers (by question id).' }),
  attendee_name: attendeeName.meta({ description: "The attendee's new name." }),
});

export type UpdateBookingBody = z.infer<typeof updateBookingBodySchema>;
export type ChangedField = keyof UpdateBookingBody;
const PATCHABLE: readonly ChangedField[] = ['metadata', 'responses', 'attendee_name'];

/**
 * Checks a PATCH body. A field that cannot be patched is `422 field_immutable`
 * naming every such key; a patchable field of the wrong shape is `400
 * validation_error`.
 */
export function parseUpdateBookingBody(body: unknown): UpdateBookingBody {
  const immutable = Object.keys(bodyObject(body)).filter((key) => !PATCHABLE.includes(key as ChangedField));
  if (immutable.length > 0) {
    throw new ScheduleError(
      'field_immutable',
      `These fields cannot be patched: ${immutable.join(', ')}. Change start by reschedule and end a booking by cancel.${didYouMean(immutable, PATCHABLE)}`,
      { fields: immutable },
    );
  }
  const patch = parseBody(updateBookingBodySchema, body);
  if (Object.keys(patch).length === 0) {
    throw new ScheduleError('validation_error', `Send at least one of ${PATCHABLE.join(', ')}.`, { fields: [] });
  }
  return patch;
}

/**
 * Applies a PATCH: metadata merged shallowly, responses replaced, the primary
 * attendee renamed; version bumped; `booking.updated` recorded with the fields
 * whose stored value changed. The version check is repeated in the UPDATE
 * itself, so a concurrent writer can never be overwritten (no lost update).
 */
export async function updateBooking(
  trx: Executor,
  deps: { clock: Clock; ids: IdGenerator },
  principal: Principal,
  uid: string,
  ifMatch: IfMatch,
  patch: UpdateBookingBody,
): Promise<Booking> {
  const row = await findVisibleBooking(trx, principal, uid);
  if (!matchesVersion(ifMatch, row.version)) {
    throw new ScheduleError('version_conflict', `The booking is at version ${row.version}.`, { current_version: row.version });
  }

  const stored = {
    metadata: JSON.parse(row.metadata_json) as Record<string, unknown>,
    // A booking made without form answers stores none (null), which its view shows as {}.
    responses: JSON.parse(row.responses_json ?? 'null') as Record<string, unknown> | null,
  };
  const metadata = { ...stored.metadata, ...patch.metadata };
  const responses = patch.responses ?? stored.responses;
  const attendees = JSON.parse(row.attendees_json) as Booking['attendees'];
  if (patch.attendee_name !== undefined && attendees[0]) attendees[0] = { ...attendees[0], name: patch.attendee_name };

  const next = {
    metadata_json: JSON.stringify(metadata),
    responses_json: responses === null ? null : JSON.stringify(responses),
    attendees_json: JSON.stringify(attendees),
  };
  // A field the patch leaves out keeps its stored value: comparing each field names only those the patch changed.
  const changed: ChangedField[] = [];
  if (canonicalJson(metadata) !== canonicalJson(stored.metadata)) changed.push('metadata');
  if (canonicalJson(responses) !== canonicalJson(stored.responses)) changed.push('responses');
  if (next.attendees_json !== row.attendees_json) changed.push('attendee_name');

  return applyBookingChange(trx, deps, row, next, 'booking.updated', (booking) => ({ ...booking, changed_fields: changed }));
}
