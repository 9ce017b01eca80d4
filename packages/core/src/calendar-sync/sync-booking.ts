import { selectBookings, toBooking } from '../bookings/booking-rows.js';
import type { CalDavConnector } from '../caldav/caldav-connector.js';
import { CalDavFailure } from '../caldav/caldav-failure.js';
import { type CalDavCalendar, type Calendar, receivesBookings } from '../event-types/calendar.js';
import { inviteUid } from '../notifications/invite-ics.js';
import type { Executor } from '../storage/store.js';
import { bookingEventText } from './booking-event.js';
import type { ClaimedSync } from './claim-syncs.js';

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
  /** True when the booking has nothing left to write: its event is where it belongs, or gone when it should be. */
  readonly done: boolean;
  readonly failure?: CalDavFailure | undefined;
  /** The host's calendars, for the status the booking has once done. */
  readonly hostCalendars: readonly Calendar[];
}

/** The CalDAV account a host's bookings are written to: the first that receives them. */
export function bookingAccount(calendars: readonly Calendar[]): CalDavCalendar | undefined {
  return calendars.find((c): c is CalDavCalendar => c.kind === 'caldav' && receivesBookings(c));
}

const sameAccount = (location: EventLocation, userId: string, account: CalDavCalendar) =>
  location.accountUserId === userId && location.accountUrl === account.url && location.accountUsername === account.username;

/**
 * Brings a booking's event in line with the booking as it is now: written
 * (created, or replaced if unchanged since written) in the host's booking
 * calendar while the booking is confirmed, removed when it is canceled, and
 * moved when the booking moved to another host or calendar. Every write is
 * conditional: If-None-Match for a new event, If-Match on the ETag for one
 * written before, so an event someone changed in the calendar is reported
 * (`changed_elsewhere`), never overwritten. A new event is named after the
 * booking, so a process that died between writing it and recording it
 * finds its own event on the retry instead of making a second.
 */
export async function syncBooking(db: Executor, connector: CalDavConnector, claimed: ClaimedSync): Promise<SyncAttempt> {
  const row = await selectBookings(db).where('bookings.uid', '=', claimed.booking_uid).executeTakeFirstOrThrow();
  const booking = toBooking(row, 'single');
  const host = await db
    .selectFrom('users')
    .select(['id', 'name', 'email', 'calendars_json'])
    .where('id', '=', row.host_user_id)
    .executeTakeFirstOrThrow();
  const hostCalendars = JSON.parse(host.calendars_json) as Calendar[];
  let location: EventLocation | null =
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
    return { location, done: failure === undefined, failure, hostCalendars };
  };

  try {
    const target = bookingAccount(hostCalendars);
    const account = target && (await connector.connect(target));
    const calendar = account?.bookInto ?? null;
    const wanted = booking.status === 'confirmed' && calendar !== null;
    const inPlace =
      location !== null &&
      target !== undefined &&
      calendar !== null &&
      sameAccount(location, host.id, target) &&
      location.href.startsWith(calendar.url);

    if (location !== null && !(wanted && inPlace)) {
      // Canceled, or moved to another host or calendar: the old event goes first.
      await removeEvent(db, connector, location);
      location = null;
    }
    if (!wanted || account === undefined || target === undefined || calendar === null) return attempt();

    const text = bookingEventText(booking, { name: host.name ?? '', email: host.email });
    const here = (href: string, etag: string | null): EventLocation => ({
      href,
      etag,
      accountUserId: host.id,
      accountUrl: target.url,
      accountUsername: target.username,
    });
    if (location !== null && location.etag !== null) {
      const stored = await account.put({ href: location.href, etag: location.etag }, text);
      location = here(stored.href, stored.etag);
      return attempt();
    }
    const filename = `${encodeURIComponent(booking.uid)}.ics`;
    try {
      const stored = await account.put({ calendar, filename, absent: true }, text);
      location = here(stored.href, stored.etag);
    } catch (error) {
      if (!(error instanceof CalDavFailure) || error.reason !== 'changed_elsewhere') throw error;
      // The object exists. If it is this booking's own event (written by an attempt that died
      // before recording it), take it over; anything else in its place is not ours to replace.
      const href = new URL(filename, calendar.url).href;
      const existing = await account.get(href);
      if (existing === null || existing.etag === null || !existing.text.includes(`UID:${inviteUid(booking.uid)}`)) throw error;
      const stored = await account.put({ href, etag: existing.etag }, text);
      location = here(stored.href, stored.etag);
    }
    return attempt();
  } catch (error) {
    return attempt(error);
  }
}

/** Removes an event from the account that holds it, found among its user's calendars; one whose account is gone is left. */
async function removeEvent(db: Executor, connector: CalDavConnector, location: EventLocation): Promise<void> {
  const user = await db.selectFrom('users').select('calendars_json').where('id', '=', location.accountUserId).executeTakeFirst();
  const calendars = user ? (JSON.parse(user.calendars_json) as Calendar[]) : [];
  const holder = calendars.find(
    (c): c is CalDavCalendar => c.kind === 'caldav' && c.url === location.accountUrl && c.username === location.accountUsername,
  );
  if (holder === undefined) return; // the account was removed: nothing can reach the event any more
  const account = await connector.connect(holder);
  // Without an ETag (the server gave none) the removal cannot be conditional; `*` matches whatever is there.
  await account.remove(location.href, location.etag ?? '*');
}
