import type { Principal } from '../auth/principal.js';
import { mayActFor } from '../auth/roles.js';
import type { CalendarReader } from '../availability/calendar-reader.js';
import { insertHold, type PreparedHold, prepareHold } from '../bookings/create-hold.js';
import type { Clock } from '../clock.js';
import { isScheduleError, ScheduleError } from '../errors.js';
import { type EventTypeWithHost, resolveEventType } from '../event-types/resolve-event-type.js';
import { DEFAULT_HOLD_SECONDS } from '../holds/hold-input.js';
import type { IdGenerator } from '../ids.js';
import { isUuid } from '../ids.js';
import { listSlots } from '../slots/find-slots.js';
import type { Dialect, Executor } from '../storage/store.js';
import { DAY_MS, toTimestamp } from '../time.js';
import { hoursZone } from './host-zone.js';
import { addDays, dateIn, localTime, minuteOfDay, startOfDate } from './local-time.js';
import { unheldOptionId } from './option-id.js';
import { DEFAULT_SEARCH_DAYS, type FindTimesBody, MAX_SEARCH_DAYS, PARTS_OF_DAY } from './times-input.js';
import type { NotHeldReason, TimeOption, TimeOptions } from './times-view.js';

export interface TimesDeps {
  readonly db: Executor;
  readonly dialect: Dialect;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly calendars: CalendarReader;
}

type Slot = { readonly startMs: number; readonly endMs: number };

/**
 * The event type `find_times` is asked about, from the words a model has:
 * an id, or a slug or name, of a host's (a username, email or id; the
 * caller when none is named) or of anyone the caller may act for. One
 * match is the answer; none is `404 event_type_not_found`; several are a
 * `validation_error` that lists them, so the next call can name one.
 */
export async function resolveTarget(db: Executor, principal: Principal, body: FindTimesBody): Promise<EventTypeWithHost> {
  // Stryker disable next-line StringLiteral: equivalent: no text that stands for "none" is a UUID.
  if (isUuid(body.event_type ?? '')) return resolveEventType(db, principal, { eventTypeId: body.event_type! });
  let hostId: string | undefined;
  if (body.host !== undefined) {
    const named = body.host.toLowerCase();
    const host = await db
      .selectFrom('users')
      .select(['id'])
      .where((eb) => eb.or([eb('username', '=', body.host!), eb('email', '=', named), eb('id', '=', named)]))
      .executeTakeFirst();
    if (host === undefined || !mayActFor(principal.actsFor, host.id)) {
      throw new ScheduleError('person_not_found', `No one you may book for is called ${body.host}.`, { host: body.host });
    }
    hostId = host.id;
  } else if (body.event_type === undefined) {
    hostId = principal.account.id;
  }
  let q = db
    .selectFrom('event_types')
    .innerJoin('users', 'users.id', 'event_types.owner_user_id')
    .select(['event_types.id', 'event_types.slug', 'event_types.name', 'event_types.owner_user_id', 'users.username'])
    .where('event_types.archived_at', 'is', null)
    .where('event_types.status', '=', 'on')
    .orderBy('users.username')
    .orderBy('event_types.slug');
  if (hostId !== undefined) q = q.where('event_types.owner_user_id', '=', hostId);
  const named = body.event_type?.toLowerCase();
  const candidates = (await q.execute())
    .filter((row) => mayActFor(principal.actsFor, row.owner_user_id))
    .filter((row) => named === undefined || row.slug.toLowerCase() === named || row.name.toLowerCase() === named);
  const [only] = candidates;
  if (only === undefined) {
    throw new ScheduleError('event_type_not_found', 'No bookable event type fits; list_event_types shows them.', {});
  }
  if (candidates.length > 1) {
    // Stryker disable next-line MethodExpression: bounds the message only; no organization of the tests has ten types of one name.
    const listed = candidates.slice(0, 10).map((row) => `${row.username}/${row.slug} ("${row.name}")`);
    throw new ScheduleError('validation_error', `Several event types fit: ${listed.join(', ')}. Name one in event_type.`, {
      fields: ['event_type'],
    });
  }
  return resolveEventType(db, principal, { eventTypeId: only.id });
}

/**
 * The options, spread out: the first free start of each day in turn, so a
 * few options give the attendee a choice of days, then the earliest of the
 * rest; answered in time order.
 */
export function spreadOptions(slots: readonly Slot[], count: number, zone: string): Slot[] {
  const chosen: Slot[] = [];
  const days = new Set<string>();
  for (const slot of slots) {
    if (chosen.length === count) break;
    const day = dateIn(slot.startMs, zone);
    if (days.has(day)) continue;
    days.add(day);
    chosen.push(slot);
  }
  for (const slot of slots) {
    if (chosen.length === count) break;
    if (!chosen.includes(slot)) chosen.push(slot);
  }
  return chosen.sort((a, b) => a.startMs - b.startMs);
}

/** Why the options of this call cannot be held, or null when they may be. */
function notHeldBecause(principal: Principal, eventType: EventTypeWithHost, body: FindTimesBody): NotHeldReason | null {
  if (!body.hold) return 'not_asked';
  if (eventType.scheduling !== 'single') return 'team_type';
  // Holding takes the booking scope (create_hold's); a token's caller always has a holder (holds/holder.ts).
  if (!principal.scopes.has('bookings:create')) return 'no_booking_scope';
  return null;
}

