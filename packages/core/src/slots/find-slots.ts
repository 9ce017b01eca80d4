import type { z } from 'zod';
import type { Principal } from '../auth/principal.js';
import type { CalendarReader } from '../availability/calendar-reader.js';
import { seatsLeft } from '../availability/capacity.js';
import { loadHostTime, policyOf } from '../availability/load-host-time.js';
import { checkStart, freeSlots } from '../availability/slot-rules.js';
import { listTeamSlots, loadTeamTime, teamCheck, teamFreeSlots } from '../availability/team-time.js';
import type { Clock } from '../clock.js';
import { resolveEventType } from '../event-types/resolve-event-type.js';
import { ownHolds } from '../holds/holder.js';
import type { Executor } from '../storage/store.js';
import { DAY_MS, MINUTE_MS, toTimestamp } from '../time.js';
import type { checkSlotQuerySchema, listSlotsQuerySchema } from './slot-queries.js';
import { checkWindow, eventTypeOfQuery, MAX_SLOT_WINDOW_DAYS, NEXT_AVAILABLE_SEARCH_DAYS } from './slot-queries.js';
import type { SlotCheck, SlotList } from './slot-view.js';

export interface SlotDeps {
  readonly db: Executor;
  readonly clock: Clock;
  readonly calendars: CalendarReader;
}

/** `GET /v1/slots`: the free slots of an event type whose start lies in [start, end). */
export async function listSlots(deps: SlotDeps, principal: Principal, query: z.output<typeof listSlotsQuerySchema>): Promise<SlotList> {
  const ref = eventTypeOfQuery(query);
  checkWindow(query.start.epochMs, query.end.epochMs, MAX_SLOT_WINDOW_DAYS);
  const eventType = await resolveEventType(deps.db, principal, ref);
  const range = { startMs: query.start.epochMs, endMs: query.end.epochMs };
  if (eventType.scheduling !== 'single') {
    const slots = await listTeamSlots(deps, policyOf(eventType), eventType.pool, range, { holder: ownHolds(principal) });
    return {
      event_type_id: eventType.id,
      // A team's hosts may live in several zones: the answer is labelled in the one asked for, else UTC.
      timezone: query.timezone ?? 'UTC',
      computed_at: toTimestamp(deps.clock.now()),
      slots: slots.map((s) => ({
        start: toTimestamp(s.startMs),
        end: toTimestamp(s.endMs),
        available: true as const,
      })),
    };
  }
  const time = await loadHostTime(deps, policyOf(eventType), eventType.host, range, { holder: ownHolds(principal) });
  return {
    event_type_id: eventType.id,
    // The zone the host's schedule is read in; UTC for a host without one.
    timezone: query.timezone ?? (eventType.host.schedule ? (eventType.host.schedule.timezone ?? eventType.host.timezone) : 'UTC'),
    computed_at: toTimestamp(time.nowMs),
    slots: freeSlots(time, range).map((s) => {
      const seats = seatsLeft(time.capacity, s.startMs);
      const slot = { start: toTimestamp(s.startMs), end: toTimestamp(s.endMs), available: true as const };
      return seats === undefined ? slot : { ...slot, seats_left: seats };
    }),
  };
}

/**
 * `GET /v1/slots/check`: whether one exact time can be booked, and if not,
 * why (in docs/api's order of precedence) and the next free start within 7
 * days after the requested end.
 */
export async function checkSlot(deps: SlotDeps, principal: Principal, query: z.output<typeof checkSlotQuerySchema>): Promise<SlotCheck> {
  const ref = eventTypeOfQuery(query);
  if (query.end) checkWindow(query.start.epochMs, query.end.epochMs);
  const eventType = await resolveEventType(deps.db, principal, ref);
  const startMs = query.start.epochMs;
  const endMs = query.end?.epochMs ?? startMs + eventType.durationMinutes * MINUTE_MS;
  const search = { startMs: endMs, endMs: endMs + NEXT_AVAILABLE_SEARCH_DAYS * DAY_MS };
  if (eventType.scheduling !== 'single') {
    const members = await loadTeamTime(
      deps,
      policyOf(eventType),
      eventType.pool,
      { startMs, endMs: search.endMs },
      { holder: ownHolds(principal) },
    );
    const check = teamCheck(members, startMs, endMs);
    if (check.available) return { available: true, duration_minutes: eventType.durationMinutes };
    const next = teamFreeSlots(members, search)[0];
    return { available: false, reason: check.reason, next_available: next ? toTimestamp(next.startMs) : null };
  }
  const time = await loadHostTime(
    deps,
    policyOf(eventType),
    eventType.host,
    { startMs, endMs: search.endMs },
    { holder: ownHolds(principal) },
  );
  const check = checkStart(time, startMs, endMs);
  if (check.available) return { available: true, duration_minutes: eventType.durationMinutes };
  const next = freeSlots(time, search)[0];
  return { available: false, reason: check.reason, next_available: next ? toTimestamp(next.startMs) : null };
}
