import { prepareCalendarAccount, storeCalendarAccount } from '../calendar-accounts/add-calendar-account.js';
import {
  addCalendarAccountBodySchema,
  listCalendarAccountsQuerySchema,
  parseAddCalendarAccountBody,
  parseListCalendarAccountsQuery,
} from '../calendar-accounts/calendar-account-input.js';
import { calendarAccountSchema, calendarAccountTestSchema, toCalendarAccount } from '../calendar-accounts/calendar-account-view.js';
import { listCalendarAccounts } from '../calendar-accounts/list-calendar-accounts.js';
import { removeCalendarAccount } from '../calendar-accounts/remove-calendar-account.js';
import { testCalendarAccount } from '../calendar-accounts/test-calendar-account.js';
import { findCalendarAccount, namedUser, userNotAllowed } from '../calendar-accounts/user-calendars.js';
import { resyncBooking, resyncFailed } from '../calendar-sync/resync-calendar.js';
import { calendarResyncSchema, parseResyncCalendarBody, resyncCalendarBodySchema } from '../calendar-sync/resync-input.js';
import { toTimestamp } from '../time.js';
import { pathParam } from './call-parts.js';
import { defineOperation, type ListOutcome } from './operation.js';

// docs/calendars.md "Connecting a CalDAV account". An account belongs to a
// user; the caller acts on the accounts of the users it may act for
// (docs/api/overview.md "Roles"), its own by default.

/** What talking to the CalDAV server can answer, in docs/api/errors.md's order. */
const SERVER_ERRORS = [
  'calendar_credentials_refused',
  'calendar_not_caldav',
  'calendar_name_unknown',
  'calendar_unreachable',
  'calendar_key_missing',
  'calendar_password_unavailable',
] as const;

export const listCalendarsOperation = defineOperation({
  name: 'list_calendars',
  method: 'GET',
  path: '/v1/calendars',
  scope: 'calendars:read',
  idempotencyKey: 'none',
  ifMatch: 'none',
  errors: ['invalid_query_param'],
  schemas: { params: [], input: listCalendarAccountsQuerySchema, output: calendarAccountSchema, list: true },
  parse: (call) => parseListCalendarAccountsQuery(call.query),
  async run(ctx, query): Promise<ListOutcome> {
    // A user has a handful of accounts: one page, always the last.
    const data = await listCalendarAccounts(ctx.deps.store.db, ctx.principal, query);
    return { status: 200, data, page: { nextCursor: null, hasMore: false } };
  },
});

export const getCalendarOperation = defineOperation({
  name: 'get_calendar',
  method: 'GET',
  path: '/v1/calendars/:calendar_id',
  scope: 'calendars:read',
  idempotencyKey: 'none',
  ifMatch: 'none',
  errors: ['calendar_not_found'],
  schemas: { params: ['calendar_id'], output: calendarAccountSchema, list: false },
  parse: (call) => ({ id: pathParam(call.params, 'calendar_id') }),
  async run(ctx, { id }) {
    const { userId, calendar } = await findCalendarAccount(ctx.deps.store.db, ctx.principal, id);
    return { status: 200, data: toCalendarAccount(userId, calendar) };
  },
});

export const addCalendarOperation = defineOperation({
  name: 'add_calendar',
  method: 'POST',
  path: '/v1/calendars',
  scope: 'calendars:write',
  idempotencyKey: 'required',
  ifMatch: 'none',
  errors: ['validation_error', 'host_not_allowed', ...SERVER_ERRORS],
  schemas: { params: [], input: addCalendarAccountBodySchema, output: calendarAccountSchema, list: false },
  parse: (call) => parseAddCalendarAccountBody(call.body),
  async run(ctx, body) {
    const { clock, ids, store, calendarAccounts } = ctx.deps;
    // Discovery first, outside the transaction: a slow server never holds the database.
    const prepared = await prepareCalendarAccount(store.db, { clock, ids, accounts: calendarAccounts }, ctx.principal, body);
    return ctx.write(async (trx) => {
      const account = await storeCalendarAccount(trx, toTimestamp(clock.now()), prepared);
      return { status: 201, data: account, location: `/v1/calendars/${account.id}` };
    });
  },
});

export const removeCalendarOperation = defineOperation({
  name: 'remove_calendar',
  method: 'DELETE',
  path: '/v1/calendars/:calendar_id',
  scope: 'calendars:write',
  // A retry with the same key answers the first removal again rather than 404.
  idempotencyKey: 'optional',
  ifMatch: 'none',
  errors: ['calendar_not_found', 'calendar_from_workspace'],
  schemas: { params: ['calendar_id'], output: calendarAccountSchema, list: false },
  parse: (call) => ({ id: pathParam(call.params, 'calendar_id') }),
  async run(ctx, { id }) {
    return ctx.write(async (trx) => ({
      status: 200,
      data: await removeCalendarAccount(trx, toTimestamp(ctx.deps.clock.now()), ctx.principal, id),
    }));
  },
});

export const testCalendarOperation = defineOperation({
  name: 'test_calendar',
  method: 'POST',
  path: '/v1/calendars/:calendar_id/test',
  scope: 'calendars:read',
  // Reads the server and changes nothing, so a retry needs no key.
  idempotencyKey: 'none',
  ifMatch: 'none',
  errors: ['calendar_not_found', ...SERVER_ERRORS],
  schemas: { params: ['calendar_id'], output: calendarAccountTestSchema, list: false },
  parse: (call) => ({ id: pathParam(call.params, 'calendar_id') }),
  async run(ctx, { id }) {
    return { status: 200, data: await testCalendarAccount(ctx.deps.store.db, ctx.deps.calendarAccounts, ctx.principal, id) };
  },
});

export const resyncCalendarOperation = defineOperation({
  name: 'resync_calendar',
  method: 'POST',
  path: '/v1/calendars/resync',
  // It writes to the host's calendar and changes no booking field: a calendar manager's act (docs/api/choices.md).
  scope: 'calendars:write',
  // Queuing again is safe to repeat; a key, when sent, answers the first call again.
  idempotencyKey: 'optional',
  ifMatch: 'none',
  errors: ['validation_error', 'booking_not_found', 'host_not_allowed'],
  schemas: { params: [], input: resyncCalendarBodySchema, output: calendarResyncSchema, list: false },
  parse: (call) => parseResyncCalendarBody(call.body),
  async run(ctx, body) {
    const { store, clock } = ctx.deps;
    const { booking_uid: bookingUid } = body;
    if (bookingUid !== undefined) {
      return ctx.write(async (trx) => ({ status: 202, data: await resyncBooking(trx, clock, ctx.principal, bookingUid) }));
    }
    const userId = await namedUser(store.db, ctx.principal, body.user);
    if (userId === undefined) throw userNotAllowed();
    return ctx.write(async (trx) => ({ status: 202, data: await resyncFailed(trx, clock, userId) }));
  },
});
