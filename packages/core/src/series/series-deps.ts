import type { CalendarReader } from '../availability/calendar-reader.js';
import type { Clock } from '../clock.js';
import type { ConferenceLinks } from '../conference-links.js';
import type { IdGenerator } from '../ids.js';
import type { Store } from '../storage/store.js';
import type { StepHook } from './series-steps.js';

/**
 * What a series action may use; passed in, never imported. Series needs the
 * widest set of any domain folder and is the lowest one that sees every
 * member's type (the store below, calendars in availability, its own step
 * hook), so the set is declared here: series never looks up to operations
 * for it, and operations' CoreDeps is this same set.
 */
export interface SeriesDeps {
  readonly store: Store;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /** Reads hosts' conflict calendars. */
  readonly calendars: CalendarReader;
  /** Makes the conference link of a new booking. */
  readonly conferenceLinks: ConferenceLinks;
  /** Called at each step of a series action; tests interleave actions with it. Production passes none. */
  readonly steps?: StepHook | undefined;
}
