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
  /** Runs before each write (PUT or DELETE) of `href`, so a test can hold a write, or change the object as a calendar app would. */
  beforeWrite: (href: string) => Promise<void>;
  connector: CalDavConnector;
  /** Changes the object at `href` as a calendar app would: new text, new ETag. */
  edit(href: string, change: (text: string) => string): void;
}

/** A model account whose one calendar, at `calendarUrl`, takes the bookings. */
export function modelCalendar(calendarUrl: string): ModelCalendar {
  let n = 0;
  const model: ModelCalendar = {
    objects: new Map(),
    creates: [],
    calls: [],
    down: false,
    beforeWrite: async () => {},
    connector: { connect: async () => account },
    edit(href, change) {
      const object = model.objects.get(href);
      if (object === undefined) throw new Error(`no object at ${href} to edit`);
      model.objects.set(href, { text: change(object.text), etag: `"app${++n}"` });
    },
  };
  const remote: RemoteCalendar = { url: calendarUrl, displayName: 'bookings', dav: { url: calendarUrl } as RemoteCalendar['dav'] };
  const reachable = (call: string) => {
    model.calls.push(call);
    if (model.down) throw new CalDavFailure('unreachable', 'CalDAV server https://cal.test/ could not be reached (connect ECONNREFUSED)');
  };
  const changed = () => new CalDavFailure('changed_elsewhere', 'the event was changed in the calendar (HTTP 412)', 412);
  const store = (href: string, text: string): StoredObject => {
    const etag = `"e${++n}"`;
    model.objects.set(href, { text, etag });
    return { href, etag };
  };
  const account: CalDavAccount = {
    calendars: [remote],
    busy: [remote],
    bookInto: remote,
    fetch: async () => {
      throw new Error('the model has no HTTP');
    },
    async put(target, text) {
      const href = 'absent' in target ? new URL(target.filename, target.calendar.url).href : target.href;
      reachable(`PUT ${href}`);
      await model.beforeWrite(href);
      if ('absent' in target) {
        if (model.objects.has(href)) throw changed();
        model.creates.push(href);
        return store(href, text);
      }
      const object = model.objects.get(href);
      if (object === undefined || (target.etag !== '*' && object.etag !== target.etag)) throw changed();
      return store(target.href, text);
    },
    async remove(href, etag) {
      reachable(`DELETE ${href}`);
      await model.beforeWrite(href);
      const object = model.objects.get(href);
      if (object === undefined) return;
      if (etag !== '*' && object.etag !== etag) throw changed();
      model.objects.delete(href);
    },
    async get(href) {
      reachable(`GET ${href}`);
      const object = model.objects.get(href);
      return object ? { href, etag: object.etag, text: object.text } : null;
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
