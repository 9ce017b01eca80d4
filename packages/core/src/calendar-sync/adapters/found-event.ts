import ICAL from 'ical.js';

// What this service reads of an event it finds at a booking's name in a
// host's calendar (docs/calendars.md "When the calendar app changed the
// event"), with ical.js, the parser the feed reader uses: the text was written
// or rewritten by a calendar app, so it is read as iCalendar, not as the lines
// this service writes.

/** The object's first VEVENT, or undefined when the text is not one iCalendar object holding an event. */
function firstEvent(text: string): ICAL.Component | undefined {
  let data: unknown;
  // Stryker disable BlockStatement: without the catch's return `data` stays undefined, which the check below refuses too.
  try {
    data = ICAL.parse(text);
  } catch {
    return undefined;
  }
  // Stryker restore BlockStatement
  // Several objects come back as an array of them; a calendar object resource holds one (RFC 4791 §4.1).
  if (!Array.isArray(data) || typeof data[0] !== 'string') return undefined;
  return new ICAL.Component(data).getFirstSubcomponent('vevent') ?? undefined;
}

/**
 * The UID of the event in `text`, or undefined when it cannot be read (not
 * iCalendar, no event, no UID). Every component of a calendar object shares
 * one UID (RFC 4791 §4.1), so the first event's tells whose object it is.
 */
export function foundEventUid(text: string): string | undefined {
  const uid = firstEvent(text)?.getFirstPropertyValue('uid');
  return typeof uid === 'string' ? uid : undefined;
}

/**
 * `ours` with the alarms (VALARM) the host gave the event found in their
 * calendar. Alarms are the host's own, not part of the booking: a reminder
 * set in the calendar app outlives a reschedule. Everything else of `found`
 * is replaced. `ours` is returned as it is when there are none to keep.
 */
export function withFoundAlarms(found: string, ours: string): string {
  const alarms = firstEvent(found)?.getAllSubcomponents('valarm') ?? [];
  // Stryker disable next-line ConditionalExpression: ical.js writes ours back byte for byte (tested); this only spares the work.
  if (alarms.length === 0) return ours;
  const root = new ICAL.Component(ICAL.parse(ours) as unknown[]);
  // Stryker disable next-line StringLiteral: ours (booking-event.ts) holds one component, the VEVENT, which ical.js gives for any name.
  const event = root.getFirstSubcomponent('vevent');
  if (event === null) return ours;
  for (const alarm of alarms) event.addSubcomponent(new ICAL.Component(alarm.toJSON()));
  // ical.js folds lines at 75 octets and ends them with CRLF, as RFC 5545 §3.1 asks; the last needs one too.
  return `${root.toString()}\r\n`;
}
