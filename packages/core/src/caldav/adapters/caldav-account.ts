import { createHash } from 'node:crypto';
import {
  calendarQuery,
  createAccount,
  createCalendarObject,
  type DAVCalendar,
  deleteCalendarObject,
  fetchCalendars,
  updateCalendarObject,
} from 'tsdav';
import type { CalDavCalendar } from '../../event-types/calendar.js';
import { urlShown } from '../../url-shown.js';
import type { CalDavAccount, CalDavConnector, CalDavDeps, CalendarObjectText, Fetch, RemoteCalendar } from '../caldav-connector.js';
import { CalDavFailure } from '../caldav-failure.js';
import { pickCalendars } from '../calendar-names.js';
import { boundedFetch, stopAfterTimeout } from './bounded-fetch.js';

export const CALDAV_TIMEOUT_MS = 5000;
export const CALDAV_MAX_BYTES = 5 * 1024 * 1024;
/** Calendars are added and renamed rarely; five minutes keeps the five discovery requests off nearly every read. */
export const CALDAV_DISCOVERY_TTL_MS = 5 * 60_000;

/**
 * Connects to CalDAV accounts through tsdav, which speaks the protocol
 * (RFC 4791, RFC 6764 discovery), sharing one discovery per account among
 * concurrent callers and reusing it for a while. A failure is not kept: the
 * next call tries again.
 */
export function calDavConnector(deps: CalDavDeps): CalDavConnector {
  const ttlMs = deps.discoveryTtlMs ?? CALDAV_DISCOVERY_TTL_MS;
  // Keyed by server, user and a digest of the password, so a changed password is a new account.
  // The set of accounts comes from the hosts' configuration, so it stays small.
  const cache = new Map<string, { account: Promise<CalDavAccount>; expiresAtMs: number }>();

  return {
    connect(calendar) {
      const password = deps.passwordOf(calendar);
      const key = [calendar.url, calendar.username, createHash('sha256').update(password).digest('hex')].join('\n');
      const cached = cache.get(key);
      if (cached && deps.clock.now() < cached.expiresAtMs) return pick(cached.account, calendar);
      const entry = { account: discover(calendar, password), expiresAtMs: Number.POSITIVE_INFINITY };
      cache.set(key, entry);
      entry.account.then(
        () => {
          entry.expiresAtMs = deps.clock.now() + ttlMs;
        },
        () => {
          if (cache.get(key) === entry) cache.delete(key);
        },
      );
      return pick(entry.account, calendar);
    },
  };

  async function discover(calendar: CalDavCalendar, password: string): Promise<CalDavAccount> {
    const fetch = boundedFetch({
      username: calendar.username,
      password,
      timeoutMs: deps.timeoutMs ?? CALDAV_TIMEOUT_MS,
      maxBytes: deps.maxBytes ?? CALDAV_MAX_BYTES,
      fetch: deps.fetch,
    });
    const shown = urlShown(calendar.url);
    const discovery = stopAfterTimeout(fetch);
    let found: DAVCalendar[];
    try {
      const account = await createAccount({ account: { serverUrl: calendar.url, accountType: 'caldav' }, fetch: discovery.fetch });
      found = await fetchCalendars({ account, fetch: discovery.fetch });
    } catch (error) {
      if (error instanceof CalDavFailure) throw error;
      // tsdav swallows a failed well-known probe and goes on to find no principal: the server did not answer.
      const unanswered = discovery.timedOut();
      if (unanswered) throw unanswered;
      // tsdav throws plain errors when an answer is not what discovery expects.
      throw new CalDavFailure(
        'not_caldav',
        `CalDAV server ${shown} did not answer as a CalDAV server (${(error as Error).message})`,
        undefined,
        {
          cause: error,
        },
      );
    }
    const calendars = found
      .filter((c) => c.components === undefined || c.components.includes('VEVENT'))
      .map((dav) => ({ url: dav.url, displayName: typeof dav.displayName === 'string' ? dav.displayName : '', dav }));
    return { calendars, busy: calendars, bookInto: null, fetch, ...objectCalls(fetch, shown) };
  }

  /** The account with the configuration's choice of busy calendars and booking calendar. */
  async function pick(discovered: Promise<CalDavAccount>, calendar: CalDavCalendar): Promise<CalDavAccount> {
    const account = await discovered;
    return { ...account, ...pickCalendars(account.calendars, calendar) };
  }
}

