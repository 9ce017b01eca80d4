import type { Principal } from '../auth/principal.js';
import { mayActFor } from '../auth/roles.js';
import { visitorMayBookHost } from '../auth/visitor.js';
import { withBooked } from '../availability/capacity.js';
import { withHostBookings } from '../availability/load-host-time.js';
import type { HostTime } from '../availability/slot-rules.js';
import { displayName } from '../bookings/attendee-name.js';
import { eventTypeRefOf } from '../bookings/booking-input.js';
import { ScheduleError } from '../errors.js';
import {
  type EventTypeWithHost,
  findHost,
  findHostByUsername,
  type HostRecord,
  resolveEventType,
} from '../event-types/resolve-event-type.js';
import type { HoldReader } from '../holds/held-times.js';
import { ownHolds } from '../holds/holder.js';
import { recordEvent } from '../outbox/record-event.js';
import { recordNotification } from '../outbox/record-notification.js';
import { lockHost } from '../storage/host-lock.js';
import type { SeriesTable } from '../storage/schema.js';
import type { Executor } from '../storage/store.js';
import { MINUTE_MS, toTimestamp } from '../time.js';
import { expandPattern } from './expand-pattern.js';
import { occurrenceMailOf } from './occurrence-mail.js';
import { bookOccurrence, type OccurrenceTemplate, occurrenceLocation } from './occurrences.js';
import type { Pattern, PatternInstant } from './pattern.js';
import type { Finish } from './series-action.js';
import { BookedHere, loadSeriesHostTime, skipCauseAt } from './series-availability.js';
import type { SeriesDeps } from './series-deps.js';
import type { CreateSeriesBody } from './series-input.js';
import type { SeriesAttendee } from './series-rows.js';
import { toSeries } from './series-rows.js';
import type { CreateSeriesResult, Occurrence, SeriesPreview, SeriesSource, Skipped } from './series-view.js';
import { createSkipped } from './skipped.js';

function hostNotAllowed(field: 'host_user_id' | 'host_username'): ScheduleError {
  return new ScheduleError('host_not_allowed', `${field} is not someone this caller may act for.`, { fields: [field] });
}

/**
 * A round-robin type's series is hosted by one host of its pool, named by the
 * caller, for all its dates; anyone else is `403 host_not_allowed`, naming the
 * field, as a host the caller may not act for is. A single host's type takes
 * whoever the caller may book for, as before. A type whose bookings have
 * several hosts (collective, or fixed hosts) takes no series yet: `403
 * forbidden`, `reason: several_hosts`.
 */
export function assertPoolHost(eventType: EventTypeWithHost, host: HostRecord, field: 'host_user_id' | 'host_username'): void {
  // A series books one host's time alone: a meeting of several hosts (collective, fixed hosts) takes none yet (docs/api/teams.md).
  if (eventType.pool.some((m) => m.fixed)) {
    throw new ScheduleError('forbidden', 'An event type whose bookings have several hosts takes no series yet; book each date.', {
      reason: 'several_hosts',
    });
  }
  if (eventType.scheduling === 'round_robin' && !eventType.pool.some((m) => m.host.id === host.id)) {
    throw new ScheduleError('host_not_allowed', `${field} is not a host of this round-robin event type's pool.`, { fields: [field] });
  }
}

/** Whether the caller may book a series for this host: one it acts for, or the host of a visitor's booking page. */
const mayBookFor = (principal: Principal, hostId: string) => mayActFor(principal.actsFor, hostId) || visitorMayBookHost(principal, hostId);

/** The host a series write names, if the caller may act for them (else `403 host_not_allowed`, unknown users too). */
export async function allowedHost(db: Executor, principal: Principal, hostUserId: string): Promise<HostRecord> {
  if (!mayBookFor(principal, hostUserId)) throw hostNotAllowed('host_user_id');
  const host = await findHost(db, hostUserId);
  if (!host) throw hostNotAllowed('host_user_id');
  return host;
}

/**
 * The host a create names, by id or by username. An unknown username and
 * one the caller may not act for answer alike, as ids do (docs/api/choices.md
 * "Identity, roles, visibility": nothing tells who exists).
 */
async function namedHost(db: Executor, principal: Principal, body: CreateSeriesBody): Promise<HostRecord> {
  if (body.host_user_id !== undefined) return allowedHost(db, principal, body.host_user_id);
  // Stryker disable next-line ConditionalExpression: validation (series-input.ts) names the host by one of the two, so host_username is defined here; looked up when undefined it finds nobody and the same 403 follows (the line's other mutant, never looking up, is killed).
  const host = body.host_username === undefined ? undefined : await findHostByUsername(db, body.host_username);
  if (!host || !mayBookFor(principal, host.id)) throw hostNotAllowed('host_username');
  return host;
}

interface PreparedSeries {
  readonly host: HostRecord;
  readonly eventType: EventTypeWithHost;
  readonly pattern: Pattern;
  readonly candidates: PatternInstant[];
  readonly read: Awaited<ReturnType<typeof loadSeriesHostTime>>;
}

