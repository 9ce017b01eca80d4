import { type SlotList, slotsAsText } from './slot-text.js';

// The text beside a tool's structured result. A model reads this first, so a
// list is one short line per item (the ids and fields it needs to go on) and
// the cursor, free slots are one line per day; anything else is the
// structured result as compact JSON.

type Item = Record<string, any>;

/** A form's questions on one line: `questions: agenda* (long_text), room (select: north|south)`; `*` marks required. */
function questionsText(questions: Item[] | undefined): string {
  if (!questions || questions.length === 0) return '';
  const one = (q: Item) => `${q.id}${q.required ? '*' : ''} (${q.type}${q.options ? `: ${q.options.join('|')}` : ''})`;
  return ` questions: ${questions.map(one).join(', ')}`;
}

const LINES: Record<string, (item: Item) => string> = {
  list_bookings: (b) => `${b.uid} ${b.start_at} ${b.status} "${b.title}" host=${b.host?.username} v${b.version}`,
  list_series: (s) =>
    `${s.uid} ${s.status} ${s.frequency}${s.frequency === 'weekly' ? ` ${s.weekdays.join(',')}/${s.interval_weeks}w` : ''} ${s.time} ${s.timezone} x${s.count} host=${s.host?.username} v${s.version}`,
  list_webhooks: (w) =>
    `${w.id} ${w.status}${w.paused_reason ? `(${w.paused_reason})` : ''} ${w.url} events=${w.events?.join(',')} failures=${w.consecutive_failures} v${w.version}`,
  list_webhook_deliveries: (d) =>
    `${d.id} ${d.created_at} ${d.event_type} ${d.status} attempts=${d.attempts} last=${d.last_status_code ?? d.last_error ?? '-'}`,
  list_calendars: (c) =>
    `${c.id} ${c.source} ${c.url} user=${c.username} busy=${c.busy_calendars?.join(',') ?? 'all'} book_into=${c.receives_bookings ? (c.book_into ?? 'first') : 'none'}`,
  list_people: (p) => `${p.user_id} ${p.username} "${p.name}" ${p.email} ${p.timezone} ${p.role}`,
  list_event_types: (e) =>
    `${e.id} ${e.owner?.username}/${e.slug} "${e.name}" ${e.duration_minutes}min recurring=${e.recurring} status=${e.status}${questionsText(e.questions)}`,
};

/** Tools whose whole answer has its own text. */
const TEXTS: Record<string, (structured: Item) => string> = {
  list_slots: (list) => slotsAsText(list as SlotList),
};

export function summarize(tool: string, structured: Item): string {
  const text = TEXTS[tool];
  if (text) return text(structured);
  const line = LINES[tool];
  if (!line || !Array.isArray(structured.data)) return JSON.stringify(structured);
  const items = structured.data as Item[];
  const more = structured.has_more ? `more: pass cursor=${structured.next_cursor}` : 'no more pages';
  return [`${items.length} item(s); ${more}`, ...items.map(line)].join('\n');
}
