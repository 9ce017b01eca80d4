import { type SlotList, slotsAsText } from './slot-text.js';
import { annotatedJson, inBothZones, readersOf, type Zones } from './time-text.js';

// The text beside a tool's structured result. A model reads this first, so a
// booking is a few lines with its times in the host's and the attendee's
// zones, a list is one short line per item (the ids and fields it needs to
// go on) and the cursor, free slots are one line per day; anything else is
// the structured result as compact JSON with every instant read in its zones
// (time-text.ts).

type Item = Record<string, any>;

/** A form's questions on one line: `questions: agenda* (long_text), room (select: north|south)`; `*` marks required. */
function questionsText(questions: Item[] | undefined): string {
  if (!questions || questions.length === 0) return '';
  const one = (q: Item) => `${q.id}${q.required ? '*' : ''} (${q.type}${q.options ? `: ${q.options.join('|')}` : ''})`;
  return ` questions: ${questions.map(one).join(', ')}`;
}

/** A booking's start, read by its host and its attendee. */
function startOf(b: Item, zones: Zones): string {
  const { host, attendee, attendeeName } = readersOf(b, zones);
  return inBothZones(b.start_at, host, attendee, { host: b.host?.username, attendee: attendeeName });
}

/** One booking: what it is, its start and end in both zones, where. */
export function bookingText(b: Item, zones: Zones): string {
  const { host, attendee, attendeeName } = readersOf(b, zones);
  const names = { host: b.host?.username, attendee: attendeeName };
  const hosts = (b.hosts as Item[] | undefined)?.map((h) => h.username).join(', ');
  const where = b.location?.url ?? b.location?.value;
  return [
    `Booking ${b.uid} (${b.status}, version ${b.version}): "${b.title}", hosts ${hosts}, attendee ${attendeeName}.`,
    `Starts ${inBothZones(b.start_at, host, attendee, names)}.`,
    `Ends ${inBothZones(b.end_at, host, attendee, names)}.`,
    ...(where ? [`Where: ${where}`] : []),
  ].join('\n');
}

const LINES: Record<string, (item: Item, zones: Zones) => string> = {
  list_bookings: (b, zones) => `${b.uid} ${b.status} "${b.title}" v${b.version} starts ${startOf(b, zones)}`,
  list_series: (s) =>
    `${s.uid} ${s.status} ${s.frequency}${s.frequency === 'weekly' ? ` ${s.weekdays.join(',')}/${s.interval_weeks}w` : ''} ${s.time} ${s.timezone} x${s.count} host=${s.host?.username} v${s.version}`,
  list_webhooks: (w) =>
    `${w.id} ${w.status}${w.paused_reason ? `(${w.paused_reason})` : ''} ${w.url} events=${w.events?.join(',')} failures=${w.consecutive_failures} v${w.version}`,
  list_webhook_deliveries: (d, zones) =>
    `${d.id} ${inBothZones(d.created_at, zones.caller, undefined)} ${d.event_type} ${d.status} attempts=${d.attempts} last=${d.last_status_code ?? d.last_error ?? '-'}`,
  list_calendars: (c) =>
    `${c.id} ${c.source} ${c.url} user=${c.username} busy=${c.busy_calendars?.join(',') ?? 'all'} book_into=${c.receives_bookings ? (c.book_into ?? 'first') : 'none'}`,
  list_people: (p) => `${p.user_id} ${p.username} "${p.name}" ${p.email} ${p.timezone} ${p.role}`,
  list_event_types: (e) =>
    `${e.id} ${e.owner?.username}/${e.slug} "${e.name}" ${e.duration_minutes}min recurring=${e.recurring} status=${e.status}${questionsText(e.questions)}`,
};

/** find_times: one line per option, in both zones, and whether they are held. */
function optionsText(found: Item): string {
  const options = found.options as Item[];
  const what = `${found.event_type.name} (${found.event_type.duration_minutes} min) with ${found.host.username}`;
  if (options.length === 0) {
    return `No free time for ${what} from ${found.from} to ${found.to} (${found.part_of_day}, ${found.attendee_timezone}). Try other days or part_of_day.`;
  }
  const held = found.not_held_reason === null ? `Each is held until ${options[0]?.held_until}.` : `Not held (${found.not_held_reason}).`;
  return [
    `${options.length} option(s) for ${what}. ${held} Book one with book_time and its option_id.`,
    ...options.map((o) => `${o.option_id}: ${o.attendee_time} for the attendee = ${o.host_time} for ${found.host.username} (${o.start})`),
  ].join('\n');
}

/** book_time: the booking in both zones, and any warning to pass on. */
function bookedText(booked: Item): string {
  return [
    `Booked ${booked.uid} (${booked.status}, version ${booked.version}): "${booked.title}" with ${booked.hosts.join(', ')}.`,
    `Starts ${booked.start_at} = ${booked.attendee_time} for the attendee = ${booked.host_time} for the host.`,
    ...(booked.location_url ? [`Where: ${booked.location_url}`] : []),
    ...(booked.warnings as Item[]).map((w) => `Warning (${w.code}): ${w.message}`),
  ].join('\n');
}

/** Tools whose whole answer has its own text. */
const TEXTS: Record<string, (structured: Item, zones: Zones) => string> = {
  list_slots: (list) => slotsAsText(list as SlotList),
  find_times: (found) => optionsText(found),
  book_time: bookedText,
};

/** The hosts whose zones an answer's text needs: its bookings'. */
export function hostIdsOf(structured: Item): string[] {
  const bookings: Item[] = Array.isArray(structured.data) ? structured.data : [structured];
  return bookings.flatMap((b) => (typeof b?.host?.user_id === 'string' && typeof b.start_at === 'string' ? [b.host.user_id] : []));
}

export function summarize(tool: string, structured: Item, zones: Zones): string {
  const text = TEXTS[tool];
  if (text) return text(structured, zones);
  if (typeof structured.uid === 'string' && typeof structured.start_at === 'string' && structured.attendees) {
    return bookingText(structured, zones);
  }
  const line = LINES[tool];
  if (!line || !Array.isArray(structured.data)) return annotatedJson(structured, zones);
  const items = structured.data as Item[];
  const more = structured.has_more ? `more: pass cursor=${structured.next_cursor}` : 'no more pages';
  return [`${items.length} item(s); ${more}`, ...items.map((item) => line(item, zones))].join('\n');
}