/**
 * Everything a create checks before writing, in this order: the host, by
 * id or username (`403 host_not_allowed`), the event type (`404`), its recurring mode
 * (`409 recurring_disabled`, also for a type that requires confirmation) and status (`409 event_type_inactive`), then the
 * host's time across the candidates (`503 availability_unavailable`), and at
 * least one free candidate (`409 no_dates_free`).
 */
async function prepareSeries(deps: SeriesDeps, principal: Principal, body: CreateSeriesBody): Promise<PreparedSeries> {
  const db = deps.store.db;
  const host = await namedHost(db, principal, body);
  const eventType = await resolveEventType(db, principal, eventTypeRefOf(body));
  if (eventType.recurring === 'off') {
    throw new ScheduleError('recurring_disabled', 'This event type does not allow recurring series.', {});
  }
  // A series books one attendee's dates; a seated type's starts are shared, so it takes none (docs/api/choices.md "Limits and seats").
  if (eventType.seats !== null) {
    throw new ScheduleError('recurring_disabled', 'A seated event type takes no recurring series.', { fields: ['seats'] });
  }
  // A series books its dates at once, as agreed; a host who answers each booking could not agree to it (docs/api/choices.md).
  if (eventType.requiresConfirmation) {
    throw new ScheduleError('recurring_disabled', "This event type requires the host's confirmation of each booking; it takes no series.", {
      reason: 'requires_confirmation',
    });
  }
  // A round-robin series keeps the one host it names for all its dates, who must be of the pool (docs/api/teams.md "Series").
  assertPoolHost(eventType, host, body.host_user_id === undefined ? 'host_username' : 'host_user_id');
  if (eventType.status !== 'on') throw new ScheduleError('event_type_inactive', 'This event type is not taking bookings.', {});
  const pattern: Pattern = {
    frequency: body.frequency,
    intervalWeeks: body.interval_weeks,
    weekdays: body.weekdays ?? [],
    time: body.time,
    timezone: body.timezone ?? host.timezone,
    startsOn: body.starts_on,
  };
  const candidates = expandPattern(pattern, body.count, deps.clock.now());
  const read = await loadSeriesHostTime(
    deps,
    eventType,
    host,
    candidates.map((c) => c.instantMs),
  );
  // Nothing free before bookings are even read: the same answer the write would give, without taking the lock.
  const plan = planOccurrences(read.time, eventType, candidates);
  // Stryker disable next-line ConditionalExpression: a shortcut: bookings only add busy time, so the same check under the lock (and the preview's) refuses alike; it spares taking the lock (the line's other mutant, always refusing, is killed).
  if (plan.free.length === 0) throw noDatesFree(plan.skipped);
  return { host, eventType, pattern, candidates, read };
}

function noDatesFree(skipped: readonly Skipped[]): ScheduleError {
  return new ScheduleError('no_dates_free', 'The host is free on none of the pattern dates; nothing was created.', { skipped });
}

/** Which candidates a create books and which it skips, with why. */
interface OccurrencePlan {
  readonly free: readonly PatternInstant[];
  readonly skipped: readonly Skipped[];
}

/**
 * The one decision of which pattern dates a series books, given the host's
 * time (bookings included): create and preview both take it, so a preview
 * with nothing in between gives the very dates the create books. Two
 * occurrences never overlap each other either (a 24-hour meeting across a
 * short DST day would).
 */
function planOccurrences(time: HostTime, eventType: EventTypeWithHost, candidates: readonly PatternInstant[]): OccurrencePlan {
  const durationMs = eventType.durationMinutes * MINUTE_MS;
  const bookedHere = new BookedHere(eventType);
  const free: PatternInstant[] = [];
  const skipped: Skipped[] = [];
  let counted = time;
  for (const candidate of candidates) {
    const slot = { startMs: candidate.instantMs, endMs: candidate.instantMs + durationMs };
    const cause = skipCauseAt(counted, candidate.instantMs) ?? (bookedHere.isClear(slot) ? undefined : 'series_overlap');
    if (cause !== undefined) {
      skipped.push(createSkipped(candidate, cause));
      continue;
    }
    free.push(candidate);
    bookedHere.add(slot);
    // The series' own occurrences count against the type's limits as they are booked.
    if (counted.capacity !== undefined) counted = { ...counted, capacity: withBooked(counted.capacity, slot) };
  }
  return { free, skipped };
}

/** The host's time across the candidates with their bookings and others' holds, read in `db` (under the host's lock for a create). */
async function withBookings(db: Executor, prepared: PreparedSeries, reader: HoldReader): Promise<HostTime> {
  const { eventType, host, candidates, read } = prepared;
  const first = candidates[0]!.instantMs;
  const last = candidates.at(-1)!.instantMs;
  return withHostBookings(db, read.time, host, { startMs: first, endMs: last + eventType.durationMinutes * MINUTE_MS }, reader);
}

/** Holds are read as of now, the caller's own left out. */
function holdReader(deps: SeriesDeps, principal: Principal): HoldReader {
  return { nowMs: deps.clock.now(), holder: ownHolds(principal) };
}

