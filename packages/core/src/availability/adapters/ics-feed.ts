import { createHash } from 'node:crypto';
import { Agent, interceptors, request } from 'undici';
import type { Clock } from '../../clock.js';
import { CalendarUnreadable, feedUrlShown, type IcsFeedReader } from '../calendar-reader.js';
import { busyWindow } from './busy-window.js';
import { type FeedExpansions, feedExpansions } from './ics/feed-expansions.js';
import { type ParsedFeed, parseFeed } from './ics/parse-feed.js';
import { reportSkipped, type SkippedEvent } from './ics/skipped-event.js';

export type { SkippedEvent, SkipReason } from './ics/skipped-event.js';

export interface IcsFeedOptions {
  readonly clock: Clock;
  /** Budget for the whole read: connecting, headers and body. */
  readonly timeoutMs?: number;
  /** How long a parsed feed is reused, so one availability request fetches each feed once. */
  readonly cacheTtlMs?: number;
  /** Feeds larger than this are refused rather than buffered. */
  readonly maxBytes?: number;
  /**
   * Told after each fetch which events of the feed (shown without credentials)
   * were left out as unreadable; often none. For logs and metrics: the events
   * are named by UID only.
   */
  readonly onSkippedEvents?: (feed: string, skipped: readonly SkippedEvent[]) => void;
}

const MAX_REDIRECTS = 5;

/** One version of a feed: its body's hash, and what was read from that body. */
interface FeedVersion {
  readonly hash: string;
  readonly skipped: ParsedFeed['skipped'];
  readonly expansions: FeedExpansions;
}

/**
 * Reads busy times from iCalendar feeds over HTTP(S), caching each parsed
 * feed for a while, and its expansions for as long as its body stays the
 * same: a feed fetched again unchanged is neither parsed nor expanded again.
 */
export function icsFeedReader(options: IcsFeedOptions): IcsFeedReader {
  const { clock, timeoutMs = 3000, cacheTtlMs = 60_000, maxBytes = 5 * 1024 * 1024 } = options;
  // An agent of this undici, not the global dispatcher: that one may be Node's
  // own (built-in fetch installs it), of another undici version whose handlers
  // do not fit these interceptors.
  const dispatcher = new Agent().compose(interceptors.redirect({ maxRedirections: MAX_REDIRECTS }));
  // Keyed by the configured URL; the set of URLs comes from the workspace, so it stays small.
  const cache = new Map<string, { feed: Promise<FeedVersion>; expiresAtMs: number }>();

  function load(url: string): Promise<FeedVersion> {
    const cached = cache.get(url);
    if (cached && clock.now() < cached.expiresAtMs) return cached.feed;
    // While in flight the entry never expires, so concurrent readers share the one fetch.
    // An expired entry has its version (a failed fetch is not kept): the next fetch may find the same body.
    const entry = { feed: fetchFeed(url, cached?.feed), expiresAtMs: Number.POSITIVE_INFINITY };
    cache.set(url, entry);
    entry.feed.then(
      () => {
        entry.expiresAtMs = clock.now() + cacheTtlMs;
      },
      () => {
        // A failure is not remembered: the next read tries again. The entry is
        // still this one: in flight it never expires, so nothing replaced it.
        cache.delete(url);
      },
    );
    return entry.feed;
  }

  async function fetchFeed(url: string, previous: Promise<FeedVersion> | undefined): Promise<FeedVersion> {
    let target: URL;
    try {
      target = new URL(url);
    } catch (error) {
      throw new CalendarUnreadable('calendar URL is not a valid URL', { cause: error });
    }
    const shown = feedUrlShown(target.href);
    const fail = (reason: string, cause?: unknown) => new CalendarUnreadable(`calendar ${shown} is unreadable: ${reason}`, { cause });
    if (target.protocol !== 'http:' && target.protocol !== 'https:') throw fail(`unsupported protocol ${target.protocol}`);

    const headers: Record<string, string> = { accept: 'text/calendar' };
    // Feeds like https://user:secret@host/cal.ics carry Basic credentials; send them as a header (undici
    // drops it on a cross-origin redirect) and keep them out of every message.
    if (target.username || target.password) {
      const pair = `${decodeURIComponent(target.username)}:${decodeURIComponent(target.password)}`;
      headers.authorization = `Basic ${Buffer.from(pair).toString('base64')}`;
    }

    const signal = AbortSignal.timeout(timeoutMs);
    let bytes: Buffer;
    try {
      const { statusCode, headers: responseHeaders, body } = await request(shown, { dispatcher, headers, signal });
      // undici reports an unread body destroyed as an 'error' event; nobody reads these, so mute it.
      const discard = () => body.on('error', () => {}).destroy();
      // undici hands over final answers only (200 and up): an informational 1xx never ends up here.
      if (statusCode > 299) {
        discard();
        throw fail(`HTTP ${statusCode}`);
      }
      const tooLarge = () => fail(`body is larger than ${maxBytes} bytes`);
      if (Number(responseHeaders['content-length']) > maxBytes) {
        discard();
        throw tooLarge();
      }
      const chunks: Buffer[] = [];
      let size = 0;
      // Counted while streaming, since a chunked body announces no length.
      for await (const chunk of body as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > maxBytes) throw tooLarge(); // leaving the loop destroys the body
        chunks.push(chunk);
      }
      bytes = Buffer.concat(chunks);
    } catch (error) {
      if (error instanceof CalendarUnreadable) throw error;
      if (signal.aborted) throw fail(`no complete answer within ${timeoutMs} ms`, error);
      throw fail(error instanceof Error ? error.message : String(error), error);
    }
    const hash = createHash('sha256').update(bytes).digest('base64');
    const kept = await previous;
    const version = kept?.hash === hash ? kept : readVersion(hash, bytes, fail, (event) => report(shown, [event]));
    report(shown, version.skipped);
    return version;
  }

  function report(shown: string, skipped: readonly SkippedEvent[]) {
    reportSkipped(options.onSkippedEvents, shown, skipped);
  }

  return async (url, range, hostZone = 'UTC') => {
    const feed = await load(url);
    try {
      return feed.expansions.busy(range, hostZone, () => busyWindow(range, clock.now()));
    } catch (error) {
      // ical.js gives up on rules it cannot satisfy; availability is then unknown, not free.
      const reason = error instanceof Error ? error.message : String(error);
      // `url` parsed: the fetch that loaded this feed refuses one that does not.
      throw new CalendarUnreadable(`calendar ${feedUrlShown(url)} is unreadable: ${reason}`, { cause: error });
    }
  };
}

/** Parses a body the reader has not seen under this URL; `onSkipped` hears of events left out later, while expanding. */
function readVersion(
  hash: string,
  bytes: Buffer,
  fail: (reason: string, cause?: unknown) => CalendarUnreadable,
  onSkipped: (skipped: SkippedEvent) => void,
): FeedVersion {
  let parsed: ParsedFeed;
  try {
    // RFC 5545 §6: the default charset is UTF-8; TextDecoder also drops a leading BOM.
    parsed = parseFeed(new TextDecoder().decode(bytes));
  } catch (error) {
    throw fail(`not a valid iCalendar feed (${error instanceof Error ? error.message : String(error)})`, error);
  }
  return { hash, skipped: parsed.skipped, expansions: feedExpansions(parsed.series, onSkipped) };
}
