import { z } from 'zod';
import { BOOKING_STATUSES, FREQUENCIES, SERIES_SOURCES, SERIES_STATUSES } from '../storage/schema.js';
import { shownInstant as instant } from '../validation/fields.js';

// The series resources of docs/api, as every front end shows them. HTTP answers
// with these shapes; MCP declares them as tool output schemas.

// Status, source and frequency are stored columns, so their lists are declared with the tables.
export { SERIES_SOURCES, SERIES_STATUSES, type SeriesSource, type SeriesStatus } from '../storage/schema.js';

export const WEEKDAY_NAMES = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;

/** The Series resource of docs/api. Occurrences are not part of it. */
export const seriesSchema = z
  .object({
    uid: z.string().meta({ description: "The series' id; its occurrences are bookings with this `series_id`." }),
    version: z.int().meta({ description: 'Starts at 1; every action that got past its checks adds one. Shown as `ETag`.' }),
    event_type: z.object({ id: z.string(), slug: z.string(), name: z.string() }),
    host: z.object({ user_id: z.string(), username: z.string(), email: z.string() }),
    attendee: z.object({ name: z.string(), email: z.string(), phone: z.string().nullable() }),
    frequency: z.enum(FREQUENCIES),
    interval_weeks: z.int().meta({ description: 'Every n-th week; weekly patterns only.' }),
    weekdays: z.array(z.enum(WEEKDAY_NAMES)),
    time: z.string().meta({ description: 'HH:MM, the wall-clock time in `timezone`.' }),
    timezone: z.string(),
    starts_on: z.string().meta({ description: 'The first date the pattern may fall on, in `timezone`.' }),
    count: z.int().meta({ description: 'How many pattern dates were tried, booked or skipped.' }),
    status: z.enum(SERIES_STATUSES),
    location_url: z.string().nullable().meta({ description: 'The fixed link of every occurrence; null: generated conference links.' }),
    notify_invitee: z.boolean().meta({ description: 'False: no mail reaches the attendee about this series.' }),
    source: z.enum(SERIES_SOURCES).meta({ description: 'Which front end created it.' }),
    created_at: instant,
    updated_at: instant,
    ended_at: instant.nullable(),
  })
  .meta({ description: 'A repeating pattern that books a run of bookings (its occurrences) for one attendee.' });
export type Series = z.infer<typeof seriesSchema>;

/** An occurrence in the create response: an ordinary booking's uid and times. */
export const occurrenceSchema = z.object({
  uid: z.string(),
  start_at: instant,
  end_at: instant,
  status: z.enum(BOOKING_STATUSES),
});
export type Occurrence = z.infer<typeof occurrenceSchema>;

/**
 * Why a pattern date was skipped, beyond the spec's one `reason` (docs/api/choices.md
 * "Skipped dates"): so a person previewing a series sees what to change.
 */
export const SKIP_CAUSES = [
  'busy',
  'outside_working_hours',
  'outside_minimum_notice',
  'outside_future_limit',
  'event_type_inactive',
  'series_overlap',
] as const;
export type SkipCause = (typeof SKIP_CAUSES)[number];

/** A pattern date the host was not free at (docs/api/choices.md: `date` is civil, in the series zone). */
export const skippedSchema = z.object({
  date: z.string().meta({ description: 'The pattern date, in the series zone.' }),
  start_at: instant,
  reason: z.literal('conflict'),
  cause: z.enum(SKIP_CAUSES).meta({
    description:
      'What the conflict is: a booking or busy calendar time (buffers included), outside working hours, inside the minimum notice, past the future limit, the event type switched off, or overlapping an earlier occurrence of the same call.',
  }),
});
export type Skipped = z.infer<typeof skippedSchema>;

export const createSeriesResultSchema = z.object({
  series: seriesSchema,
  occurrences: z.array(occurrenceSchema),
  skipped: z.array(skippedSchema),
});
export type CreateSeriesResult = z.infer<typeof createSeriesResultSchema>;

/** A date a series preview would book: the civil date in the series zone and the meeting's time. */
export const previewOccurrenceSchema = z.object({
  date: z.string().meta({ description: 'The pattern date, in the series zone.' }),
  start_at: instant,
  end_at: instant,
});

/** What `POST /v1/series` would answer for the same body, without writing: its dates booked and skipped. */
export const seriesPreviewSchema = z.object({
  timezone: z.string().meta({ description: 'The series zone, the one `date` is read in (the host’s unless the body names one).' }),
  occurrences: z.array(previewOccurrenceSchema).meta({ description: 'The dates a create would book now, in order.' }),
  skipped: z.array(skippedSchema).meta({ description: 'The dates a create would skip now, each with its cause.' }),
});
export type SeriesPreview = z.infer<typeof seriesPreviewSchema>;

export const pauseResultSchema = z.object({ held: z.int(), superseded: z.boolean() });
export type PauseResult = z.infer<typeof pauseResultSchema>;

export const resumeResultSchema = z.object({
  created: z.int(),
  skipped: z.array(skippedSchema),
  owed: z.int(),
  superseded: z.boolean(),
});
export type ResumeResult = z.infer<typeof resumeResultSchema>;

export const endResultSchema = z.object({ canceled: z.int(), superseded: z.boolean() });
export type EndResult = z.infer<typeof endResultSchema>;

/** Why a host change stopped early (docs/api/series.md "Busy and superseded"). */
export const HOST_STOPS = ['superseded', 'no_writable_calendar', 'slot_unavailable'] as const;
export type HostStop = (typeof HOST_STOPS)[number];

export const hostChangeResultSchema = z.object({
  moved: z.int(),
  unchanged: z.int(),
  stopped_by: z.enum(HOST_STOPS).nullable(),
  superseded: z.boolean(),
});
export type HostChangeResult = z.infer<typeof hostChangeResultSchema>;

export const updateSeriesResultSchema = z.object({ series: seriesSchema, resumed: resumeResultSchema.nullable() });
export type UpdateSeriesResult = z.infer<typeof updateSeriesResultSchema>;
