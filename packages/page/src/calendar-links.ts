// "Add to calendar" links for the confirmation: each opens the calendar's
// own new-event form filled in (a link the visitor follows, not a request
// the page makes). Their parameters are the ones Google Calendar's
// `render?action=TEMPLATE` and Outlook's compose deep link read.

export interface CalendarEntry {
  readonly title: string;
  readonly start: string;
  readonly end: string;
  readonly details: string;
  readonly location: string;
}

/** 20261203T090000Z, as Google's `dates` writes an instant. */
const compact = (instant: string) =>
  new Date(instant)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

export function googleCalendarLink(entry: CalendarEntry): string {
  const query = new URLSearchParams({
    action: 'TEMPLATE',
    text: entry.title,
    dates: `${compact(entry.start)}/${compact(entry.end)}`,
    details: entry.details,
    location: entry.location,
  });
  return `https://calendar.google.com/calendar/render?${query}`;
}

export function outlookCalendarLink(entry: CalendarEntry): string {
  const query = new URLSearchParams({
    path: '/calendar/action/compose',
    rru: 'addevent',
    subject: entry.title,
    startdt: new Date(entry.start).toISOString(),
    enddt: new Date(entry.end).toISOString(),
    body: entry.details,
    location: entry.location,
  });
  return `https://outlook.live.com/calendar/0/deeplink/compose?${query}`;
}
