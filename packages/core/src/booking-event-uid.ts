// The UID a booking's event has in every calendar it reaches: the invite in
// each mail about it and the event written to the host's CalDAV calendar.
// One rule in both directions, so a calendar read back can tell which of its
// events are this service's own bookings.

const SUFFIX = '@schedule';

/** The booking's event UID: the booking's own id, the same in every mail and calendar. */
export function bookingEventUid(bookingUid: string): string {
  return `${bookingUid}${SUFFIX}`;
}

/** The booking an event UID names, when it is one of ours; undefined for anyone else's event. */
export function bookingUidOfEvent(eventUid: string): string | undefined {
  return eventUid.endsWith(SUFFIX) && eventUid.length > SUFFIX.length ? eventUid.slice(0, -SUFFIX.length) : undefined;
}