/**
 * `POST /v1/series/preview`: what `POST /v1/series` with this body would
 * answer now, without writing anything: the same checks and errors, and the
 * dates it would book and skip. Nothing is held, so a booking made before
 * the create can still take a date.
 */
export async function previewSeries(deps: SeriesDeps, principal: Principal, body: CreateSeriesBody): Promise<SeriesPreview> {
  const prepared = await prepareSeries(deps, principal, body);
  const plan = planOccurrences(
    await withBookings(deps.store.db, prepared, holdReader(deps, principal)),
    prepared.eventType,
    prepared.candidates,
  );
  if (plan.free.length === 0) throw noDatesFree(plan.skipped);
  const durationMs = prepared.eventType.durationMinutes * MINUTE_MS;
  return {
    timezone: prepared.pattern.timezone,
    occurrences: plan.free.map((c) => ({
      date: c.date,
      start_at: toTimestamp(c.instantMs),
      end_at: toTimestamp(c.instantMs + durationMs),
    })),
    skipped: [...plan.skipped],
  };
}

/**
 * `POST /v1/series`: the series and every free occurrence in one
 * transaction, under the host's lock, with its answer for idempotent replay.
 * Nothing is visible before it commits, so nothing can take a create over,
 * and a create cut short (a crash) leaves nothing behind for its retry.
 * Dates the host is not free at are skipped, never shifted.
 */
export async function createSeries(
  deps: SeriesDeps,
  principal: Principal,
  body: CreateSeriesBody,
  source: SeriesSource,
  finish: Finish<CreateSeriesResult>,
): Promise<CreateSeriesResult> {
  const prepared = await prepareSeries(deps, principal, body);
  const { host, eventType, pattern } = prepared;
  const uid = deps.ids.uuid();
  const attendee: SeriesAttendee = { name: displayName(body.attendee), email: body.attendee.email, phone: body.attendee.phone ?? null };
  const template: OccurrenceTemplate = {
    seriesUid: uid,
    eventType,
    host,
    attendee,
    timezone: pattern.timezone,
    locationUrl: body.location_url ?? null,
  };
  const now = toTimestamp(deps.clock.now());
  const row: SeriesTable = {
    uid,
    version: 1,
    epoch: 1,
    event_type_id: eventType.id,
    host_user_id: host.id,
    attendee_json: JSON.stringify(attendee),
    frequency: pattern.frequency,
    interval_weeks: pattern.intervalWeeks,
    weekdays_json: JSON.stringify(pattern.weekdays),
    time: pattern.time,
    timezone: pattern.timezone,
    starts_on: pattern.startsOn,
    count: body.count,
    status: 'active',
    location_url: body.location_url ?? null,
    notify_invitee: body.notify_invitee ? 1 : 0,
    source,
    ending: 0,
    hold_token: null,
    hold_until: null,
    created_at: now,
    updated_at: now,
    ended_at: null,
  };

  return finish(async (trx) => {
    await lockHost(trx, deps.store.dialect, host.id);
    // Bookings made since the read above count too: the lock keeps any more from landing until this commits.
    const plan = planOccurrences(await withBookings(trx, prepared, holdReader(deps, principal)), eventType, prepared.candidates);
    if (plan.free.length === 0) throw noDatesFree(plan.skipped);
    await trx.insertInto('series').values(row).execute();
    const mail = await occurrenceMailOf(trx, row, eventType, host);
    const occurrences: Occurrence[] = [];
    for (const candidate of plan.free) {
      await deps.steps?.({ action: 'create', phase: 'occurrence', seriesUid: uid, index: occurrences.length });
      occurrences.push(
        await bookOccurrence(trx, deps, template, { patternInstantMs: candidate.instantMs, rescheduledFromUid: null }, mail),
      );
    }
    const skipped = [...plan.skipped];

    const series = toSeries({
      ...row,
      host_username: host.username,
      host_email: host.email,
      event_type_slug: eventType.slug,
      event_type_name: eventType.name,
    });
    await recordEvent(trx, deps, 'series.created', uid, { ...series, occurrences, skipped });
    // The confirmation lists the dates; each occurrence's invite went in its own mail (bookOccurrence).
    if (mail.on) {
      await recordNotification(trx, deps, {
        kind: 'series_confirmation',
        seriesUid: uid,
        recipient: attendee.email,
        payload: {
          attendee_name: attendee.name,
          attendee_email: attendee.email,
          event_type_name: eventType.name,
          host_name: host.name,
          host_email: host.email,
          timezone: pattern.timezone,
          occurrences: occurrences.map(({ uid: bookingUid, start_at, end_at }) => ({
            start_at,
            end_at,
            uid: bookingUid,
            // Every occurrence is new: version 1.
            sequence: 1,
            location_url: occurrenceLocation(deps.conferenceLinks, template, bookingUid).url,
          })),
          skipped: skipped.map(({ date, start_at }) => ({ date, start_at })),
          location_url: row.location_url,
        },
      });
    }
    return { series, occurrences, skipped };
  });
}
