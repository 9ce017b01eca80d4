import { withHostBookings } from '../availability/load-host-time.js';
import { toBooking } from '../bookings/booking-rows.js';
import { isStillFree } from '../bookings/create-booking.js';
import type { Clock } from '../clock.js';
import { ScheduleError } from '../errors.js';
import { type EventTypeWithHost, eventTypeById, findHost, type HostRecord } from '../event-types/resolve-event-type.js';
import type { IdGenerator } from '../ids.js';
import type { Executor } from '../storage/store.js';
import { MINUTE_MS } from '../time.js';
import { mailOccurrence, type OccurrenceMail, occurrenceMailOf } from './occurrence-mail.js';
import { bookOccurrence, currentOccurrence, heldInstants, type OccurrenceTemplate } from './occurrences.js';
import { listOwed, type OwedEntry, settleOwed } from './owed.js';
import type { Pattern } from './pattern.js';
import { assignTargets, type ReplacementTarget } from './replacement-targets.js';
import { runItem, type StartedAction } from './series-action.js';
import { BookedHere, coversAll, isFreeFor, loadSeriesHostTime, type SeriesHostTime, skipCauseAt } from './series-availability.js';
import type { SeriesDeps } from './series-deps.js';
import { patternOf, type SeriesAttendee, type SeriesRow } from './series-rows.js';
import type { Skipped } from './series-view.js';
import { createSkipped } from './skipped.js';

/** Who and what a series books: its event type and its current host. */
export interface SeriesBooking {
  readonly eventType: EventTypeWithHost;
  readonly host: HostRecord;
}

export async function seriesBookingOf(db: Executor, series: Pick<SeriesRow, 'event_type_id' | 'host_user_id'>): Promise<SeriesBooking> {
  // One after the other: inside a transaction SQLite has one connection to give.
  const eventType = await eventTypeById(db, series.event_type_id);
  const host = await findHost(db, series.host_user_id);
  // Both are referenced by the series row; a workspace cannot remove them.
  // Stryker disable next-line ConditionalExpression,LogicalOperator,StringLiteral: unreachable: the series row's foreign keys keep both rows (storage/migrations.ts), so the refusal and its words are never seen (the line's mutant that always refuses is killed).
  if (!eventType || !host) throw new ScheduleError('internal_error', 'The series names an event type or host that does not exist.');
  return { eventType, host };
}

/** The occurrences a series books now look like this. */
export function templateOf(series: SeriesRow, booking: SeriesBooking): OccurrenceTemplate {
  return {
    seriesUid: series.uid,
    eventType: booking.eventType,
    host: booking.host,
    attendee: JSON.parse(series.attendee_json) as SeriesAttendee,
    timezone: series.timezone,
    locationUrl: series.location_url,
  };
}

/**
 * Where the replacement step would put each owed entry now, for reading the
 * host's time before the first write. `alsoHeld` are occurrences a pattern
 * change is about to hold: owed from then on, no longer holding an instant.
 */
export async function previewTargets(
  deps: SeriesDeps,
  seriesUid: string,
  pattern: Pattern,
  alsoHeld: readonly { uid: string; patternInstantMs: number }[] = [],
): Promise<ReplacementTarget[]> {
  const db = deps.store.db;
  const leaving = new Set(alsoHeld.map((h) => h.patternInstantMs));
  const owed: OwedEntry[] = [
    ...(await listOwed(db, seriesUid)),
    // Stryker disable next-line StringLiteral: a preview's entries are never settled, and assignTargets tells entries apart by identity, not id.
    ...alsoHeld.map((h) => ({ id: `preview:${h.uid}`, patternInstantMs: h.patternInstantMs, heldBookingUid: h.uid })),
  ];
  // In owed order, as the replacement step will list them once `alsoHeld` are held.
  // Stryker disable next-line MethodExpression,ArrowFunction,ArithmeticOperator: the preview is only read for its targets' instants (readTargets), and the order only decides which entry takes which of the same instants.
  owed.sort((a, b) => a.patternInstantMs - b.patternInstantMs);
  const held = (await heldInstants(db, seriesUid)).filter((ms) => !leaving.has(ms));
  return assignTargets(pattern, owed, held, deps.clock.now());
}

