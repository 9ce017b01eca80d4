import type { IcsFeedReader } from '../calendar-reader.js';
import type { IcsFeedOptions } from './ics-feed.js';

/**
 * icsFeedReader, with ical.js and undici loaded on the first feed read:
 * most commands never read a feed, and importing core must stay light for
 * the CLI's start-up. The same reader (and its cache) serves every read.
 */
export function icsFeedReader(options: IcsFeedOptions): IcsFeedReader {
  let reader: Promise<IcsFeedReader> | undefined;
  return async (url, range, hostZone) => {
    reader ??= import('./ics-feed.js').then((m) => m.icsFeedReader(options));
    return (await reader)(url, range, hostZone);
  };
}
