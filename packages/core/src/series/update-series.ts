import type { Principal } from '../auth/principal.js';
import { applyBookingChange } from '../bookings/apply-change.js';
import { type IfMatch, matchesVersion } from '../conditional.js';
import { ScheduleError } from '../errors.js';
import { recordEvent } from '../outbox/record-event.js';
import type { SeriesTable } from '../storage/schema.js';
import { holdOccurrence } from './hold-occurrence.js';
import { mailOccurrence, occurrenceMailOf } from './occurrence-mail.js';
import { currentOccurrence, futureOccurrences } from './occurrences.js';
import { countOwed } from './owed.js';
import type { Pattern } from './pattern.js';
import { previewTargets, type Replaced, readTargets, replaceOwed, seriesBookingOf } from './replace-owed.js';
import { generatedAmong } from './replacement-targets.js';
import { versionConflict } from './resume-series.js';
import { type Finish, finishAction, runItem, startAction } from './series-action.js';
import type { SeriesDeps } from './series-deps.js';
import { PATTERN_FIELDS, type UpdateSeriesBody } from './series-input.js';
import { findVisibleSeries, loadSeries, patternOf, type SeriesRow, toSeries } from './series-rows.js';
import { statusOnStart } from './series-state.js';
import type { ResumeResult, UpdateSeriesResult } from './series-view.js';

/** The series row fields a PATCH body sets. */
function changesOf(body: UpdateSeriesBody): Partial<SeriesTable> {
  return {
    ...(body.frequency !== undefined ? { frequency: body.frequency } : {}),
    ...(body.interval_weeks !== undefined ? { interval_weeks: body.interval_weeks } : {}),
    ...(body.weekdays !== undefined ? { weekdays_json: JSON.stringify(body.weekdays) } : {}),
    ...(body.time !== undefined ? { time: body.time } : {}),
    // Stryker disable next-line ConditionalExpression: `{ location_url: undefined }` sets nothing (the query builder leaves undefined values out) and is no pattern field.
    ...(body.location_url !== undefined ? { location_url: body.location_url } : {}),
    ...(body.notify_invitee !== undefined ? { notify_invitee: body.notify_invitee ? 1 : 0 } : {}),
  };
}

/**
 * Refuses what the body cannot do to this series: gaining a fixed link is
 * `422 invalid_change` (docs/api: a series created without one cannot gain
 * one), and a weekly pattern needs a weekday (`400 validation_error`).
 */
function checkAgainst(series: SeriesRow, body: UpdateSeriesBody): Pattern {
  if (body.location_url !== undefined && series.location_url === null) {
    throw new ScheduleError('invalid_change', 'A series created without a location_url cannot gain one.', { fields: ['location_url'] });
  }
  const pattern = patternOf({ ...series, ...changesOf(body) });
  if (pattern.frequency === 'weekly' && pattern.weekdays.length === 0) {
    throw new ScheduleError('validation_error', 'weekdays: a weekly series needs at least one weekday.', { fields: ['weekdays'] });
  }
  return pattern;
}

/** Future occurrences a new pattern holds: confirmed, not moved, at an instant it no longer generates. */
async function outOfPattern(deps: SeriesDeps, seriesUid: string, pattern: Pattern) {
  const candidates = (await futureOccurrences(deps.store.db, seriesUid, deps.clock.now())).filter(
    (o) =>
      o.moved_by_invitee === 0 &&
      // Stryker disable next-line ConditionalExpression: every occurrence of a series is booked at a pattern instant (bookOccurrence); the guard only narrows the type.
      o.pattern_instant !== null,
  );
  const instants = candidates.map((o) => Date.parse(o.pattern_instant!));
  const generated = generatedAmong(pattern, instants);
  return candidates.filter((_, i) => !generated.has(instants[i]!));
}

