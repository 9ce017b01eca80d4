import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';

/** What a model reads about a tool: its title, when and how to use it, and its hints. */
export interface ToolDoc {
  readonly title: string;
  readonly description: string;
  readonly annotations: ToolAnnotations;
}

// Hints: reads are read-only. A write is idempotent when repeating it with
// the same arguments leaves things as the first call did: cancel, end,
// pause, resume, a host change and a reschedule to the same time do; an
// update carries if_match, so its repeat is refused. Only the two creates
// are not: without the same idempotency_key a repeat books again. Cancel
// and end destroy what they touch. Nothing reaches outside this service's
// own data (openWorldHint false).
const read = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;
const write = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;
const create = { ...write, idempotentHint: false } as const;
const destroy = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false } as const;

const PAGING = 'Lists return one page (limit 1-100, default 20); pass next_cursor back as cursor for the next page while has_more is true.';
const KEYS =
  'idempotency_key: send the same key when retrying the same request and it is done once (a replay returns the first answer); a new key is a new request. One is generated when you omit it.';
const VERSION =
  'if_match is the resource version (from get_booking / get_series, the `version` field); if it changed since you read it the call fails with version_conflict: read again and retry.';
const TIMES = "Times are ISO 8601; answers are in UTC with milliseconds. Use the caller's time zone (whoami) to talk to people.";

