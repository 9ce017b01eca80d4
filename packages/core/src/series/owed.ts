import type { Clock } from '../clock.js';
import type { IdGenerator } from '../ids.js';
import type { Executor } from '../storage/store.js';
import { toTimestamp } from '../time.js';

/** An occurrence the series owes: held by a pause or a pattern change, not yet replaced. */
export interface OwedEntry {
  readonly id: string;
  /** The pattern instant of the held occurrence. */
  readonly patternInstantMs: number;
  readonly heldBookingUid: string;
}

/** The series' owed entries in owed order: the order their occurrences would have come in. */
export async function listOwed(db: Executor, seriesUid: string): Promise<OwedEntry[]> {
  const rows = await db
    .selectFrom('series_owed')
    .select(['id', 'pattern_instant', 'held_booking_uid'])
    .where('series_uid', '=', seriesUid)
    .orderBy('pattern_instant')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ id: r.id, patternInstantMs: Date.parse(r.pattern_instant), heldBookingUid: r.held_booking_uid }));
}

export async function countOwed(db: Executor, seriesUid: string): Promise<number> {
  const row = await db
    .selectFrom('series_owed')
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
    .where('series_uid', '=', seriesUid)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Records that the series owes the held occurrence `heldBookingUid`, at its pattern instant. */
export async function addOwed(
  trx: Executor,
  deps: { clock: Clock; ids: IdGenerator },
  seriesUid: string,
  held: { patternInstant: string; bookingUid: string },
): Promise<void> {
  await trx
    .insertInto('series_owed')
    .values({
      id: deps.ids.uuid(),
      series_uid: seriesUid,
      pattern_instant: held.patternInstant,
      held_booking_uid: held.bookingUid,
      created_at: toTimestamp(deps.clock.now()),
    })
    .execute();
}

/** Settles an owed entry once its replacement is booked; false if it was already gone. */
export async function settleOwed(trx: Executor, id: string): Promise<boolean> {
  const result = await trx.deleteFrom('series_owed').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** End owes nothing. */
export async function clearOwed(trx: Executor, seriesUid: string): Promise<void> {
  await trx.deleteFrom('series_owed').where('series_uid', '=', seriesUid).execute();
}
