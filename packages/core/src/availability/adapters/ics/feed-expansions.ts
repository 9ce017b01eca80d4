import type { Interval } from '../../busy.js';
import { holds, MAX_BUSY_WINDOWS } from '../busy-window.js';
import { busyWithin } from './busy-within.js';
import type { Series } from './parse-feed.js';
import type { SkippedEvent } from './skipped-event.js';

/** A parsed feed's busy times, worked out once per host zone and window, and kept with the feed. */
export interface FeedExpansions {
  /**
   * The busy times that overlap `range`, unclipped: filtered from a kept
   * window that holds the range, or else from `window` (which must hold it),
   * expanded now and kept. Throws as busyWithin does, and again for every
   * later read of that window: the outcome of one feed, zone and window never changes.
   */
  busy(range: Interval, hostZone: string, window: () => Interval): Interval[];
}

type Outcome = { readonly busy: Interval[] } | { readonly error: unknown };

/**
 * Expansions of one version of a feed: a read of an unchanged feed, and each
 * of the reads that follow within its window, only filter a sorted list, so
 * a feed costs its bounded expansion (busy-within.ts) once, not on every read.
 * The set is the one busyWithin gives for the range itself, since it keeps
 * unclipped every interval that overlaps. An event left out while expanding
 * is told to `onSkipped`, once per expansion.
 */
export function feedExpansions(series: readonly Series[], onSkipped?: (skipped: SkippedEvent) => void): FeedExpansions {
  // Most recently used first; a handful, since a host reads in one zone and mostly in the standard window.
  // Stryker disable next-line ArrayDeclaration: a foreign first element is never found, and is the first dropped once 8 windows are kept: no read sees it
  const kept: { zone: string; window: Interval; outcome: Outcome }[] = [];
  return {
    busy(range, hostZone, window) {
      let entry = kept.find((e) => e.zone === hostZone && holds(e.window, range));
      if (entry) kept.splice(kept.indexOf(entry), 1);
      else {
        const expanded = window();
        let outcome: Outcome;
        try {
          outcome = { busy: busyWithin(series, expanded, hostZone, onSkipped) };
        } catch (error) {
          outcome = { error };
        }
        entry = { zone: hostZone, window: expanded, outcome };
      }
      kept.unshift(entry);
      kept.length = Math.min(kept.length, MAX_BUSY_WINDOWS);
      if ('error' in entry.outcome) throw entry.outcome.error;
      return entry.outcome.busy.filter((b) => b.startMs < range.endMs && range.startMs < b.endMs);
    },
  };
}
