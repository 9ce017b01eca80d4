import type { CalDavAccount, CalDavConnector, RemoteCalendar, StoredObject } from '../../src/caldav/caldav-connector.js';
import { CalDavFailure } from '../../src/caldav/caldav-failure.js';
import type { Store } from '../../src/storage/store.js';

// A model CalDAV account kept in memory, for the calendar sync suites (the
// real servers, Radicale and Xandikos, are in test/caldav-sync.test.ts). It
// answers as RFC 4791 and RFC 7232 say: If-None-Match: * fails on an existing
// object, If-Match on a changed or missing one.

/** A model CalDAV calendar: objects by URL with an ETag that changes on every write, and a switch to fail like a server that is down. */
export interface ModelCalendar {
  readonly objects: Map<string, { text: string; etag: string }>;
  /** PUTs that created an object, by URL: a retry must never make a second one. */
  readonly creates: string[];
  /** Every call made, as `METHOD href`, in order. */
  readonly calls: string[];
  down: boolean;
  /** Set: every PUT and DELETE fails with it (a calendar that refuses writes); reads still work. */
  refuseWrites: CalDavFailure | undefined;
  /** True: the server gives no ETags, neither when writing nor when reading (RFC 4791 §5.3.4 lets it). */
  hideEtags: boolean;
  /** Runs before each read (GET) of `href`, so a test can change the object between a 412 and the read that follows. */
  beforeRead: (href: string) => Promise<void>;
  /** Runs before each write (PUT or DELETE) of `href`, so a test can hold a write, or change the object as a calendar app would. */
  beforeWrite: (href: string) => Promise<void>;
  connector: CalDavConnector;
  /** From now on bookings go to the account's calendar at this URL (as if the host picked another `book_into`); null: the server lists no calendar. */
  bookInto(calendarUrl: string | null): void;
  /** Changes the object at `href` as a calendar app would: new text, new ETag. */
  edit(href: string, change: (text: string) => string): void;
}

/**
 * A model account whose calendar at `calendarUrl` takes the bookings. It
 * connects only CalDAV accounts, and with `usernames` only those: a sync
 * that reached for another account fails loudly.
 */
export function modelCalendar(calendarUrl: string, options: { usernames?: readonly string[] } = {}): ModelCalendar {
  let n = 0;
  const model: ModelCalendar = {
    objects: new Map(),
    creates: [],
    calls: [],
    down: false,
    refuseWrites: undefined,
    hideEtags: false,
    beforeRead: async () => {},
    beforeWrite: async () => {},
    connector: {
      connect: async (calendar) => {
        if (calendar.kind !== 'caldav' || (options.usernames !== undefined && !options.usernames.includes(calendar.username))) {
          throw new Error(`the model holds no account ${calendar.username}`);
        }
        return account;
      },
    },
    bookInto(url) {
      remote = url === null ? null : remoteAt(url);
    },
    edit(href, change) {
      const object = model.objects.get(href);
      if (object === undefined) throw new Error(`no object at ${href} to edit`);
      model.objects.set(href, { text: change(object.text), etag: `"app${++n}"` });
    },
  };
  const remoteAt = (url: string): RemoteCalendar => ({ url, displayName: 'bookings', dav: { url } as RemoteCalendar['dav'] });
  let remote: RemoteCalendar | null = remoteAt(calendarUrl);
  const reachable = (call: string) => {
    model.calls.push(call);
    if (model.down) throw new CalDavFailure('unreachable', 'CalDAV server https://cal.test/ could not be reached (connect ECONNREFUSED)');
  };
  const changed = () => new CalDavFailure('changed_elsewhere', 'the event was changed in the calendar (HTTP 412)', 412);
  const writable = (call: string) => {
    reachable(call);
    if (model.refuseWrites !== undefined) throw model.refuseWrites;
  };
  const store = (href: string, text: string): StoredObject => {
    const etag = `"e${++n}"`;
    model.objects.set(href, { text, etag });
    return { href, etag: model.hideEtags ? null : etag };
  };
  const account: CalDavAccount = {
    get calendars() {
      return remote === null ? [] : [remote];
    },
    get busy() {
      return remote === null ? [] : [remote];
    },
    get bookInto() {
      return remote;
    },
    fetch: async () => {
      throw new Error('the model has no HTTP');
    },
    async put(target, text) {
      const href = 'absent' in target ? new URL(target.filename, target.calendar.url).href : target.href;
      writable(`PUT ${href}`);
      await model.beforeWrite(href);
      if ('absent' in target && target.absent) {
        if (model.objects.has(href)) throw changed();
        model.creates.push(href);
        return store(href, text);
      }
      const { etag } = target as { etag?: string };
      const object = model.objects.get(href);
      if (object === undefined || (etag !== '*' && object.etag !== etag)) throw changed();
      return store(href, text);
    },
    async remove(href, etag) {
      writable(`DELETE ${href}`);
      await model.beforeWrite(href);
      const object = model.objects.get(href);
      if (object === undefined) return;
      if (etag !== '*' && object.etag !== etag) throw changed();
      model.objects.delete(href);
    },
    async get(href) {
      reachable(`GET ${href}`);
      await model.beforeRead(href);
      const object = model.objects.get(href);
      return object ? { href, etag: model.hideEtags ? null : object.etag, text: object.text } : null;
    },
    async eventsWithin() {
      reachable('REPORT');
      return [...model.objects].map(([href, { text }]) => ({ href, text }));
    },
  };
  return model;
}

/** Forgets every booking and all its writes queued (calendar syncs, outbox events, mail, idempotency keys), between the sync suites' tests. */
export async function forgetBookings(store: Store): Promise<void> {
  for (const table of ['calendar_syncs', 'outbox', 'notifications', 'idempotency_keys', 'bookings'] as const) {
    await store.db.deleteFrom(table).execute();
  }
}
