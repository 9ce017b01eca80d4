import { Box, Text } from 'ink';
import { createElement as h, type ReactNode } from 'react';
import { skipCauseText } from '../output/skip-causes.js';
import { dayHeading, localTime } from '../output/zone-time.js';
import { HINT, tint } from './text-style.js';

/** `preview_series`'s answer (docs/api "POST /v1/series/preview"), as far as the wizard reads it. */
export interface SeriesPreviewData {
  readonly timezone: string;
  readonly occurrences: readonly { readonly date: string; readonly start_at: string }[];
  readonly skipped: readonly { readonly date: string; readonly start_at: string; readonly cause: string }[];
}

export interface SeriesPreviewProps {
  readonly preview: SeriesPreviewData;
  readonly color: boolean;
}

/**
 * The dates a create would book and skip, in the series zone, each skipped
 * one with its cause: the server's own dry run of the create, so what it
 * shows is what the create does unless a booking lands in between.
 */
export function SeriesPreview({ preview, color }: SeriesPreviewProps): ReactNode {
  const zone = preview.timezone;
  const lines = [
    ...preview.occurrences.map((o) => ({ at: o.start_at, date: o.date, cause: undefined })),
    ...preview.skipped.map((s) => ({ at: s.start_at, date: s.date, cause: s.cause })),
  ].sort((a, b) => a.at.localeCompare(b.at));
  const total = lines.length;
  return h(
    Box,
    { flexDirection: 'column' },
    h(Text, tint(color, { bold: true }), `Dates (${zone})`),
    ...lines.map((l) => {
      const when = `${dayHeading(l.date)} ${localTime(l.at, zone)}`;
      return l.cause === undefined
        ? h(Text, { key: l.at }, h(Text, tint(color, { color: 'green' }), '  ✓ '), when)
        : h(
            Text,
            { key: l.at },
            h(Text, tint(color, { color: 'yellow' }), '  ✗ '),
            h(Text, tint(color, HINT), when),
            `  skipped: ${skipCauseText(l.cause)}`,
          );
    }),
    ...(preview.occurrences.length === 0
      ? [h(Text, { key: 'none' }, 'None of these dates is free: there is nothing to create.')]
      : [
          h(
            Text,
            { key: 'count' },
            `${preview.occurrences.length} of ${total} will be booked; skipped dates are not moved to another day.`,
          ),
          h(
            Text,
            { key: 'hint', ...tint(color, HINT) },
            'Nothing is held meanwhile: a booking made before you confirm can still take a date.',
          ),
        ]),
  );
}
