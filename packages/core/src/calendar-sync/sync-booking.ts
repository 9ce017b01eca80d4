import { selectBookings, toBooking } from '../bookings/booking-rows.js';
import type { CalDavAccount, CalDavConnector, RemoteCalendar, StoredObject } from '../caldav/caldav-connector.js';
import { CalDavFailure } from '../caldav/caldav-failure.js';
import { type CalDavCalendar, type Calendar, receivesBookings } from '../event-types/calendar.js';
import { inviteUid } from '../notifications/invite-ics.js';
import type { Executor } from '../storage/store.js';
import { urlShown } from '../url-shown.js';
import { bookingEventText } from './booking-event.js';
import type { ClaimedSync } from './claim-syncs.js';
import { foundEventReader } from './found-event-lazy.js';

/** Where a booking's event is: the object, and the account whose calendar holds it. */
export interface EventLocation {
  readonly href: string;
  readonly etag: string | null;
  readonly accountUserId: string;
  readonly accountUrl: string;
  readonly accountUsername: string;
}

/** What one attempt did: where the event is now (null: nowhere), and the failure that stopped it, if any. */
export interface SyncAttempt {
  readonly location: EventLocation | null;
  readonly failure?: CalDavFailure | undefined;
  /** The host's calendars, for the status the booking has once done. */
  readonly hostCalendars: readonly Calendar[];
}

/** The CalDAV account a host's bookings are written to: the first that receives them. */
export function bookingAccount(calendars: readonly Calendar[]): CalDavCalendar | undefined {
  return calendars.find((c): c is CalDavCalendar => c.kind === 'caldav' && receivesBookings(c));
}

const sameAccount = (location: EventLocation, userId: string, account: CalDavCalendar) =>
  // Stryker disable next-line ConditionalExpression: two hosts sharing one account end the same either way (the event is rewritten or moved in place, recorded under the new host).
  location.accountUserId === userId && location.accountUrl === account.url && location.accountUsername === account.username;

/**
 * How many times one attempt writes or removes an event that a calendar app
 * keeps changing under it (HTTP 412 each time) before it gives up; the
 * attempt is then retried on the schedule, like an outage. A write is then at
 * most 6 requests (a read, and a read before each write after the first), a
 * removal 5: with discovery (about 4), within the claim's 60 s lease even at
 * 5 s each (docs/calendars.md "When the calendar app changed the event").
 */
export const WRITE_TRIES = 3;

/**
 * Brings a booking's event in line with the booking as it is now: written in
 * the host's booking calendar while the booking is confirmed, removed when it
 * is canceled, and moved when the booking moved to another host or calendar.
 * The booking is the truth: an event the host changed in their calendar app
 * is written over (its alarms kept), one they deleted is written again, and
 * a removal removes ours whatever became of it. Every write is still
 * conditional (If-None-Match for a new event, If-Match on the ETag just read),
 * so a change made between reading and writing is read again, never lost
 * unseen, and an object of someone else's at the event's name (another UID) is
 * never replaced or removed. A new event is named after the booking, so a
 * process that died between writing it and recording it finds its own event
 * on the retry instead of making a second.
 */
export async function syncBooking(db: Executor, connector: CalDavConnector, claimed: ClaimedSync): Promise<SyncAttempt> {
  const row = await selectBookings(db).where('bookings.uid', '=', claimed.booking_uid).executeTakeFirstOrThrow();
  // Stryker disable next-line StringLiteral: toBooking tells only 'list' apart (no answers); any other value is the full view.
  const booking = toBooking(row, 'single');
  const host = await db
    .selectFrom('users')
    .select(['id', 'name', 'email', 'calendars_json'])
    .where('id', '=', row.host_user_id)
    .executeTakeFirstOrThrow();
  const hostCalendars = JSON.parse(host.calendars_json) as Calendar[];
  let location: EventLocation | null =
    // Stryker disable next-line ConditionalExpression,LogicalOperator: the four are written together (record-sync-outcome.ts): all null or none.
    claimed.href === null || claimed.account_user_id === null || claimed.account_url === null || claimed.account_username === null
      ? null
      : {
          href: claimed.href,
          etag: claimed.etag,
          accountUserId: claimed.account_user_id,
          accountUrl: claimed.account_url,
          accountUsername: claimed.account_username,
        };
  const attempt = (failure?: unknown): SyncAttempt => {
    if (failure !== undefined && !(failure instanceof CalDavFailure)) throw failure;
    return { location, failure, hostCalendars };
  };

  try {
    const uid = inviteUid(booking.uid);
    const target = bookingAccount(hostCalendars);
    const account = target && (await connector.connect(target));
    const calendar = account?.bookInto ?? null;
    // Stryker disable next-line ConditionalExpression: with no booking calendar, `inPlace` is false and the guard below returns: the same end.
    const wanted = booking.status === 'confirmed' && calendar !== null;
    const inPlace =
      location !== null &&
      // Stryker disable next-line ConditionalExpression: no target means no calendar, the next test; both narrow the types.
      target !== undefined &&
      calendar !== null &&
      sameAccount(location, host.id, target) &&
      location.href.startsWith(calendar.url);

    if (location !== null && !(wanted && inPlace)) {
      // Canceled, or moved to another host or calendar: the old event goes first.
      await removeEvent(db, connector, location, uid);
      location = null;
    }
    // Stryker disable next-line ConditionalExpression: `wanted` implies the other three; they narrow the types for the compiler.
    if (!wanted || account === undefined || target === undefined || calendar === null) return attempt();

    const text = bookingEventText(booking, { name: host.name, email: host.email });
    const filename = `${encodeURIComponent(booking.uid)}.ics`;
    const href = location?.href ?? new URL(filename, calendar.url).href;
    // A change reads the event first, for the alarms the host may have added since; a new one is written blind.
    const stored = await writeEvent(account, { calendar, filename, href }, uid, text, location !== null);
    location = { href: stored.href, etag: stored.etag, accountUserId: host.id, accountUrl: target.url, accountUsername: target.username };
    return attempt();
  } catch (error) {
    return attempt(error);
  }
}