/** The host's time across some targets, read before an action's first write so that an unreadable calendar changes nothing. */
export function readTargets(deps: SeriesDeps, booking: SeriesBooking, targets: readonly ReplacementTarget[]): Promise<SeriesHostTime> {
  return loadSeriesHostTime(
    deps,
    booking.eventType,
    booking.host,
    targets.map((t) => t.target.instantMs),
  );
}

/**
 * The attendee's cancellation of an occurrence a pause held, sent once it is
 * replaced (or the series ends: end-series.ts). A pause itself sends the
 * attendee no mail (api.md), so until then the held date stays in the
 * attendee's calendar; an occurrence a PATCH held was canceled in the
 * attendee's calendar when it was held (hold-occurrence.ts).
 */
export async function mailHeldCancel(
  trx: Executor,
  deps: { clock: Clock; ids: IdGenerator },
  mail: OccurrenceMail,
  heldBookingUid: string,
): Promise<void> {
  const held = await currentOccurrence(trx, heldBookingUid);
  // Stryker disable next-line OptionalChaining: bookings are never deleted, so the held booking an owed entry names is always found.
  if (held?.canceled_by !== 'pause') return;
  // No reason: the held reason speaks to the host ("a replacement is owed"); the attendee gets the replacement's invite beside this.
  // Stryker disable next-line StringLiteral: toBooking only tells 'list' apart (it leaves out responses there), and the mail reads no responses.
  await mailOccurrence(trx, deps, mail, 'booking_canceled', toBooking(held, 'single'));
}

/** What a replacement step did. */
export interface Replaced {
  readonly created: number;
  readonly skipped: Skipped[];
}

/**
 * The replacement step of resume and of a pattern PATCH: each owed entry gets
 * one target (replacement-targets.ts); a free target is booked as an
 * occurrence naming the held one in `rescheduled_from_uid`, one committed
 * step each; a target the host is not free at is reported skipped and its
 * entry stays owed.
 */
export async function replaceOwed(
  deps: SeriesDeps,
  started: StartedAction,
  booking: SeriesBooking,
  read: SeriesHostTime,
  firstIndex: number,
): Promise<Replaced> {
  const db = deps.store.db;
  const uid = started.series.uid;
  const targets = assignTargets(patternOf(started.series), await listOwed(db, uid), await heldInstants(db, uid), deps.clock.now());
  const starts = targets.map((t) => t.target.instantMs);
  // The targets can differ from the preview when something changed in between; read again if they left its range.
  const time = (coversAll(read, starts) ? read : await readTargets(deps, booking, targets)).time;
  const bookedHere = new BookedHere(booking.eventType);
  const template = templateOf(started.series, booking);
  const mail = await occurrenceMailOf(db, started.series, booking.eventType, booking.host);
  const durationMs = booking.eventType.durationMinutes * MINUTE_MS;

  let created = 0;
  const skipped: Skipped[] = [];
  for (const [i, { entry, target }] of targets.entries()) {
    const slot = { startMs: target.instantMs, endMs: target.instantMs + durationMs };
    const cause = skipCauseAt(time, target.instantMs) ?? (bookedHere.isClear(slot) ? undefined : 'series_overlap');
    const step = await runItem(deps, started, firstIndex + i, async (trx) => {
      if (cause !== undefined) return cause;
      // A booking made since the read, seen under the host's lock.
      const reader = { nowMs: deps.clock.now(), holder: '' };
      if (!(await isStillFree(trx, deps.store.dialect, booking.host.id, booking.eventType, slot, reader))) return 'busy' as const;
      // A type with limits counts its bookings too, those this step committed before included.
      if (time.policy.limits !== undefined && !isFreeFor(await withHostBookings(trx, time, booking.host, slot, reader), target.instantMs))
        return 'busy' as const;
      if (!(await settleOwed(trx, entry.id))) return 'gone' as const;
      await bookOccurrence(trx, deps, template, { patternInstantMs: target.instantMs, rescheduledFromUid: entry.heldBookingUid }, mail);
      await mailHeldCancel(trx, deps, mail, entry.heldBookingUid);
      return 'created' as const;
    });
    // Taken over: the epoch moved and never moves back, so the caller's finish no longer owns the series and says superseded.
    if (!step.ran) return { created, skipped };
    if (step.value === 'created') {
      created++;
      bookedHere.add(slot);
    } else if (step.value !== 'gone') {
      skipped.push(createSkipped(target, step.value));
    }
  }
  return { created, skipped };
}