/**
 * `PATCH /v1/series/:uid` (docs/api/series.md "Owed, held and moved"). Changing
 * `location_url` restamps future occurrences in place; `notify_invitee` is
 * read whenever a mail is sent, so nothing needs restamping for it. Changing
 * a pattern field holds every future, confirmed, not-moved occurrence the
 * new pattern no longer generates, then runs the replacement step; the
 * status is kept. Every step is committed on its own, and a later action
 * takes the series over as for any action.
 */
export async function updateSeries(
  deps: SeriesDeps,
  principal: Principal,
  uid: string,
  ifMatch: IfMatch,
  body: UpdateSeriesBody,
  finish: Finish<UpdateSeriesResult>,
): Promise<UpdateSeriesResult> {
  const db = deps.store.db;
  const row = await findVisibleSeries(db, principal, uid);
  // Stryker disable next-line StringLiteral,ConditionalExpression,EqualityOperator: for any action but an end only the status counts here (ended refuses), so neither the action's name nor the unfinished-end flag changes the answer; startAction checks again with its own.
  statusOnStart('update', row.status, row.ending === 1);
  if (!matchesVersion(ifMatch, row.version)) throw versionConflict(row.version);
  const pattern = checkAgainst(row, body);
  const patternChange = PATTERN_FIELDS.some((field) => body[field] !== undefined);

  const booking = await seriesBookingOf(db, row);
  const preview = patternChange
    ? await previewTargets(
        deps,
        row.uid,
        pattern,
        (await outOfPattern(deps, row.uid, pattern)).map((o) => ({ uid: o.uid, patternInstantMs: Date.parse(o.pattern_instant!) })),
      )
    : [];
  const read = await readTargets(deps, booking, preview);

  const started = await startAction(deps, 'update', row.uid, (_trx, current) => {
    if (!matchesVersion(ifMatch, current.version)) throw versionConflict(current.version);
    return changesOf(body);
  });

  // Read as the PATCH left the series: a PATCH turning notify_invitee off sends the attendee nothing more.
  const mail = await occurrenceMailOf(db, started.series, booking.eventType, booking.host);
  let index = 0;
  let superseded = false;
  if (body.location_url !== undefined) {
    const location = JSON.stringify({ type: 'link', url: body.location_url, value: null });
    for (const occurrence of await futureOccurrences(db, row.uid, deps.clock.now())) {
      const step = await runItem(deps, started, index++, async (trx) => {
        const current = await currentOccurrence(trx, occurrence.uid);
        // Stryker disable next-line OptionalChaining: bookings are never deleted, so the occurrence listed above is always found.
        if (current?.status !== 'confirmed' || current.location_json === location) return;
        const changed = await applyBookingChange(trx, deps, current, { location_json: location }, 'booking.location_changed', (b) => ({
          ...b,
          series_uid: row.uid,
        }));
        await mailOccurrence(trx, deps, mail, 'booking_changed', changed, { changed: 'location' });
      });
      if (!step.ran) {
        superseded = true;
        break;
      }
    }
  }

  let replaced: Replaced = { created: 0, skipped: [] };
  if (patternChange && !superseded) {
    for (const occurrence of await outOfPattern(deps, row.uid, pattern)) {
      const step = await runItem(deps, started, index++, (trx) => holdOccurrence(trx, deps, occurrence.uid, { action: 'update', mail }));
      if (!step.ran) {
        superseded = true;
        break;
      }
    }
    if (!superseded) replaced = await replaceOwed(deps, started, booking, read, index);
  }

  return finishAction(deps, started, finish, async (trx, owns) => {
    const series = toSeries(await loadSeries(trx, row.uid));
    if (owns) await recordEvent(trx, deps, 'series.updated', row.uid, { ...series, changed_fields: Object.keys(body) });
    const resumed: ResumeResult | null = patternChange
      ? {
          created: replaced.created,
          skipped: replaced.skipped,
          owed: await countOwed(trx, row.uid),
          superseded: !owns,
        }
      : null;
    return { series, resumed };
  });
}