/** The failure of a write that met a 412: the object at the name changed since it was read. */
const isChangedElsewhere = (error: unknown): error is CalDavFailure =>
  error instanceof CalDavFailure && error.reason === 'changed_elsewhere';

/** The failure for an object at the event's name that is not the booking's event, or cannot be read to tell. */
function foreignObject(href: string, uid: string | undefined): CalDavFailure {
  const what = uid === undefined ? 'an object that cannot be read as an event' : "another event (not this booking's)";
  return new CalDavFailure('foreign_object', `the calendar holds ${what} at ${urlShown(href)}; it is left as it is`);
}

/**
 * Writes `text` as the booking's event at `href`: over whatever version of
 * its own event is there (read first when `readFirst`, and again after every
 * 412), or as a new object when none is. Up to WRITE_TRIES writes; then the
 * last 412 is the attempt's failure.
 */
async function writeEvent(
  account: CalDavAccount,
  where: { readonly calendar: RemoteCalendar; readonly filename: string; readonly href: string },
  uid: string,
  text: string,
  readFirst: boolean,
): Promise<StoredObject> {
  let found = readFirst ? await account.get(where.href) : null;
  let failure: CalDavFailure | undefined;
  for (let tries = 0; tries < WRITE_TRIES; tries++) {
    if (tries > 0) found = await account.get(where.href);
    let body = text;
    if (found !== null) {
      const events = await foundEventReader();
      const foundUid = events.foundEventUid(found.text);
      if (foundUid !== uid) throw foreignObject(where.href, foundUid);
      body = events.withFoundAlarms(found.text, text);
    }
    try {
      return await account.put(
        // Without an ETag (the server gave none) the write cannot name a version; `*` matches whatever is there.
        found === null
          ? { calendar: where.calendar, filename: where.filename, absent: true }
          : { href: where.href, etag: found.etag ?? '*' },
        body,
      );
    } catch (error) {
      if (!isChangedElsewhere(error)) throw error;
      failure = error;
    }
  }
  throw failure;
}

/**
 * Removes a booking's event from the account that holds it, found among its
 * user's calendars; one whose account is gone is left. A 412 (changed in the
 * calendar since) reads it again: gone is done, its own event is removed at
 * its new ETag (up to WRITE_TRIES removals), another event is left, ours
 * being gone, and an object that cannot be read is left and reported.
 */
async function removeEvent(db: Executor, connector: CalDavConnector, location: EventLocation, uid: string): Promise<void> {
  const user = await db.selectFrom('users').select('calendars_json').where('id', '=', location.accountUserId).executeTakeFirst();
  // Stryker disable next-line ArrayDeclaration: a user that is gone and one without the account both leave the event.
  const calendars = user ? (JSON.parse(user.calendars_json) as Calendar[]) : [];
  const holder = calendars.find(
    // Stryker disable next-line ConditionalExpression: a calendar of another kind has no url to match.
    (c): c is CalDavCalendar => c.kind === 'caldav' && c.url === location.accountUrl && c.username === location.accountUsername,
  );
  if (holder === undefined) return; // the account was removed: nothing can reach the event any more
  const account = await connector.connect(holder);
  // Without an ETag (the server gave none) the removal cannot be conditional; `*` matches whatever is there.
  let etag = location.etag ?? '*';
  let failure: CalDavFailure | undefined;
  for (let tries = 0; tries < WRITE_TRIES; tries++) {
    if (tries > 0) {
      const found = await account.get(location.href);
      if (found === null) return;
      const foundUid = (await foundEventReader()).foundEventUid(found.text);
      // Another event at the name: ours is gone already. One that cannot be read might be ours: reported, not destroyed.
      if (foundUid === undefined) throw foreignObject(location.href, foundUid);
      if (foundUid !== uid) return;
      etag = found.etag ?? '*';
    }
    try {
      await account.remove(location.href, etag);
      return;
    } catch (error) {
      if (!isChangedElsewhere(error)) throw error;
      failure = error;
    }
  }
  throw failure;
}
