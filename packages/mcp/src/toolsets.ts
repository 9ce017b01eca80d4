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
  booking: 'Who you are, whom you may act for, what can be booked; free slots; book, read, move, update and cancel single meetings.',
  series: 'Recurring series: preview, create, read, pause, resume, end, change host, update.',
  webhooks: 'Webhook subscriptions, their deliveries and their signing secret.',
  calendars: "CalDAV calendar accounts: connect, test, remove, write the bookings' events again.",
  event_types: 'Create, change, switch off and archive event types.',
  availability: 'Weekly working hours, date overrides and time off.',
  people: 'People of the organization (add, roles, managers, deactivate, profiles) and your own access tokens.',
  approvals: 'Confirm or decline pending bookings; record no-shows.',
  holds: 'Hold a free time for a few minutes while someone decides, then book it with hold_id; release it.',
  teams: 'Hand a round-robin booking to another free host of its pool.',
} as const;

export type ToolsetName = keyof typeof TOOLSETS;

const ALWAYS: ToolsetName = 'booking';

/** Which toolset each tool is in: exactly one, and a new operation cannot be left out (the record's keys are every name). */
export const TOOLSET_OF: Readonly<Record<OperationName, ToolsetName>> = {
  whoami: 'booking',
  list_people: 'booking',
  list_event_types: 'booking',
  list_slots: 'booking',
  check_slot: 'booking',
  create_hold: 'holds',
  release_hold: 'holds',
  list_bookings: 'booking',
  get_booking: 'booking',
  create_booking: 'booking',
  cancel_booking: 'booking',
  reschedule_booking: 'booking',
  update_booking: 'booking',
  mark_no_show: 'approvals',
  clear_no_show: 'approvals',
  confirm_booking: 'approvals',
  decline_booking: 'approvals',
  reassign_booking: 'teams',
  list_series: 'series',
  get_series: 'series',
  create_series: 'series',
  preview_series: 'series',
  pause_series: 'series',
  resume_series: 'series',
  end_series: 'series',
  change_series_host: 'series',
  update_series: 'series',
  list_webhooks: 'webhooks',
  get_webhook: 'webhooks',
  create_webhook: 'webhooks',
  update_webhook: 'webhooks',
  delete_webhook: 'webhooks',
  rotate_webhook_secret: 'webhooks',
  list_webhook_deliveries: 'webhooks',
  redeliver_webhook_delivery: 'webhooks',
  test_webhook: 'webhooks',
  list_calendars: 'calendars',
  get_calendar: 'calendars',
  add_calendar: 'calendars',
  remove_calendar: 'calendars',
  test_calendar: 'calendars',
  resync_calendar: 'calendars',
  list_time_off: 'availability',
  get_time_off: 'availability',
  create_time_off: 'availability',
  update_time_off: 'availability',
  delete_time_off: 'availability',
  get_person: 'people',
  create_person: 'people',
  update_person: 'people',
  deactivate_person: 'people',
  reactivate_person: 'people',
  list_tokens: 'people',
  get_token: 'people',
  create_token: 'people',
  revoke_token: 'people',
  get_event_type: 'event_types',
  create_event_type: 'event_types',
  update_event_type: 'event_types',
  delete_event_type: 'event_types',
  get_availability: 'availability',
  replace_availability: 'availability',
  add_availability_override: 'availability',
  remove_availability_override: 'availability',
};

const NAMES = Object.keys(TOOLSETS) as ToolsetName[];

/**
 * What a connection that names no toolsets gets: the four that existed
 * before toolsets did, so no client configured earlier loses a tool. The
 * self-service toolsets (`event_types`, `availability`, `people`) and `approvals` came later and are asked for by
 * name: the default's size is a budget (tool-budgets.test.ts) that new tools
 * must not spend. A client that wants a smaller context names what it needs
 * beside `booking`.
 */
export const DEFAULT_TOOLSETS: readonly ToolsetName[] = ['booking', 'series', 'webhooks', 'calendars'];

/**
 * The toolsets a connection asked for, from the `toolsets` query parameter
 * of `/mcp` or `schedule mcp --toolsets`: comma-separated names, `all`, or
 * nothing (`booking` alone). `undefined` (not asked) is the default. An
 * unknown name is refused rather than passed over: a client that misspelt
 * `series` would otherwise work without the tools it meant to have.
 */
export function parseToolsets(asked: string | undefined): readonly ToolsetName[] {
  if (asked === undefined) return DEFAULT_TOOLSETS;
  const named = asked
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (named.includes('all')) return NAMES;
  const unknown = named.filter((name) => !(NAMES as string[]).includes(name));
  if (unknown.length > 0) {
    throw new ScheduleError(
      'validation_error',
      `Unknown toolset: ${unknown.join(', ')}. Toolsets are ${NAMES.join(', ')} (or all).${didYouMean(unknown, NAMES)}`,
      { fields: ['toolsets'] },
    );
  }
  return NAMES.filter((name) => name === ALWAYS || named.includes(name));
}

/** The tools of these toolsets, in the registry's order. */
export function inToolsets(name: OperationName, toolsets: readonly ToolsetName[]): boolean {
  return toolsets.includes(TOOLSET_OF[name]);
}
