import { TIMESTAMP } from './booking-view.js';
import { BLOCKERS, MCP_USERS, TWIN_EVENT_TYPES, type Twin } from './mcp-workspace.js';
import type { SeriesTables } from './series-workspace.js';

// The same change made on one twin over HTTP and on the other over MCP must
// store the same thing. What may differ is named and replaced here: the
// twin's own ids and names, fresh uids (numbered in order of first sight, so
// references between rows are still compared), the times of the writes, and
// `source`, which is collected for the test to check on its own.

const UUID_G = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** Keys holding the instant a write happened: they differ between two runs, and only their presence is compared. */
const WRITE_TIME_KEYS = new Set([
  'created_at',
  'archived_at',
  'updated_at',
  'cancelled_at',
  'ended_at',
  'next_attempt_at',
  'sent_at',
  'dispatched_at',
  'hold_until',
]);

/** One side of the comparison: normalizes every value it is given, with uid numbering shared across calls. */
export interface Normalizer {
  normalize(value: unknown): unknown;
  /** Every `source` value seen, in order. */
  readonly sources: unknown[];
}

export function normalizerFor(twin: Twin): Normalizer {
  const labels = new Map<string, string>([
    [MCP_USERS[twin], '<host id>'],
    [TWIN_EVENT_TYPES[twin].id, '<event type id>'],
    [BLOCKERS[twin], '<blocker>'],
  ]);
  const fixed = labels.size;
  const words: [string, string][] = [
    [`${twin}@mcp.test`, '<host email>'],
    [TWIN_EVENT_TYPES[twin].slug, '<event type slug>'],
    // A booking_url names its owner: `/@alder/…` over HTTP is `/@birch/…` over MCP.
    [`/@${twin}/`, '/@<host username>/'],
  ];
  const sources: unknown[] = [];

  const label = (uid: string) => {
    if (!labels.has(uid)) labels.set(uid, `<uid ${labels.size - fixed + 1}>`);
    return labels.get(uid)!;
  };
  const text = (s: string): unknown => {
    // JSON stored in a text column is compared as the value it holds.
    if (/^[[{]/.test(s)) {
      try {
        return walk(JSON.parse(s));
      } catch {
        // Not JSON after all: compared as text.
      }
    }
    if (s === twin) return '<host username>';
    let out = s.replace(UUID_G, label);
    for (const [from, to] of words) out = out.split(from).join(to);
    return out;
  };
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return text(value);
    if (Array.isArray(value)) return value.map(walk);
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, v]) => {
        if (key === 'source') {
          sources.push(v);
          return [key, '<source>'];
        }
        if (WRITE_TIME_KEYS.has(key) && typeof v === 'string' && TIMESTAMP.test(v)) return [key, '<written>'];
        return [key, walk(v)];
      }),
    );
  };
  return { normalize: walk, sources };
}

/** Everything stored about one series: its row, its bookings, owed entries, notifications and outbox events. */
export async function storedSeries(tables: SeriesTables, uid: string): Promise<Record<string, unknown>> {
  const series = await tables.rows('select * from series where uid = $1', [uid]);
  // A held occurrence and its replacement share a start: the status tells them apart, a random uid would not order them alike.
  const bookings = await tables.rows<{ uid: string }>('select * from bookings where series_uid = $1 order by start_at, status', [uid]);
  const owed = await tables.rows('select * from series_owed where series_uid = $1 order by pattern_instant', [uid]);
  const notifications = await tables.rows('select * from notifications where series_uid = $1 order by created_at, kind', [uid]);
  const subjects = [uid, ...bookings.map((b) => b.uid)];
  return { series, bookings, owed, notifications, events: await eventsOf(tables, subjects) };
}

/** Everything stored about one booking: its row and its outbox events. */
export async function storedBooking(tables: SeriesTables, uid: string): Promise<Record<string, unknown>> {
  return { booking: await tables.rows('select * from bookings where uid = $1', [uid]), events: await eventsOf(tables, [uid]) };
}

/** The outbox events of these subjects, in an order that does not depend on their random ids. */
async function eventsOf(tables: SeriesTables, subjects: readonly string[]): Promise<Record<string, unknown>[]> {
  const rows = await tables.rows<{ subject_uid: string; created_at: string; event_type: string }>(
    `select * from outbox where subject_uid in (${subjects.map((_, i) => `$${i + 1}`).join(', ')})`,
    subjects,
  );
  const position = (row: { subject_uid: string }) => subjects.indexOf(row.subject_uid);
  return rows.sort(
    (a, b) => a.created_at.localeCompare(b.created_at) || a.event_type.localeCompare(b.event_type) || position(a) - position(b),
  );
}
