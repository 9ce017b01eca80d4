import { z } from 'zod';
import { ScheduleError } from '../errors.js';
import type { EventTypeRef } from '../event-types/resolve-event-type.js';
import { DATE_OR_INSTANT, instantParam } from '../pagination/query-params.js';
import { DAY_MS } from '../time.js';
import { eventSlug, eventTypeOwner, timeZone, uuid } from '../validation/fields.js';

/** docs/api/endpoints.md "Slots": a list window is at most 31 days. */
export const MAX_SLOT_WINDOW_DAYS = 31;
/** docs/api: `next_available` is looked for within 7 days after the requested end. */
export const NEXT_AVAILABLE_SEARCH_DAYS = 7;

const eventTypeParams = {
  event_type_id: uuid.optional().meta({ description: 'The event type; or username + event_slug.' }),
  username: eventTypeOwner.optional(),
  event_slug: eventSlug.optional(),
};

/** The query of `GET /v1/slots`. */
export const listSlotsQuerySchema = z.object({
  ...eventTypeParams,
  start: instantParam.meta({ description: `From (inclusive). ${DATE_OR_INSTANT}` }),
  end: instantParam.meta({ description: `To (exclusive), up to ${MAX_SLOT_WINDOW_DAYS} days after start. ${DATE_OR_INSTANT}` }),
  timezone: timeZone.optional().meta({ description: "IANA zone the answer is labelled in; default the host's, then UTC." }),
});

/** The query of `GET /v1/slots/check`. */
export const checkSlotQuerySchema = z.object({
  ...eventTypeParams,
  start: instantParam.meta({ description: `The start to check. ${DATE_OR_INSTANT}` }),
  end: instantParam.optional().meta({ description: `Default: start + duration. ${DATE_OR_INSTANT}` }),
  timezone: timeZone.optional().meta({ description: 'IANA zone for finding next_available.' }),
});

/** The event type a slots query names; `invalid_query_param` when it names none. */
export function eventTypeOfQuery(query: {
  event_type_id?: string | undefined;
  username?: string | undefined;
  event_slug?: string | undefined;
}): EventTypeRef {
  if (query.event_type_id !== undefined) return { eventTypeId: query.event_type_id };
  if (query.username !== undefined && query.event_slug !== undefined) return { username: query.username, eventSlug: query.event_slug };
  throw new ScheduleError('invalid_query_param', 'Name the event type: event_type_id, or both username and event_slug.', {
    param: 'event_type_id',
  });
}

/** `end` must come after `start`, and a list spans at most 31 days. */
export function checkWindow(startMs: number, endMs: number, maxDays?: number): void {
  if (endMs <= startMs) throw new ScheduleError('invalid_query_param', 'end must be after start.', { param: 'end' });
  if (maxDays !== undefined && endMs - startMs > maxDays * DAY_MS) {
    throw new ScheduleError('invalid_query_param', `The window from start to end is at most ${maxDays} days.`, { param: 'end' });
  }
}
