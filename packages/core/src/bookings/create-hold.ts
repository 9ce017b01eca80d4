import { sql } from 'kysely';
import type { Principal } from '../auth/principal.js';
import type { CalendarReader } from '../availability/calendar-reader.js';
import { loadHostTime, overlapBounds, overlappingBookings, policyOf, takenTimes } from '../availability/load-host-time.js';
import { checkStart, type HostTime } from '../availability/slot-rules.js';
import { eventTypeRefOf } from '../bookings/booking-input.js';
import type { Clock } from '../clock.js';
import { ScheduleError } from '../errors.js';
import { type EventTypeWithHost, resolveEventType } from '../event-types/resolve-event-type.js';
import { overlappingHolds } from '../holds/held-times.js';
import type { CreateHoldBody } from '../holds/hold-input.js';
import { type Hold, toHold } from '../holds/hold-view.js';
import { holderOf } from '../holds/holder.js';
import type { IdGenerator } from '../ids.js';
import { lockHost } from '../storage/host-lock.js';
import { executePrepared } from '../storage/prepared-query.js';
import type { HoldsTable } from '../storage/schema.js';
import type { Dialect, Executor } from '../storage/store.js';
import { DAY_MS, MINUTE_MS, parseInstant, toTimestamp } from '../time.js';
import { assertStillBookable, unavailable } from './create-booking.js';

/** docs/api/holds.md: live holds one token may have on one host's time at once. */
export const MAX_LIVE_HOLDS = 20;

/** An expired hold's row is kept this long, so a late booking with it hears `hold_expired`, then it is deleted on the host's next hold. */
export const EXPIRED_HOLD_KEPT_MS = DAY_MS;

export interface HoldDeps {
  readonly db: Executor;
  readonly dialect: Dialect;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly calendars: CalendarReader;
}

export interface PreparedHold {
  readonly holder: string;
  readonly eventType: EventTypeWithHost;
  readonly startMs: number;
  readonly endMs: number;
  /** The host's time without bookings, as read before the write. */
  readonly time: HostTime;
}

/**
 * Checks a hold as a booking of the same start would be checked (the same
 * reasons, the same order), before the write. A caller who owns no holds
 * (a manage link) cannot hold.
 */
export async function prepareHold(deps: HoldDeps, principal: Principal, body: CreateHoldBody): Promise<PreparedHold> {
  const holder = holderOf(principal);
  const eventType = await resolveEventType(deps.db, principal, eventTypeRefOf(body));
  // Stryker disable next-line ConditionalExpression: a visitor without a form (the only principal without a holder) has no grant to book, so resolveEventType has refused it already.
  if (holder === null) throw new ScheduleError('forbidden', 'This caller cannot hold times.', {});
  // A hold is of one host's time, and a team's hosts are chosen only as the booking is made (docs/api/holds.md).
  if (eventType.scheduling !== 'single')
    throw new ScheduleError('forbidden', 'A team event type takes no holds yet; book it directly.', {
      reason: eventType.scheduling,
    });
  if (eventType.status !== 'on') throw new ScheduleError('event_type_inactive', 'This event type is not taking bookings.', {});
  const startMs = parseInstant(body.start)!.epochMs;
  if (startMs < deps.clock.now()) throw new ScheduleError('slot_in_past', 'The start is in the past.', {});
  const endMs = startMs + eventType.durationMinutes * MINUTE_MS;
  // Stryker disable next-line ObjectLiteral,BooleanLiteral: speed only: read with the bookings, the same start is refused here rather than in the write, with the same error.
  const time = await loadHostTime(deps, policyOf(eventType), eventType.host, { startMs, endMs }, { withBookings: false });
  const check = checkStart(time, startMs);
  if (!check.available) throw unavailable(check.reason);
  return { holder, eventType, startMs, endMs, time };
}

/**
 * Writes the hold under the host's lock if no booking and no one else's live
 * hold overlaps the slot widened by its buffers: the same check a booking's
 * write makes, so a time is never held and booked by two callers at once.
 */