/** PUT, DELETE and GET of single calendar objects, and the query for a range, through tsdav where it has the call. */
function objectCalls(fetch: Fetch, shown: string): Pick<CalDavAccount, 'put' | 'remove' | 'get' | 'eventsWithin'> {
  const refused = (what: string, response: Response) =>
    response.status === 412
      ? new CalDavFailure(
          'changed_elsewhere',
          `CalDAV server ${shown}: ${what} refused, the event was changed in the calendar since it was written (HTTP 412)`,
          412,
        )
      : new CalDavFailure('http', `CalDAV server ${shown}: ${what} answered HTTP ${response.status}`, response.status);

  const get: CalDavAccount['get'] = async (href) => {
    const response = await fetch(href, { method: 'GET', headers: { accept: 'text/calendar' } });
    if (response.status === 404) return null;
    if (!response.ok) throw refused('reading an event', response);
    return { href, etag: response.headers.get('etag'), text: await response.text() };
  };

  return {
    async put(target, text) {
      const response =
        'absent' in target
          ? await createCalendarObject({ calendar: target.calendar.dav, filename: target.filename, iCalString: text, fetch })
          : await updateCalendarObject({ calendarObject: { url: target.href, etag: target.etag, data: text }, fetch });
      if (!response.ok) throw refused('writing an event', response);
      const href = 'absent' in target ? new URL(target.filename, target.calendar.url).href : target.href;
      const etag = response.headers.get('etag');
      // A server that changed what it stored sends no ETag (RFC 4791 §5.3.4): read it back for one.
      return { href, etag: etag ?? (await get(href))?.etag ?? null };
    },
    async remove(href, etag) {
      const response = await deleteCalendarObject({ calendarObject: { url: href, etag }, fetch });
      if (response.status === 404) return;
      if (!response.ok) throw refused('removing an event', response);
    },
    get,
    eventsWithin: (calendar, startMs, endMs, maxObjects) => eventsWithin(fetch, shown, calendar, { startMs, endMs }, maxObjects),
  };
}

/** RFC 4791 §9.9: time-range bounds are UTC date-times in the basic format. */
const utcStamp = (ms: number) => `${new Date(ms).toISOString().slice(0, 19).replace(/[-:]/g, '')}Z`;

/**
 * One calendar-query REPORT asking for the data itself, so the server sends
 * every matching object in one answer. tsdav's fetchCalendarObjects would ask
 * twice (the hrefs, then a multiget) and keeps only hrefs ending in `.ics`,
 * which objects other clients wrote need not.
 */
async function eventsWithin(
  fetch: Fetch,
  shown: string,
  calendar: RemoteCalendar,
  range: { startMs: number; endMs: number },
  maxObjects: number,
): Promise<CalendarObjectText[]> {
  const timeRange = { _attributes: { start: utcStamp(range.startMs), end: utcStamp(range.endMs) } };
  let responses: Awaited<ReturnType<typeof calendarQuery>>;
  try {
    responses = await calendarQuery({
      url: calendar.url,
      props: { 'd:getetag': {}, 'c:calendar-data': {} },
      filters: {
        'comp-filter': { _attributes: { name: 'VCALENDAR' }, 'comp-filter': { _attributes: { name: 'VEVENT' }, 'time-range': timeRange } },
      },
      depth: '1',
      fetch,
    });
  } catch (error) {
    if (error instanceof CalDavFailure) throw error;
    // tsdav throws a plain error for a status that is not success; its text quotes the server's answer, not ours.
    throw new CalDavFailure(
      'http',
      `CalDAV server ${shown}: reading calendar ${urlShown(calendar.url)} failed (${(error as Error).message})`,
      undefined,
      {
        cause: error,
      },
    );
  }
  if (responses.length > maxObjects)
    throw new CalDavFailure(
      'too_many',
      `CalDAV server ${shown}: calendar ${urlShown(calendar.url)} has more than ${maxObjects} events in the range read`,
    );
  return responses.flatMap((response) => {
    const data = response.props?.calendarData as unknown;
    // xml-js gives a text node as a string, a CDATA section as `{ _cdata }`.
    const text =
      typeof data === 'string'
        ? data
        : typeof (data as { _cdata?: unknown })?._cdata === 'string'
          ? (data as { _cdata: string })._cdata
          : undefined;
    return text === undefined ? [] : [{ href: new URL(response.href ?? '', calendar.url).href, text }];
  });
}
