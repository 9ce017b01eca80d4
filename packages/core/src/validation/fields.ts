import { z } from 'zod';
import { FIRST_DATE, isTimeZone, LAST_DATE, namesItsOffset, parseInstant } from '../time.js';

// Field shapes more than one request body shares, declared once.

export const timeZone = z.string().refine(isTimeZone, 'must be an IANA time zone name');

/** What an instant must look like, said once for bodies and queries. */
export const OFFSET_RULE = 'must name its offset: Z or ±HH:MM (2026-12-09T11:00:00Z, 2026-12-09T11:00:00+01:00)';

/** A date-time with its time of day and its offset; a bare date is not an instant to book. */
export const instant = z
  .string()
  .refine((s) => /T/.test(s) && parseInstant(s) !== undefined, `must be an ISO 8601 date-time between ${FIRST_DATE} and ${LAST_DATE}`)
  .refine(namesItsOffset, OFFSET_RULE);

export const jsonObject = z.record(z.string(), z.unknown(), { error: 'must be an object' });

/** api.md "Limits": an attendee email is at most 254 characters. */
export const email = z.email({ error: 'must be an email address' }).max(254, 'must be at most 254 characters');

/** A civil date `YYYY-MM-DD` that exists in the calendar. */
export const civilDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')
  .refine((s) => {
    const d = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s);
  }, 'must be a date that exists');

/** A 24-hour wall-clock time `HH:MM`. */
export const wallClockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:MM, 24-hour');

export const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(2048);
