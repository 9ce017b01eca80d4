import { loadDriver } from '../optional-driver.js';

/** What the sync reads of an event it finds in a calendar (adapters/found-event.ts). */
export type FoundEventReader = typeof import('./adapters/found-event.js');

let reader: Promise<FoundEventReader> | undefined;

/**
 * The found-event reader, with ical.js loaded the first time an event is
 * found in a calendar (the first change or removal of one): hosts without a
 * CalDAV account never need it, and one with an account needs it already to
 * read its busy time.
 */
export function foundEventReader(): Promise<FoundEventReader> {
  reader ??= loadDriver(() => import('./adapters/found-event.js'), {
    packages: ['ical.js'],
    usedFor: 'write over events changed in a CalDAV calendar',
  });
  return reader;
}