export async function insertHold(
  trx: Executor,
  deps: HoldDeps,
  principal: Principal,
  body: CreateHoldBody,
  prepared: PreparedHold,
): Promise<Hold> {
  const { holder, eventType, startMs, endMs } = prepared;
  const hostId = eventType.host.id;
  const nowMs = deps.clock.now();
  const row: HoldsTable = {
    id: deps.ids.uuid(),
    holder,
    token_id: principal.tokenId,
    event_type_id: eventType.id,
    host_user_id: hostId,
    start_at: toTimestamp(startMs),
    end_at: toTimestamp(endMs),
    expires_at: toTimestamp(nowMs + body.ttl_seconds * 1000),
    created_at: toTimestamp(nowMs),
  };
  const blocked = {
    startMs: startMs - eventType.bufferBeforeMinutes * MINUTE_MS,
    endMs: endMs + eventType.bufferAfterMinutes * MINUTE_MS,
  };
  await lockHost(trx, deps.dialect, hostId);
  // Stryker disable next-line ConditionalExpression: equivalent in what it answers: the full check below judges a plain type as the one statement does, in more statements.
  if (prepared.time.policy.limits !== undefined) {
    // A hold takes a seat and counts against a limit: judged as a booking of the type is, under the same lock.
    await dropLongExpired(trx, hostId, nowMs);
    await checkLiveHolds(trx, principal.tokenId, hostId, nowMs);
    await assertStillBookable(trx, prepared.time, eventType.host, { startMs, endMs }, { nowMs, holder });
    await trx.insertInto('holds').values(row).execute();
    return toHold(row);
  }
  // Stryker disable next-line ConditionalExpression,StringLiteral,EqualityOperator: speed only: the sequential checks below answer as the one statement does (holds.test.ts, holds-race.test.ts run both on PostgreSQL).
  if (deps.dialect === 'postgres') {
    // One round trip for the usual case; a refusal is rare, and then the checks below say which it is.
    const { rows } = await executePrepared(trx, insertHoldIfFree, [
      ...[hostId, toTimestamp(nowMs - EXPIRED_HOLD_KEPT_MS)],
      ...HOLD_COLUMNS.map((column) => row[column]),
      ...[hostId, ...overlapBounds(blocked), toTimestamp(nowMs)],
      ...[hostId, ...overlapBounds(blocked), toTimestamp(nowMs), holder],
      ...[principal.tokenId, hostId, toTimestamp(nowMs), MAX_LIVE_HOLDS],
    ]);
    if (rows.length > 0) return toHold(row);
  } else {
    await dropLongExpired(trx, hostId, nowMs);
  }
  await checkLiveHolds(trx, principal.tokenId, hostId, nowMs);
  if ((await takenTimes(trx, hostId, blocked, { nowMs, holder })).length > 0) throw unavailable('slot_busy');
  await trx.insertInto('holds').values(row).execute();
  return toHold(row);
}

const HOLD_COLUMNS = [
  'id',
  'holder',
  'token_id',
  'event_type_id',
  'host_user_id',
  'start_at',
  'end_at',
  'expires_at',
  'created_at',
] as const satisfies readonly (keyof HoldsTable)[];

/**
 * insertHold on PostgreSQL as one statement, compiled once: the housekeeping
 * delete, then the insert if no booking and no one else's live hold overlaps
 * and the token is under its cap. It runs after the host's lock was granted,
 * so in READ COMMITTED its snapshot sees every booking and hold committed
 * for the host (bookings/write-new-booking.ts says the same of a create).
 * Each argument appears once, in the order insertHold passes them.
 */
const insertHoldIfFree = (db: Executor, ...args: unknown[]) => {
  const [dropHost, dropBefore, ...rest] = args as string[];
  const values = rest.slice(0, HOLD_COLUMNS.length);
  const [
    bookingHost,
    lowest,
    before,
    after,
    bookingNow,
    holdHost,
    holdLowest,
    holdBefore,
    holdAfter,
    now,
    holder,
    tokenId,
    capHost,
    capNow,
    cap,
  ] = rest.slice(HOLD_COLUMNS.length);
  const statement = sql<{ id: string }>`with "dropped" as (
      delete from "holds" where "host_user_id" = ${dropHost} and "expires_at" < ${dropBefore})
    insert into "holds" (${sql.join(HOLD_COLUMNS.map((column) => sql.ref(column)))})
    select ${sql.join(values.map((value) => sql.val(value)))}
    where not exists (${overlappingBookings(db, bookingHost!, lowest!, before!, after!, bookingNow!)})
    and not exists (${overlappingHolds(db, holdHost!, holdLowest!, holdBefore!, holdAfter!, now!, holder!)})
    and (${db
      .selectFrom('holds')
      .select((eb) => eb.fn.countAll().as('live'))
      .where('token_id', '=', tokenId!)
      .where('host_user_id', '=', capHost!)
      .where('expires_at', '>', capNow!)}) < ${cap}
    returning "id"`;
  return { compile: () => statement.compile(db) };
};

/** `409 hold_limit_reached` when the token already holds MAX_LIVE_HOLDS of this host's times; run under the host's lock, so the cap is exact. */
async function checkLiveHolds(trx: Executor, tokenId: string, hostId: string, nowMs: number): Promise<void> {
  const { count } = await trx
    .selectFrom('holds')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('token_id', '=', tokenId)
    .where('host_user_id', '=', hostId)
    .where('expires_at', '>', toTimestamp(nowMs))
    .executeTakeFirstOrThrow();
  if (Number(count) >= MAX_LIVE_HOLDS) {
    throw new ScheduleError('hold_limit_reached', `At most ${MAX_LIVE_HOLDS} times of one host may be held at once; release one first.`, {
      max: MAX_LIVE_HOLDS,
    });
  }
}

/**
 * Deletes the host's holds that expired more than EXPIRED_HOLD_KEPT_MS ago.
 * Housekeeping only: an expired row blocks nothing (held-times.ts), so
 * nothing depends on this having run.
 */
async function dropLongExpired(trx: Executor, hostId: string, nowMs: number): Promise<void> {
  await trx
    .deleteFrom('holds')
    .where('host_user_id', '=', hostId)
    .where('expires_at', '<', toTimestamp(nowMs - EXPIRED_HOLD_KEPT_MS))
    .execute();
}
