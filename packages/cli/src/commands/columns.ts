import { type Column, statusTone } from '../output/render.js';

// The columns each kind of item is listed with, one place for every command.

export const BOOKING_COLUMNS: readonly Column[] = [
  { title: 'UID', value: (b) => b.uid },
  { title: 'START', value: (b) => b.start_at },
  { title: 'END', value: (b) => b.end_at },
  { title: 'STATUS', value: (b) => b.status, tone: statusTone },
  { title: 'HOST', value: (b) => b.host?.username },
  { title: 'TITLE', value: (b) => b.title },
];

export function patternText(s: { frequency: string; weekdays: string[]; interval_weeks: number }): string {
  if (s.frequency !== 'weekly') return 'monthly';
  return `${s.interval_weeks === 1 ? 'weekly' : `every ${s.interval_weeks} weeks`} ${s.weekdays.join(',')}`;
}

export const SERIES_COLUMNS: readonly Column[] = [
  { title: 'UID', value: (s) => s.uid },
  { title: 'STATUS', value: (s) => s.status, tone: statusTone },
  { title: 'PATTERN', value: (s) => patternText(s) },
  { title: 'TIME', value: (s) => `${s.time} ${s.timezone}` },
  { title: 'FROM', value: (s) => s.starts_on },
  { title: 'COUNT', value: (s) => s.count },
  { title: 'HOST', value: (s) => s.host?.username },
  { title: 'ATTENDEE', value: (s) => s.attendee?.email },
];

export const SLOT_COLUMNS: readonly Column[] = [
  { title: 'START', value: (s) => s.start },
  { title: 'END', value: (s) => s.end },
];

export const EVENT_TYPE_COLUMNS: readonly Column[] = [
  { title: 'ID', value: (e) => e.id },
  { title: 'OWNER/SLUG', value: (e) => `${e.owner?.username}/${e.slug}` },
  { title: 'NAME', value: (e) => e.name },
  { title: 'MINUTES', value: (e) => e.duration_minutes },
  { title: 'RECURRING', value: (e) => e.recurring },
  { title: 'STATUS', value: (e) => e.status, tone: (t) => (t === 'on' ? 'good' : 'bad') },
  // The booking form, by question id; `*` marks a required one (`--json` has labels, types and options).
  {
    title: 'QUESTIONS',
    value: (e) =>
      ((e.questions ?? []) as { id: string; required: boolean }[]).map((q) => `${q.id}${q.required ? '*' : ''}`).join(',') || '-',
  },
];

export const PERSON_COLUMNS: readonly Column[] = [
  { title: 'USER_ID', value: (p) => p.user_id },
  { title: 'USERNAME', value: (p) => p.username },
  { title: 'NAME', value: (p) => p.name },
  { title: 'ROLE', value: (p) => p.role },
  { title: 'TIMEZONE', value: (p) => p.timezone },
];

export const TOKEN_COLUMNS: readonly Column[] = [
  { title: 'ID', value: (t) => t.id },
  { title: 'NAME', value: (t) => t.name },
  { title: 'USER', value: (t) => t.user?.username },
  { title: 'SCOPES', value: (t) => t.scopes },
  {
    title: 'STATE',
    value: (t) => (t.revoked_at ? 'revoked' : t.expires_at && t.expires_at <= new Date().toISOString() ? 'expired' : 'active'),
    tone: statusTone,
  },
  { title: 'CREATED', value: (t) => t.created_at },
];

export const OAUTH_CLIENT_COLUMNS: readonly Column[] = [
  { title: 'CLIENT_ID', value: (c) => c.client_id },
  { title: 'NAME', value: (c) => c.client_name },
  { title: 'KIND', value: (c) => c.kind },
  { title: 'REGISTERED', value: (c) => c.registered },
  // Each person once, however many grants they gave; none shows as nothing (`-` on a terminal).
  {
    title: 'AUTHORIZED BY',
    value: (c) => {
      const names = [...new Set((c.grants as { user: { username: string } }[]).map((g) => g.user.username))];
      return names.length === 0 ? null : names;
    },
  },
];

export const WEBHOOK_COLUMNS: readonly Column[] = [
  { title: 'ID', value: (w) => w.id },
  {
    title: 'STATUS',
    value: (w) => (w.paused_reason ? `${w.status} (${w.paused_reason})` : w.status),
    tone: (t) => statusTone(t.split(' ')[0]!),
  },
  { title: 'URL', value: (w) => w.url },
  { title: 'EVENTS', value: (w) => w.events },
  { title: 'FAILURES', value: (w) => w.consecutive_failures },
  { title: 'DESCRIPTION', value: (w) => w.description },
];

export const DELIVERY_COLUMNS: readonly Column[] = [
  { title: 'ID', value: (d) => d.id },
  { title: 'CREATED', value: (d) => d.created_at },
  { title: 'EVENT', value: (d) => d.event_type },
  { title: 'STATUS', value: (d) => d.status, tone: statusTone },
  { title: 'ATTEMPTS', value: (d) => d.attempts },
  // What the last attempt got: its HTTP status, else why none came.
  { title: 'LAST', value: (d) => d.last_status_code ?? d.last_error },
];

export const CALENDAR_COLUMNS: readonly Column[] = [
  { title: 'ID', value: (c) => c.id },
  { title: 'SOURCE', value: (c) => c.source },
  { title: 'URL', value: (c) => c.url },
  { title: 'USERNAME', value: (c) => c.username },
  { title: 'BUSY', value: (c) => c.busy_calendars ?? 'all' },
  { title: 'BOOK INTO', value: (c) => (c.receives_bookings ? (c.book_into ?? 'first') : 'none') },
];

export const TIME_OFF_COLUMNS: readonly Column[] = [
  { title: 'ID', value: (t) => t.id },
  { title: 'START', value: (t) => t.start_at },
  { title: 'END', value: (t) => t.end_at },
  { title: 'REASON', value: (t) => t.reason },
];
