import {
  addOverrideBodySchema,
  parseAddOverrideBody,
  parseOverrideDate,
  parseReplaceWorkingHoursBody,
  replaceWorkingHoursBodySchema,
} from '../availability/working-hours-input.js';
import { changeWorkingHours, findPersonHours } from '../availability/working-hours-store.js';
import { toWorkingHours, workingHoursSchema } from '../availability/working-hours-view.js';
import { ScheduleError } from '../errors.js';
import { pathParam, requiredIfMatch, sentIfMatch } from './call-parts.js';
import { defineOperation, type OperationContext } from './operation.js';

// docs/api/availability.md "Working hours": one document per person, read
// and replaced whole with If-Match, or changed one date override at a time.
// The caller acts for the person (docs/api/overview.md "Roles"): a user
// their own, a manager those managed, an admin or owner anyone.

const hoursDeps = (ctx: OperationContext) => ({ clock: ctx.deps.clock, ids: ctx.deps.ids });

/** An If-Match that was sent (absent: none), for the writes where it is optional. */

export const getAvailabilityOperation = defineOperation({
  name: 'get_availability',
  method: 'GET',
  path: '/v1/people/:user_id/availability',
  scope: 'availability:read',
  idempotencyKey: 'none',
  ifMatch: 'none',
  errors: ['host_not_allowed'],
  schemas: { params: ['user_id'], output: workingHoursSchema, list: false },
  parse: (call) => ({ userRef: pathParam(call.params, 'user_id') }),
  async run(ctx, { userRef }) {
    const hours = toWorkingHours(await findPersonHours(ctx.deps.store.db, ctx.principal, userRef));
    return { status: 200, data: hours, version: hours.version };
  },
});

export const replaceAvailabilityOperation = defineOperation({
  name: 'replace_availability',
  method: 'PUT',
  path: '/v1/people/:user_id/availability',
  scope: 'availability:write',
  idempotencyKey: 'optional',
  ifMatch: 'required',
  errors: ['validation_error', 'host_not_allowed', 'version_conflict'],
  schemas: { params: ['user_id'], input: replaceWorkingHoursBodySchema, output: workingHoursSchema, list: false },
  parse: (call) => ({
    userRef: pathParam(call.params, 'user_id'),
    ifMatch: requiredIfMatch(call),
    schedule: parseReplaceWorkingHoursBody(call.body),
  }),
  async run(ctx, { userRef, ifMatch, schedule }) {
    return ctx.write(async (trx) => {
      const hours = await changeWorkingHours(trx, hoursDeps(ctx), ctx.principal, userRef, ifMatch, () => schedule);
      return { status: 200, data: hours, version: hours.version };
    });
  },
});

export const addAvailabilityOverrideOperation = defineOperation({
  name: 'add_availability_override',
  method: 'POST',
  path: '/v1/people/:user_id/availability/overrides',
  scope: 'availability:write',
  // Adding the same date again sets the same hours: a repeat changes nothing but the version.
  idempotencyKey: 'optional',
  ifMatch: 'optional',
  errors: ['validation_error', 'host_not_allowed', 'version_conflict'],
  schemas: { params: ['user_id'], input: addOverrideBodySchema, output: workingHoursSchema, list: false },
  parse: (call) => ({
    userRef: pathParam(call.params, 'user_id'),
    ifMatch: sentIfMatch(call),
    override: parseAddOverrideBody(call.body),
  }),
  async run(ctx, { userRef, ifMatch, override }) {
    return ctx.write(async (trx) => {
      const hours = await changeWorkingHours(trx, hoursDeps(ctx), ctx.principal, userRef, ifMatch, (current) => ({
        ...current,
        // Stryker disable next-line EqualityOperator: equivalent: after the filter no two overrides share a date, so `<=` orders them as `<` does.
        overrides: [...current.overrides.filter((o) => o.date !== override.date), override].sort((a, b) => (a.date < b.date ? -1 : 1)),
      }));
      return { status: 200, data: hours, version: hours.version };
    });
  },
});

export const removeAvailabilityOverrideOperation = defineOperation({
  name: 'remove_availability_override',
  method: 'DELETE',
  path: '/v1/people/:user_id/availability/overrides/:date',
  scope: 'availability:write',
  idempotencyKey: 'optional',
  ifMatch: 'optional',
  errors: ['validation_error', 'host_not_allowed', 'not_found', 'version_conflict'],
  schemas: { params: ['user_id', 'date'], output: workingHoursSchema, list: false },
  parse: (call) => ({
    userRef: pathParam(call.params, 'user_id'),
    ifMatch: sentIfMatch(call),
    date: parseOverrideDate(pathParam(call.params, 'date')),
  }),
  async run(ctx, { userRef, ifMatch, date }) {
    return ctx.write(async (trx) => {
      const hours = await changeWorkingHours(trx, hoursDeps(ctx), ctx.principal, userRef, ifMatch, (current) => {
        if (!current.overrides.some((o) => o.date === date)) {
          throw new ScheduleError('not_found', `No override on ${date}.`, { date });
        }
        return { ...current, overrides: current.overrides.filter((o) => o.date !== date) };
      });
      return { status: 200, data: hours, version: hours.version };
    });
  },
});
