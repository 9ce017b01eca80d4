import { loadDriver } from '../../optional-driver.js';
import type { CalDavBusyReader } from '../calendar-reader.js';
import type { CalDavBusyOptions } from './caldav-busy.js';

/**
 * calDavBusyReader, with ical.js loaded on the first read (the connector
 * loads tsdav and undici on its own): an embedder whose hosts have no CalDAV
 * accounts need not install them. The same reader (and its cache) serves every read.
 */
export function calDavBusyReader(options: CalDavBusyOptions): CalDavBusyReader {
  let reader: Promise<CalDavBusyReader> | undefined;
  return async (calendar, range, hostZone) => {
    reader ??= loadDriver(() => import('./caldav-busy.js'), { packages: ['ical.js'], usedFor: 'read CalDAV calendars' }).then((m) =>
      m.calDavBusyReader(options),
    );
    return (await reader)(calendar, range, hostZone);
  };
}
