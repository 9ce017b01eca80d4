import { expandPattern, type Pattern } from '@schedule/core';
import { Box, Text } from 'ink';
import { createElement as h, type ReactNode } from 'react';
import { dayHeading, localTime } from '../output/zone-time.js';
import { HINT, tint } from './text-style.js';

/** A date the pattern gives, before it is checked. */
export interface Candidate {
  readonly date: string;
  /** ISO UTC. */
  readonly start: string;
}

/** `check_slot`'s answer for a candidate. */
export type Verdict = { readonly available: true } | { readonly available: false; readonly reason: string };

export interface PreviewDate extends Candidate {
  readonly verdict: Verdict;
}

/**
 * The dates a create would try: core's own expansion (the next `count`
 * pattern instants after now), so the preview and the server agree on them.
 */
export function candidates(pattern: Pattern, count: number, nowMs: number): Candidate[] {
  return expandPattern(pattern, count, nowMs).map((c) => ({ date: c.date, start: new Date(c.instantMs).toISOString() }));
}

export interface SeriesPreviewProps {
  readonly dates: readonly PreviewDate[];
  /** The series' zone, which its dates and times are read in. */
  readonly zone: string;
  readonly color: boolean;
}

/**
 * The dates a series would book, each marked free or likely skipped.
 * "Likely": check_slot also holds a start to the event type's slot grid,
 * which a series occurrence is not held to (README, "Which rules an
 * occurrence meets"), and the server decides when it creates.
 */
export function SeriesPreview({ dates, zone, color }: SeriesPreviewProps): ReactNode {
  const free = dates.filter((d) => d.verdict.available).length;
  return h(
    Box,
    { flexDirection: 'column' },
    h(Text, tint(color, { bold: true }), `Dates (${zone})`),
    ...dates.map((d) => {
      const when = `${dayHeading(d.date)} ${localTime(d.start, zone)}`;
      return d.verdict.available
        ? h(Text, { key: d.start }, h(Text, tint(color, { color: 'green' }), '  ✓ '), when)
        : h(
            Text,
            { key: d.start },
            h(Text, tint(color, { color: 'yellow' }), '  ✗ '),
            h(Text, tint(color, HINT), when),
            `  likely skipped (${d.verdict.reason})`,
          );
    }),
    h(Text, null, `${free} of ${dates.length} likely booked; skipped dates are not moved to another day.`),
    h(Text, tint(color, HINT), 'Checked like a single booking, on the slot grid; the series itself decides when it is created.'),
  );
}
