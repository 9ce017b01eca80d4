import { CalendarUnreadable, createCalendarReader } from '../../src/availability/calendar-reader.js';
import type { Clock } from '../../src/clock.js';
import { conferenceLinksAt } from '../../src/conference-links.js';
import { type IdGenerator, randomIds } from '../../src/ids.js';
import type { ExecuteDeps } from '../../src/operations/execute.js';
import type { Store } from '../../src/storage/store.js';

/** Test deps: static calendars read inline; an `ics` feed is unreadable unless a test brings a reader. */
export function testDeps(store: Store, clock: Clock, overrides: Partial<ExecuteDeps> & { ids?: IdGenerator } = {}): ExecuteDeps {
  return {
    store,
    clock,
    ids: randomIds,
    idempotencyLeaseMs: 30_000,
    calendars: createCalendarReader(async (url) => {
      throw new CalendarUnreadable(`no feed reader in this test: ${url}`);
    }),
    conferenceLinks: conferenceLinksAt('https://meet.test'),
    ...overrides,
  };
}
