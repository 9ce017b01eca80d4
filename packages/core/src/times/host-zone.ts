import type { Executor } from '../storage/store.js';

/** The zone a user's working hours are read in (their schedule's, else their own): how a host reads a meeting's time. */
export function hoursZone(timezone: string, schedule: { readonly timezone?: string | undefined } | null): string {
  return schedule?.timezone ?? timezone;
}

function zoneOf(row: { timezone: string; schedule_json: string | null }): string {
  // Stryker disable next-line ConditionalExpression: JSON.parse(null) is null too; the test says what null means.
  return hoursZone(row.timezone, row.schedule_json === null ? null : (JSON.parse(row.schedule_json) as { timezone?: string }));
}

/** Each user's zone by id, for the ids given (at most a page's hosts); an unknown id is left out. */
export async function hostZones(db: Executor, userIds: readonly string[]): Promise<Map<string, string>> {
  // `in ()` is no SQL to PostgreSQL: an answer without bookings reads nothing.
  // Stryker disable next-line ConditionalExpression: PostgreSQL only; SQLite takes an empty `in ()` and finds no row.
  if (userIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('users')
    .select(['id', 'timezone', 'schedule_json'])
    .where('id', 'in', [...new Set(userIds)])
    .execute();
  return new Map(rows.map((row) => [row.id, zoneOf(row)]));
}

/** One user's zone; UTC for an unknown id. */
export async function hostZone(db: Executor, userId: string): Promise<string> {
  return (await hostZones(db, [userId])).get(userId) ?? 'UTC';
}
