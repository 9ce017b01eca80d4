import { ScheduleError } from '../errors.js';
import { parseQuery } from '../pagination/query-params.js';
import { changeSeriesHost } from '../series/change-host.js';
import { createSeries, previewSeries } from '../series/create-series.js';
import { endSeries } from '../series/end-series.js';
import { listSeries, listSeriesQuerySchema } from '../series/list-series.js';
import { pauseSeries } from '../series/pause-series.js';
import { resumeSeries } from '../series/resume-series.js';
import type { Finish } from '../series/series-action.js';
import {
  changeHostBodySchema,
  createSeriesBodySchema,
  parseCreateSeriesBody,
  parseUpdateSeriesBody,
  updateSeriesBodySchema,
} from '../series/series-input.js';
import { findVisibleSeries, toSeries } from '../series/series-rows.js';
import {
  type CreateSeriesResult,
  createSeriesResultSchema,
  type EndResult,
  endResultSchema,
  type HostChangeResult,
  hostChangeResultSchema,
  type PauseResult,
  pauseResultSchema,
  type ResumeResult,
  resumeResultSchema,
  seriesPreviewSchema,
  seriesSchema,
  type UpdateSeriesResult,
  updateSeriesResultSchema,
} from '../series/series-view.js';
import { updateSeries } from '../series/update-series.js';
import { mapLockTimeout } from '../storage/host-lock.js';
import { parseBody } from '../validation/parse-body.js';
import { pathParam, requiredIfMatch, sentIfMatch } from './call-parts.js';
import { defineOperation, type ListOutcome, listOutcome, type OperationContext, type Outcome } from './operation.js';

const uidOf = (params: Readonly<Record<string, string>>) => pathParam(params, 'uid');

/**
 * Runs a series action as an operation: the action's last step runs in the
 * operation's `write`, so the outcome built from its result is kept for
 * replay in that same transaction, and a host lock not had in time answers
 * `503 slot_lock_timeout`, as for bookings.
 */
function runAction<Result>(
  ctx: OperationContext,
  outcomeOf: (result: Result) => Outcome,
  action: (finish: Finish<Result>) => Promise<Result>,
): Promise<Outcome> {
  const finish: Finish<Result> = async (work) => {
    let result: Result | undefined;
    await ctx.write(async (trx) => {
      result = await work(trx);
      return outcomeOf(result);
    });
    // The write resolves only after `work` has, so the result is set.
    return result!;
  };
  return mapLockTimeout(async () => outcomeOf(await action(finish)));
}

/** The answer of an action that changes the series without returning it. */
const ok = (data: unknown): Outcome => ({ status: 200, data });

export const listSeriesOperation = defineOperation({
  name: 'list_series',
  method: 'GET',
  path: '/v1/series',
  scope: 'series:read',
  idempotencyKey: 'none',
  ifMatch: 'none',
  errors: ['invalid_query_param'],
  schemas: { params: [], input: listSeriesQuerySchema, output: seriesSchema, list: true },
  parse: (call) => parseQuery(listSeriesQuerySchema, call.query),
  async run(ctx, query): Promise<ListOutcome> {
    return listOutcome(await listSeries(ctx.deps.store.db, ctx.principal, query));
  },
});

export const getSeriesOperation = defineOperation({
  name: 'get_series',
  method: 'GET',
  path: '/v1/series/:uid',
  scope: 'series:read',
  idempotencyKey: 'none',
  ifMatch: 'none',
  errors: ['series_not_found'],
  schemas: { params: ['uid'], output: seriesSchema, list: false },
  parse: (call) => ({ uid: uidOf(call.params) }),
  async run(ctx, { uid }) {
    const series = toSeries(await findVisibleSeries(ctx.deps.store.db, ctx.principal, uid));
    return { status: 200, data: series, version: series.version };
  },
});

export const createSeriesOperation = defineOperation({
  name: 'create_series',
  method: 'POST',
  path: '/v1/series',
  scope: 'series:write',
  idempotencyKey: 'required',
  ifMatch: 'none',
  errors: [
    'validation_error',
    'attendee_email_invalid',
    'count_out_of_range',
    'host_not_allowed',
    'event_type_not_found',
    'recurring_disabled',
    'event_type_inactive',
    'availability_unavailable',
    'no_dates_free',
  ],
  schemas: { params: [], input: createSeriesBodySchema, output: createSeriesResultSchema, list: false },
  parse: (call) => parseCreateSeriesBody(call.body),
  run: (ctx, body) =>
    runAction<CreateSeriesResult>(
      ctx,
      (data) => ({ status: 201, data, version: data.series.version, location: `/v1/series/${data.series.uid}` }),
      (finish) => createSeries(ctx.deps, ctx.principal, body, ctx.source, finish),
    ),
});

