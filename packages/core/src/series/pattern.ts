import type { Frequency } from '../storage/schema.js';

/** A day of the week as docs/api spells it in a series' `weekdays`. */
export type PatternWeekday = 'sun' | 'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat';

/**
 * The repeating part of a series: the fields of docs/api's Series that decide
 * which instants it generates, already validated (docs/api/choices.md "Series
 * expansion" rejects empty or duplicate `weekdays` for weekly before here).
 */
export interface Pattern {
  readonly frequency: Frequency;
  /** 1 to 8; weekly only. */
  readonly intervalWeeks: number;
  /** Ignored for `monthly_same_day`. */
  readonly weekdays: readonly PatternWeekday[];
  /** `HH:MM`, 24-hour wall clock in `timezone`. */
  readonly time: string;
  /** IANA time zone name. */
  readonly timezone: string;
  /** `YYYY-MM-DD`, the first civil day the pattern is walked from. */
  readonly startsOn: string;
}

/** One instant a pattern generates: its civil date in the series zone and the instant itself. */
export interface PatternInstant {
  readonly date: string;
  readonly instantMs: number;
}
