import { loadDriver } from '../../optional-driver.js';
import type { IcsFeedReader } from '../calendar-reader.js';
import type { IcsFeedOptions } from './ics-feed.js';

/**
 * icsFeedReader, with ical.js and undici loaded on the first feed read:
 * most commands never read a feed, and importing core must stay light for
 * the CLI's start-up, and an embedder whose hosts have no feeds need not
 * install them. The same reader (and its cache) serves every read.
 */
export function icsFeedReader(options: IcsFeedOptions): IcsFeedReader {
  let reader: Promise<IcsFeedReader> | undefined;
  return async (url, range, hostZone) => {
    reader ??= loadDriver(() => import('./ics-feed.js'), { packages: ['ical.js', 'undici'], usedFor: 'read iCalendar feeds' }).then((m) =>
      m.icsFeedReader(options),
    );
    return (await reader)(url, range, hostZone);
  };
}
