import { z } from 'zod';
import { parseInstant, toTimestamp } from '../time.js';
import { fileInstant } from '../validation/fields.js';

// A host's conflict calendars: availability reads their busy times, the
// workspace file writes them. Declared here, beside the HostRecord that
// carries them (resolve-event-type.ts), the lowest layer that holds one.

export const calendarSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('static'),
    /** Whether bookings may be written to it; a static calendar is kept by the service itself, so yes unless said. */
    writable: z.boolean().default(true),
    busy: z.array(
      z
        .object({ start: fileInstant, end: fileInstant })
        .refine((b) => parseInstant(b.start)!.epochMs < parseInstant(b.end)!.epochMs, 'busy time must end after it starts')
        // Stored in the canonical form, so that reading availability is a cheap Date.parse.
        .transform((b) => ({ start: toTimestamp(parseInstant(b.start)!.epochMs), end: toTimestamp(parseInstant(b.end)!.epochMs) })),
    ),
  }),
  // A feed is read, never written.
  z.object({ kind: z.literal('ics'), url: z.url({ protocol: /^https?$/ }), writable: z.literal(false).default(false) }),
]);
export type Calendar = z.infer<typeof calendarSchema>;