export const previewSeriesOperation = defineOperation({
  name: 'preview_series',
  method: 'POST',
  path: '/v1/series/preview',
  // A dry run answers only what the create may do, so it asks what the create asks.
  scope: 'series:write',
  // Nothing is written, so there is nothing to replay.
  idempotencyKey: 'none',
  ifMatch: 'none',
  errors: createSeriesOperation.errors,
  schemas: { params: [], input: createSeriesBodySchema, output: seriesPreviewSchema, list: false },
  parse: (call) => parseCreateSeriesBody(call.body),
  run: async (ctx, body) => ({ status: 200, data: await previewSeries(ctx.deps, ctx.principal, body) }),
});

export const pauseSeriesOperation = defineOperation({
  name: 'pause_series',
  method: 'POST',
  path: '/v1/series/:uid/pause',
  scope: 'series:write',
  // docs/api/choices.md: optional on pause, honoured exactly when sent.
  idempotencyKey: 'optional',
  ifMatch: 'none',
  // version_conflict: an occurrence changed (a cancel, a reschedule) while it was being held.
  errors: ['series_not_found', 'series_ended', 'series_busy', 'version_conflict'],
  schemas: { params: ['uid'], output: pauseResultSchema, list: false },
  parse: (call) => ({ uid: uidOf(call.params) }),
  run: (ctx, { uid }) => runAction<PauseResult>(ctx, ok, (finish) => pauseSeries(ctx.deps, ctx.principal, uid, finish)),
});

export const resumeSeriesOperation = defineOperation({
  name: 'resume_series',
  method: 'POST',
  path: '/v1/series/:uid/resume',
  scope: 'series:write',
  idempotencyKey: 'required',
  ifMatch: 'optional',
  errors: ['invalid_if_match', 'series_not_found', 'series_ended', 'version_conflict', 'availability_unavailable', 'series_busy'],
  schemas: { params: ['uid'], output: resumeResultSchema, list: false },
  parse: (call) => {
    const ifMatch = sentIfMatch(call);
    if (ifMatch?.kind === 'invalid') {
      throw new ScheduleError('invalid_if_match', (w) => `${w.name.if_match} must be a version, such as "3", 3 or *.`, {
        if_match: call.ifMatch,
      });
    }
    return { uid: uidOf(call.params), ifMatch };
  },
  run: (ctx, { uid, ifMatch }) => runAction<ResumeResult>(ctx, ok, (finish) => resumeSeries(ctx.deps, ctx.principal, uid, ifMatch, finish)),
});

export const endSeriesOperation = defineOperation({
  name: 'end_series',
  method: 'POST',
  path: '/v1/series/:uid/end',
  scope: 'series:write',
  idempotencyKey: 'required',
  ifMatch: 'none',
  // version_conflict: an occurrence changed (a cancel, a reschedule) while it was being canceled.
  errors: ['series_not_found', 'series_ended', 'series_busy', 'version_conflict'],
  schemas: { params: ['uid'], output: endResultSchema, list: false },
  parse: (call) => ({ uid: uidOf(call.params) }),
  run: (ctx, { uid }) => runAction<EndResult>(ctx, ok, (finish) => endSeries(ctx.deps, ctx.principal, uid, finish)),
});

export const changeSeriesHostOperation = defineOperation({
  name: 'change_series_host',
  method: 'POST',
  path: '/v1/series/:uid/host',
  scope: 'series:write',
  idempotencyKey: 'optional',
  ifMatch: 'none',
  // version_conflict: an occurrence changed (a cancel, a reschedule) while it was being moved.
  errors: [
    'validation_error',
    'series_not_found',
    'series_ended',
    'host_not_allowed',
    'availability_unavailable',
    'series_busy',
    'version_conflict',
  ],
  schemas: { params: ['uid'], input: changeHostBodySchema, output: hostChangeResultSchema, list: false },
  parse: (call) => ({ uid: uidOf(call.params), body: parseBody(changeHostBodySchema, call.body) }),
  run: (ctx, { uid, body }) =>
    runAction<HostChangeResult>(ctx, ok, (finish) => changeSeriesHost(ctx.deps, ctx.principal, uid, body.host_user_id, finish)),
});

export const updateSeriesOperation = defineOperation({
  name: 'update_series',
  method: 'PATCH',
  path: '/v1/series/:uid',
  scope: 'series:write',
  idempotencyKey: 'optional',
  ifMatch: 'required',
  errors: [
    'invalid_change',
    'validation_error',
    'series_not_found',
    'series_ended',
    'version_conflict',
    'availability_unavailable',
    'series_busy',
  ],
  schemas: { params: ['uid'], input: updateSeriesBodySchema, output: updateSeriesResultSchema, list: false },
  parse: (call) => ({ uid: uidOf(call.params), ifMatch: requiredIfMatch(call), body: parseUpdateSeriesBody(call.body) }),
  run: (ctx, { uid, ifMatch, body }) =>
    runAction<UpdateSeriesResult>(
      ctx,
      (data) => ({ status: 200, data, version: data.series.version }),
      (finish) => updateSeries(ctx.deps, ctx.principal, uid, ifMatch, body, finish),
    ),
});
