import { z } from 'zod';
import { ScheduleError } from '../errors.js';
import type { EventTypeRef } from '../event-types/resolve-event-type.js';
import { instantParam, uuidParam } from '../pagination/query-params.js';
import { DAY_MS, isTimeZone } from '../time.js';

/** api.md "Slots": a list window is at most 31 days. */
export const MAX_SLOT_WINDOW_DAYS = 31;
/** api.md: `next_available` is looked for within 7 days after the requested end. */
export const NEXT_AVAILABLE_SEARCH_DAYS = 7;

const timeZoneParam = z.string().refine(isTimeZone, 'must be an IANA time zone name');
const eventTypeParams = {
  event_type_id: uuidParam.optional(),
  username: z.string().min(1).optional(),
  event_slug: z.string().min(1).optional(),
};

/** The query of `GET /v1/slots`. */
export const listSlotsQuerySchema = z.object({
  ...eventTypeParams,
  start: instantParam,
  end: instantParam,
  timezone: timeZoneParam.optional(),
});

/** The query of `GET /v1/slots/check`. */
export const checkSlotQuerySchema = z.object({
  ...eventTypeParams,
  start: instantParam,
  end: instantParam.optional(),
  timezone: timeZoneParam.optional(),
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
