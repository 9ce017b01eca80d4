import { z } from 'zod';
import { isUuid } from '../ids.js';
import { FIRST_DATE, isTimeZone, LAST_DATE, namesItsOffset, parseInstant } from '../time.js';

// Field shapes more than one request body shares, declared once.

// The `.meta()` on each shape is what MCP's tool schemas (and an OpenAPI
// document) say about it, so the text lives beside the rule it describes.

export const timeZone = z
  .string()
  .refine(isTimeZone, 'must be an IANA time zone name')
  .meta({ description: 'An IANA time zone.', examples: ['Europe/Berlin'] });

/** What an instant must look like, said once for bodies and queries. */
export const OFFSET_RULE = 'must name its offset: Z or ±HH:MM (2026-12-09T11:00:00Z, 2026-12-09T11:00:00+01:00)';

/** The offset rule as a field description says it; a description that names its own purpose ends with it. */
export const WITH_OFFSET = 'ISO 8601 with Z or an offset; zone-less is refused.';

/** A date-time with its time of day and its offset; a bare date is not an instant to book. */
export const instant = z
  .string()
  .refine((s) => /T/.test(s) && parseInstant(s) !== undefined, `must be an ISO 8601 date-time between ${FIRST_DATE} and ${LAST_DATE}`)
  .refine(namesItsOffset, OFFSET_RULE)
  .meta({ format: 'date-time', description: `A date-time, ${WITH_OFFSET}`, examples: ['2026-12-09T11:00:00+01:00'] });

/** Free-form JSON (docs/api `metadata`, `responses`): any JSON value under a string key. */
/** An instant as every answer shows it: UTC with milliseconds, whose fixed width makes text order time order. */
export const shownInstant = z.string().meta({ format: 'date-time' });

export const jsonObject = z.record(
  z.string(),
  // Core keeps any JSON value; the declared types say so without a schema that reads as "anything".
  z.unknown().meta({ type: ['string', 'number', 'boolean', 'null', 'array', 'object'] }),
  { error: 'must be an object' },
);

/** A UUID, compared in lower case as ids are stored. */
export const uuid = z
  .string()
  .refine(isUuid, 'must be a UUID')
  .transform((id) => id.toLowerCase())
  .meta({ format: 'uuid' });

/** docs/api/requests.md "Request limits": an attendee email is at most 254 characters. */
export const email = z
  .email({ error: 'must be an email address' })
  .max(254, 'must be at most 254 characters')
  .meta({ description: 'An email address.' });

/** A civil date `YYYY-MM-DD` that exists in the calendar. */
export const civilDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')
  .refine((s) => {
    const d = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s);
  }, 'must be a date that exists')
  .meta({ format: 'date', examples: ['2026-03-09'] });

/** A 24-hour wall-clock time `HH:MM`. */
export const wallClockTime = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:MM, 24-hour')
  .meta({ examples: ['10:00'] });

/** An attendee's optional names and phone (docs/api/endpoints.md "Bookings": max 255, 127, 127, 64). */
export const attendeeName = z.string().min(1).max(255).optional().meta({ description: 'Default: first and last name, else the email.' });
const firstName = z.string().max(127).optional().meta({ description: 'Used when name is absent.' });
const lastName = z.string().max(127).optional().meta({ description: 'Used when name is absent.' });
const phone = z.string().max(64).optional().meta({ description: 'A phone number.' });

/** Who a booking or series is with: an email, and optional names and phone. A booking adds its own fields. */
export const attendee = z.object({ email, name: attendeeName, first_name: firstName, last_name: lastName, phone });

/** How a request names an event type without its id (docs/api: `username` + `event_slug`), in bodies and queries. */
export const eventTypeOwner = z.string().min(1).meta({ description: "The event type owner's username, with event_slug." });
export const eventSlug = z.string().min(1).meta({ description: 'The event type slug, with username.' });

export const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(2048);

/**
 * An instant as a stored file writes it (docs/workspace.md): anything parseInstant
 * reads. Looser than `instant`, which holds what a request may send.
 */
export const fileInstant = z.string().refine((s) => parseInstant(s) !== undefined, 'must be an ISO 8601 timestamp');
