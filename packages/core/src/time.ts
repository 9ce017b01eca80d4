import { DateTime } from 'luxon';

/**
 * Instants are stored and shown as ISO 8601 UTC with milliseconds
 * (`2026-01-05T09:00:00.000Z`, api.md "Timestamps"). The fixed width keeps
 * text order equal to time order, which the storage relies on for ranges and
 * keyset cursors on both SQLite and PostgreSQL.
 */
export function toTimestamp(epochMs: number): string {
  return new Date(epochMs).toISOString();
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Parses an ISO 8601 instant or date. A date alone is its UTC midnight; a
 * date-time without an offset is read as UTC. Undefined when not ISO 8601.
 */
export function parseInstant(text: string): { epochMs: number; dateOnly: boolean } | undefined {
  const parsed = DateTime.fromISO(text, { zone: 'utc' });
  if (!parsed.isValid) return undefined;
  return { epochMs: parsed.toMillis(), dateOnly: DATE_ONLY.test(text) };
}

/** True when `zone` is an IANA time zone name this runtime knows. */
export function isTimeZone(zone: string): boolean {
  return zone.length > 0 && DateTime.local().setZone(zone).isValid;
}

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;