/** Docs of the sixteen API tools, by tool name (workspace.md "The MCP server"). */
export const API_TOOL_DOCS: Record<string, ToolDoc> = {
  list_bookings: {
    title: 'List bookings',
    description: `List bookings the caller can see (their own, or the people they manage or administer), newest start first by default. Filter by status (e.g. "confirmed"), host_user_id, event_type_id, attendee_email, series_id (the occurrences of one series), start_date/end_date (inclusive bounds on start), updated_since; sort by start_at_asc etc. ${PAGING}`,
    annotations: { ...read, title: 'List bookings' },
  },
  get_booking: {
    title: 'Get a booking',
    description: `Read one booking by uid, with its form answers and its version (use the version as if_match for update_booking). Unknown and invisible uids both answer booking_not_found.`,
    annotations: { ...read, title: 'Get a booking' },
  },
  create_booking: {
    title: 'Book a meeting',
    description: `Book one meeting with an event type's owner. Name the event type by event_type_id (see list_event_types) or username + event_slug. start must be a free slot: use list_slots or check_slot first; a time off the slot grid, outside working hours, too soon (minimum notice) or too far ahead is slot_unavailable. attendee.email is required. ${KEYS} ${TIMES}`,
    annotations: { ...create, title: 'Book a meeting' },
  },
  cancel_booking: {
    title: 'Cancel a booking',
    description: `Cancel a booking that has not started; an optional reason (max 1024 chars) is passed on. Canceling an already canceled booking answers it unchanged. A booking that started is booking_in_past. ${KEYS}`,
    annotations: { ...destroy, title: 'Cancel a booking' },
  },
  reschedule_booking: {
    title: 'Reschedule a booking',
    description: `Move a confirmed booking to a new start, keeping its uid and length (the event type must allow rescheduling). Check the new time with check_slot first. An occurrence of a series moved this way stays in its series as moved by the invitee. ${KEYS} ${TIMES}`,
    annotations: { ...write, title: 'Reschedule a booking' },
  },
  update_booking: {
    title: 'Update a booking',
    description: `Change only metadata (merged), responses (replaced) or attendee_name of a booking; any other field is field_immutable (use reschedule_booking or cancel_booking instead). ${VERSION} ${KEYS}`,
    annotations: { ...write, title: 'Update a booking' },
  },
  list_series: {
    title: 'List recurring series',
    description: `List the recurring series the caller can see, newest first; filter by status (active, paused, ended; comma-separated), host_user_id, event_type_id. Occurrences are not included: use list_bookings with series_id. ${PAGING}`,
    annotations: { ...read, title: 'List recurring series' },
  },
  get_series: {
    title: 'Get a series',
    description:
      'Read one recurring series by uid: its pattern, status and version (use the version as if_match for update_series and resume_series).',
    annotations: { ...read, title: 'Get a series' },
  },
  create_series: {
    title: 'Create a recurring series',
    description: `Book a run of meetings in one call: frequency "weekly" (weekdays required, interval_weeks 1-8) or "monthly_same_day" (the day of month of starts_on; months without that day are passed over). time is HH:MM wall clock in timezone (default: the host's zone); count is 1-42. Dates the host is not free are SKIPPED, NOT SHIFTED: the answer lists what was booked (occurrences) and what was skipped, so fewer than count may be booked; tell the user which dates were skipped. host_user_id must be someone the caller may act for (see list_people); the event type must have recurring on (see list_event_types). ${KEYS}`,
    annotations: { ...create, title: 'Create a recurring series' },
  },
  pause_series: {
    title: 'Pause a series',
    description:
      'Pause a series: every future occurrence not moved by the invitee is canceled without mail and recorded as owed (held); resume_series books them again. Safe to repeat. Answers held (how many this call held) and superseded (true if another action took the series over midway: read it and repeat).',
    annotations: { ...write, title: 'Pause a series' },
  },
  resume_series: {
    title: 'Resume a series',
    description: `Book one replacement per owed occurrence: at its own time if still ahead and free, otherwise after the series' last occurrence. Dates not free stay owed (listed in skipped); owed > 0 means the series is still paused, and calling again converges. Optional if_match refuses a resume if the series changed since you read it. ${KEYS}`,
    annotations: { ...write, title: 'Resume a series' },
  },
  end_series: {
    title: 'End a series',
    description: `End a series for good: every future occurrence is canceled and the attendee gets one notice listing them; past ones stay. Irreversible: an ended series cannot be resumed or changed (series_ended). ${KEYS}`,
    annotations: { ...destroy, title: 'End a series' },
  },
  change_series_host: {
    title: 'Move a series to another host',
    description:
      'Move every future occurrence, then the series, to host_user_id (someone the caller may act for). It stops early when the new host is not free at an occurrence (stopped_by "slot_unavailable"), has no writable calendar ("no_writable_calendar"), or another action took over ("superseded"); what moved stays moved, and the call can be repeated once the cause is fixed.',
    annotations: { ...write, title: 'Move a series to another host' },
  },
  update_series: {
    title: 'Change a series',
    description: `Change a series' pattern (frequency, interval_weeks, weekdays, time), its fixed link (location_url, only if it has one) or notify_invitee. A pattern change holds the future occurrences the new pattern no longer generates and books replacements (reported in resumed); starts_on, count, the attendee and the event type cannot change (invalid_change). ${VERSION}`,
    annotations: { ...write, title: 'Change a series' },
  },
  list_slots: {
    title: 'Find free slots',
    description: `List the free start times of an event type between start (inclusive) and end (exclusive, at most 31 days later), in UTC. timezone only labels the answer. Pick from these for create_booking. ${TIMES}`,
    annotations: { ...read, title: 'Find free slots' },
  },
  check_slot: {
    title: 'Check one time',
    description:
      'Check whether one exact start can be booked for an event type. If not, the answer says why (event_type_inactive, in_past, outside_minimum_notice, outside_future_limit, slot_busy) and gives next_available within the following 7 days, or null.',
    annotations: { ...read, title: 'Check one time' },
  },
};

/** Docs of the directory tools (also resources, for clients that read them). */
export const DIRECTORY_TOOL_DOCS = {
  whoami: {
    title: 'Who am I',
    description:
      'The caller this token acts as: user id, name, email, time zone, role, scopes, and who it may act for. Read it first to know whose calendar you book and in which zone to speak.',
    annotations: { ...read, title: 'Who am I' },
  },
  list_people: {
    title: 'List people',
    description:
      'The people the caller may act for (book for, see bookings and series of): user_id, username, name, email, time zone, role. Use a user_id as host_user_id.',
    annotations: { ...read, title: 'List people' },
  },
  list_event_types: {
    title: 'List event types',
    description:
      'The event types the caller can book: id, slug, name, owner, duration, whether recurring series are allowed, minimum notice and how far ahead. Use an id as event_type_id.',
    annotations: { ...read, title: 'List event types' },
  },
} satisfies Record<string, ToolDoc>;

/** Every tool's docs, by tool name. */
export const TOOL_DOCS: Record<string, ToolDoc> = { ...API_TOOL_DOCS, ...DIRECTORY_TOOL_DOCS };
