import { didYouMean, type OperationName, ScheduleError } from '@schedule/core';

/**
 * The tools in groups a connection asks for by name. Every tool costs each
 * connection its schema in the model's context (`tools/list`), whether the
 * model needs it or not; a connection that only books has no use for the
 * webhook or calendar-account tools. `booking` is always on: it is how a
 * model finds its way (who am I, whom may I act for, what can be booked) and
 * books once.
 */
export const TOOLSETS = {
  booking: 'Find a time and book it (find_times, book_time).',
  manage: 'List, move and cancel bookings.',
  directory: 'Who you are, the people and event types you may book for; read one booking, change its notes and answers.',
  slots: 'Book step by step: free slots of a window, check one start, create a booking by hand.',
  holds: 'Hold a free time for a few minutes while someone decides, then book it with hold_id; release it.',
  series: 'Recurring series: list, preview and create.',
  series_changes: 'Change a series: read, pause, resume, end, change host, update.',
  webhooks: 'Webhook subscriptions: list, read, create, change, delete.',
  webhook_deliveries: 'Webhook deliveries: list, redeliver, send a test; rotate the signing secret.',
  calendars: "CalDAV calendar accounts: connect, test, remove, write the bookings' events again.",
  event_types: 'Read and archive event types.',
  event_type_create: 'Create an event type.',
  event_type_changes: 'Change or switch off an event type.',
  availability: 'Weekly working hours and date overrides.',
  time_off: 'Time off: list, read, add, change, remove.',
  people: 'People of the organization: add, roles, managers, deactivate, profiles.',
  tokens: 'Your own access tokens: list, read, create, revoke.',
  approvals: 'Confirm or decline pending bookings; record no-shows.',
  teams: 'Hand a round-robin booking to another free host of its pool.',
} as const;

export type ToolsetName = keyof typeof TOOLSETS;

/** The essentials every connection has: finding and booking a time, and the bookings made (issue 36's default). */
const ALWAYS: readonly ToolsetName[] = ['booking', 'manage'];

/** Which toolset each tool is in: exactly one, and a new operation cannot be left out (the record's keys are every name). */
export const TOOLSET_OF: Readonly<Record<OperationName, ToolsetName>> = {
  whoami: 'directory',
  find_times: 'booking',
  book_time: 'booking',
  list_bookings: 'manage',
  reschedule_booking: 'manage',
  cancel_booking: 'manage',
  list_people: 'directory',
  list_event_types: 'directory',
  get_booking: 'directory',
  update_booking: 'directory',
  list_slots: 'slots',
  check_slot: 'slots',
  create_booking: 'slots',
  create_hold: 'holds',
  release_hold: 'holds',
  mark_no_show: 'approvals',
  clear_no_show: 'approvals',
  confirm_booking: 'approvals',
  decline_booking: 'approvals',
  reassign_booking: 'teams',
  list_series: 'series',
  create_series: 'series',
  preview_series: 'series',
  get_series: 'series_changes',
  pause_series: 'series_changes',
  resume_series: 'series_changes',
  end_series: 'series_changes',
  change_series_host: 'series_changes',
  update_series: 'series_changes',
  list_webhooks: 'webhooks',
  get_webhook: 'webhooks',
  create_webhook: 'webhooks',
  update_webhook: 'webhooks',
  delete_webhook: 'webhooks',
  rotate_webhook_secret: 'webhook_deliveries',
  list_webhook_deliveries: 'webhook_deliveries',
  redeliver_webhook_delivery: 'webhook_deliveries',
  test_webhook: 'webhook_deliveries',
  list_calendars: 'calendars',
  get_calendar: 'calendars',
  add_calendar: 'calendars',
  remove_calendar: 'calendars',
  test_calendar: 'calendars',
  resync_calendar: 'calendars',
  list_time_off: 'time_off',
  get_time_off: 'time_off',
  create_time_off: 'time_off',
  update_time_off: 'time_off',
  delete_time_off: 'time_off',
  get_person: 'people',
  create_person: 'people',
  update_person: 'people',
  deactivate_person: 'people',
  reactivate_person: 'people',
  list_tokens: 'tokens',
  get_token: 'tokens',
  create_token: 'tokens',
  revoke_token: 'tokens',
  get_event_type: 'event_types',
  create_event_type: 'event_type_create',
  update_event_type: 'event_type_changes',
  delete_event_type: 'event_types',
  get_availability: 'availability',
  replace_availability: 'availability',
  add_availability_override: 'availability',
  remove_availability_override: 'availability',
};

const NAMES = Object.keys(TOOLSETS) as ToolsetName[];

/**
 * What a connection that names no toolsets gets, and every connection has:
 * `booking` and `manage`, the tools a model books, moves and cancels with.
 * Every other toolset is a `toolsets` call away (or named in the
 * connection's URL); the default's size is a budget (tool-budgets.test.ts:
 * 16 KB) that new tools must not spend.
 */
export const DEFAULT_TOOLSETS: readonly ToolsetName[] = ALWAYS;

/**
 * The toolsets a connection asked for, from the `toolsets` query parameter
 * of `/mcp` or `schedule mcp --toolsets`: comma-separated names, `all`, or
 * nothing (`booking` alone). `undefined` (not asked) is the default. An
 * unknown name is refused rather than passed over: a client that misspelt
 * `series` would otherwise work without the tools it meant to have.
 */
export function parseToolsets(asked: string | undefined, options: { lenient?: boolean } = {}): readonly ToolsetName[] {
  if (asked === undefined) return DEFAULT_TOOLSETS;
  const named = asked
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (named.includes('all')) return NAMES;
  const unknown = named.filter((name) => !(NAMES as string[]).includes(name));
  if (unknown.length > 0 && !options.lenient) {
    throw new ScheduleError(
      'validation_error',
      `Unknown toolset: ${unknown.join(', ')}. Toolsets are ${NAMES.join(', ')} (or all).${didYouMean(unknown, NAMES)}`,
      { fields: ['toolsets'] },
    );
  }
  return NAMES.filter((name) => ALWAYS.includes(name) || named.includes(name));
}

/** Every toolset's name, in the order `toolsets` lists them. */
export const TOOLSET_NAMES: readonly ToolsetName[] = NAMES;
