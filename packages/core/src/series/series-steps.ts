import type { SeriesAction } from './series-state.js';

/**
 * A point in a series action where a test may hold it (docs/api/choices.md: the
 * core lets tests interleave two actions deterministically, without sleeps).
 *
 * - `first_write`: the action holds the series and is about to make its first
 *   write; another action arriving now gets `409 series_busy`.
 * - `item`: before the action's next item (each its own transaction); another
 *   action starting now takes the series over.
 * - `finish`: before the last step.
 * - `occurrence`: inside the one transaction of a create, before each
 *   occurrence is written (a crash here loses the whole create).
 * - `sending`: a mail about the series is being sent, and the series is held.
 * - `waiting`: the action found the series held by a mail being sent, and
 *   waits before it tries again (series-hold.ts, MAIL_WAIT_MS).
 */
export type SeriesStep =
  | { readonly action: SeriesAction; readonly phase: 'first_write' | 'finish' | 'waiting'; readonly seriesUid: string }
  | { readonly action: SeriesAction; readonly phase: 'item'; readonly seriesUid: string; readonly index: number }
  | { readonly action: 'create'; readonly phase: 'occurrence'; readonly seriesUid: string; readonly index: number }
  | { readonly action: 'mail'; readonly phase: 'sending'; readonly seriesUid: string };

/** Called at every step; production passes none. */
export type StepHook = (step: SeriesStep) => void | Promise<void>;