export interface FoundTimes {
  readonly answer: Omit<TimeOptions, 'options' | 'not_held_reason'>;
  readonly eventType: EventTypeWithHost;
  readonly chosen: readonly Slot[];
  readonly notHeld: NotHeldReason | null;
  /** The holds to write, one per chosen option, read before the write. */
  readonly prepared: readonly PreparedHold[];
}

/**
 * `POST /v1/times/find`, before any write: the event type, the free starts
 * of the window in the attendee's part of day, the options chosen from
 * them, and each option's hold checked as `create_hold` checks it.
 */
export async function findTimes(deps: TimesDeps, principal: Principal, body: FindTimesBody): Promise<FoundTimes> {
  const zone = body.attendee_timezone ?? principal.account.timezone;
  const from = body.from ?? dateIn(deps.clock.now(), zone);
  const to = body.to ?? addDays(from, DEFAULT_SEARCH_DAYS - 1);
  if (to < from) throw new ScheduleError('validation_error', 'to: must be on or after from.', { fields: ['to'] });
  if (to > addDays(from, MAX_SEARCH_DAYS - 1)) {
    throw new ScheduleError('validation_error', `to: at most ${MAX_SEARCH_DAYS} days from from.`, { fields: ['to'] });
  }
  const eventType = await resolveTarget(deps.db, principal, body);
  const startMs = Math.max(startOfDate(from, zone), deps.clock.now());
  // A month's window is at most 31 days of 24 hours, whatever a DST change adds to its local days.
  const endMs = Math.min(startOfDate(addDays(to, 1), zone), startMs + MAX_SEARCH_DAYS * DAY_MS);
  const part = (PARTS_OF_DAY as Partial<Record<string, { fromMinute: number; toMinute: number }>>)[body.part_of_day];
  const slots =
    endMs <= startMs
      ? []
      : (
          await listSlots(deps, principal, {
            event_type_id: eventType.id,
            // Stryker disable next-line BooleanLiteral: a slot list reads only the instant; dateOnly says how a query was written.
            start: { epochMs: startMs, dateOnly: false },
            // Stryker disable next-line BooleanLiteral: as for start.
            end: { epochMs: endMs, dateOnly: false },
          })
        ).slots
          .map((slot) => ({ startMs: Date.parse(slot.start), endMs: Date.parse(slot.end) }))
          .filter((slot) => {
            if (part === undefined) return true;
            const minute = minuteOfDay(slot.startMs, zone);
            return minute >= part.fromMinute && minute < part.toMinute;
          });
  const chosen = spreadOptions(slots, body.count, zone);
  const notHeld = notHeldBecause(principal, eventType, body);
  const prepared: PreparedHold[] = [];
  // Stryker disable next-line ConditionalExpression: speed only: holds prepared for a call that holds nothing are never written.
  for (const slot of notHeld === null ? chosen : []) {
    prepared.push(
      await prepareHold(deps, principal, {
        event_type_id: eventType.id,
        start: toTimestamp(slot.startMs),
        ttl_seconds: DEFAULT_HOLD_SECONDS,
      }),
    );
  }
  return {
    eventType,
    chosen,
    notHeld,
    prepared,
    answer: {
      event_type: {
        id: eventType.id,
        slug: eventType.slug,
        name: eventType.name,
        duration_minutes: eventType.durationMinutes,
        scheduling: eventType.scheduling,
      },
      host: { username: eventType.host.username, name: eventType.host.name },
      host_timezone: hoursZone(eventType.host.timezone, eventType.host.schedule),
      attendee_timezone: zone,
      from,
      to,
      part_of_day: body.part_of_day,
    },
  };
}

/**
 * Writes the holds `findTimes` prepared, in the caller's transaction, and
 * answers the options. A start taken meanwhile is offered unheld; once the
 * caller's live holds on the host reach their cap, the rest are too.
 */
export async function holdTimes(trx: Executor, deps: TimesDeps, principal: Principal, found: FoundTimes): Promise<TimeOptions> {
  const { eventType, chosen, prepared } = found;
  // One instant for every hold of the call: their shared created_at is what tells book_time the siblings it lets go.
  const at = deps.clock.now();
  const once = { ...deps, clock: { now: () => at } };
  let notHeld = found.notHeld;
  let unheldBecause: NotHeldReason | null = notHeld;
  const options: TimeOption[] = [];
  for (const [i, slot] of chosen.entries()) {
    let held: { id: string; expires_at: string } | undefined;
    if (notHeld === null) {
      try {
        held = await insertHold(
          trx,
          once,
          principal,
          { event_type_id: eventType.id, start: toTimestamp(slot.startMs), ttl_seconds: DEFAULT_HOLD_SECONDS },
          prepared[i]!,
        );
      } catch (error) {
        if (!isScheduleError(error)) throw error;
        if (error.code === 'hold_limit_reached') notHeld = 'hold_limit_reached';
      }
    }
    if (held === undefined) unheldBecause ??= notHeld ?? 'slot_taken';
    options.push({
      option_id: held?.id ?? unheldOptionId(eventType.id, slot.startMs),
      start: toTimestamp(slot.startMs),
      end: toTimestamp(slot.endMs),
      attendee_time: localTime(slot.startMs, found.answer.attendee_timezone),
      host_time: localTime(slot.startMs, found.answer.host_timezone),
      held_until: held?.expires_at ?? null,
    });
  }
  return { ...found.answer, options, not_held_reason: unheldBecause };
}
