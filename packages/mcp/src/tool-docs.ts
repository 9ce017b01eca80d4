import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { OperationName } from '@schedule/core';

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
// own data (openWorldHint false), except a webhook test or redelivery,
// which POSTs to the webhook's own URL and is not idempotent: a repeat
// sends again (a rotation likewise makes another secret). Deleting a
// webhook destroys it. The MCP spec gives destructiveHint and
// idempotentHint meaning only when readOnlyHint is false, and the tool's
// title is its own field, so neither is repeated here: every `tools/list`
// spends a model's context.
const read = { readOnlyHint: true, openWorldHint: false } as const;
const write = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;
const create = { ...write, idempotentHint: false } as const;
const destroy = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false } as const;
const send = { ...create, openWorldHint: true } as const;
/** Reads a CalDAV server elsewhere: adding an account discovers it, a test reads it. */
const probe = { readOnlyHint: true, openWorldHint: true } as const;

// The arguments' own descriptions (derived from core's schemas) say what each
// argument takes, idempotency_key and if_match included, and the server's
// instructions say how paging, keys and times work; a tool's description
// says when to use it and what its answer means, and is sent on every
// `tools/list`, so it says nothing twice.

/** The API's tools: every operation but the directory's. */
type ApiToolName = Exclude<OperationName, keyof typeof DIRECTORY_TOOL_DOCS>;

/** Docs of the API tools, by tool name (README.md "The MCP server"). */
export const API_TOOL_DOCS: Record<ApiToolName, ToolDoc> = {
  find_times: {
    title: 'Find times to meet',
    description:
      "Start here to book: a few free times of a host's (or a team's) event type in the attendee's days, part of day and zone, each held 10 minutes and shown on both clocks. Book one with book_time.",
    annotations: create,
  },
  book_time: {
    title: 'Book a found time',
    description:
      "Book a find_times option by its option_id; the other options' holds are let go. Answers the booking on both clocks and warnings to pass on.",
    annotations: create,
  },
  list_bookings: {
    title: 'List bookings',
    description:
      'Bookings the caller can see (theirs, or of people they manage or administer), a page at a time; filter by status, host, event type, attendee, series or dates.',
    annotations: read,
  },
  get_booking: {
    title: 'Get a booking',
    description:
      "One booking with its form answers and version (update_booking's if_match). Unknown and invisible uids both answer booking_not_found.",
    annotations: read,
  },
  create_booking: {
    title: 'Book a meeting',
    description:
      "Book one meeting with an event type's owner. start must be a free slot (list_slots, check_slot), else slot_unavailable. Keep the idempotency_key for retries.",
    annotations: create,
  },
  cancel_booking: {
    title: 'Cancel a booking',
    description:
      'Cancel a booking that has not started (else booking_in_past); the reason is passed on. Canceling again answers it unchanged.',
    annotations: destroy,
  },
  confirm_booking: {
    title: 'Confirm a pending booking',
    description:
      'Confirm a pending booking as its host or for them; it already holds its time. Not pending, or its start has come: booking_not_pending.',
    annotations: write,
  },
  decline_booking: {
    title: 'Decline a pending booking',
    description:
      'Decline a pending booking as its host or for them; its time is free again, the reason passed on. Not pending: booking_not_pending.',
    annotations: destroy,
  },
  reassign_booking: {
    title: 'Reassign a round-robin booking',
    description:
      'Hand a booking of a round-robin event type to another free host of its pool: host_user_id, or the next by the fairness rule. Same uid and time.',
    annotations: write,
  },
  reschedule_booking: {
    title: 'Reschedule a booking',
    description:
      'Move a confirmed booking to another free start, keeping its uid and length, if its event type allows. A series occurrence stays in its series.',
    annotations: write,
  },
  update_booking: {
    title: 'Update a booking',
    description:
      'Change metadata, responses or attendee_name; any other field is field_immutable (reschedule_booking moves, cancel_booking ends).',
    annotations: write,
  },
  mark_no_show: {
    title: 'Record a no-show',
    description:
      'Record that the attendee did not come to a booking that has started (else booking_not_started), with an optional reason. Marking again answers it unchanged.',
    annotations: write,
  },
  clear_no_show: {
    title: 'Clear a no-show',
    description:
      'Take back a no-show mark (no_show_at and no_show_reason become null). Clearing a booking without one answers it unchanged.',
    annotations: write,
  },
  list_series: {
    title: 'List recurring series',
    description:
      'Recurring series the caller can see, newest first, a page at a time. Their occurrences are bookings: list_bookings with series_id.',
    annotations: read,
  },
  get_series: {
    title: 'Get a series',
    description: 'One series: its pattern, status and version (the if_match of update_series and resume_series).',
    annotations: read,
  },
  create_series: {
    title: 'Create a recurring series',
    description:
      'Book a run of meetings (the event type must have recurring on). Dates the host is not free are SKIPPED, NOT SHIFTED: the answer lists occurrences and skipped; tell the user which dates were skipped.',
    annotations: create,
  },
  preview_series: {
    title: 'Preview a recurring series',
    description:
      'Same arguments as create_series; books nothing. Answers the dates create_series would book now and each date it would skip with its cause (busy, outside_working_hours, ...), or its error. Show the user before creating.',
    annotations: read,
  },
  pause_series: {
    title: 'Pause a series',
    description:
      'Cancel every future occurrence not moved by the invitee, without mail, and owe it; resume_series books them again. superseded: another action took over midway; read the series and repeat.',
    annotations: write,
  },
  resume_series: {
    title: 'Resume a series',
    description:
      'Book one replacement per owed occurrence, at its own time if still ahead and free, else after the last. Dates not free stay owed (skipped); owed > 0 means still paused, and calling again converges.',
    annotations: write,
  },
  end_series: {
    title: 'End a series',
    description:
      'End a series for good: future occurrences are canceled with one notice to the attendee; past ones stay. Irreversible (series_ended after).',
    annotations: destroy,
  },
  change_series_host: {
    title: 'Move a series to another host',
    description:
      'Move every future occurrence, then the series, to host_user_id. stopped_by says why it stopped early; what moved stays moved, and a repeat goes on once the cause is fixed.',
    annotations: write,
  },
  update_series: {
    title: 'Change a series',
    description:
      'Change the pattern (frequency, interval_weeks, weekdays, time), location_url or notify_invitee. A pattern change holds what it no longer generates and books replacements (resumed); other fields are invalid_change.',
    annotations: write,
  },
  list_slots: {
    title: 'Find free slots',
    description:
      'Free start times of an event type from start to end (at most 31 days). The text lists them per day in timezone with the offset to book by; the structured answer has them in UTC.',
    annotations: read,
  },
  check_slot: {
    title: 'Check one time',
    description: 'Whether one exact start can be booked; if not, the reason and next_available within the next 7 days (or null).',
    annotations: read,
  },
  create_hold: {
    title: 'Hold a time',
    description:
      'Keep one free start for you while someone decides: busy for everyone else until expires_at (ttl_seconds, default 600). Book it with create_booking and hold_id.',
    annotations: create,
  },
  release_hold: {
    title: 'Release a hold',
    description: 'Free a time you held (create_hold) at once, when it will not be booked.',
    annotations: destroy,
  },
  list_webhooks: {
    title: 'List webhooks',
    description: "Your own webhooks (never anyone else's), newest first: url, events, status (active, paused, disabled) and failures.",
    annotations: read,
  },
  get_webhook: {
    title: 'Get a webhook',
    description: "One of your webhooks and its version (update_webhook's if_match). The secret is never shown again.",
    annotations: read,
  },
  create_webhook: {
    title: 'Create a webhook',
    description:
      'Send events (names in events, no wildcard) to url as signed POSTs. The answer has secret, shown ONLY this once: give it to the user to verify signatures.',
    annotations: create,
  },
  update_webhook: {
    title: 'Change, pause or resume a webhook',
    description:
      'Change url, events, description, or status: paused stops it (events meanwhile are missed), active resumes from new events and clears failures.',
    annotations: write,
  },
  delete_webhook: {
    title: 'Delete a webhook',
    description: 'Delete a webhook and its delivery history; nothing more is sent to it. Irreversible.',
    annotations: destroy,
  },
  rotate_webhook_secret: {
    title: 'Rotate a webhook secret',
    description: 'New secret, shown only in this answer; the old one keeps signing for 24 hours so the receiver can switch.',
    annotations: create,
  },
  list_webhook_deliveries: {
    title: 'List webhook deliveries',
    description: "A webhook's recent deliveries, newest first: event, status, attempts, last HTTP status, answer or error.",
    annotations: read,
  },
  redeliver_webhook_delivery: {
    title: 'Redeliver an event',
    description:
      'Send one delivery again now, retries counted afresh. Same webhook-id and event, so a receiver that deduplicates may skip it. Webhook must be active.',
    annotations: send,
  },
  test_webhook: {
    title: 'Send a test event',
    description:
      'Queue a webhook.test event to this webhook only, to check the receiver; see it in list_webhook_deliveries. Webhook must be active.',
    annotations: send,
  },
  list_calendars: {
    title: 'List calendar accounts',
    description:
      "Your CalDAV accounts (or user's): server, username, busy calendars, book_into, source (api or workspace). Never passwords.",
    annotations: read,
  },
  get_calendar: {
    title: 'Get a calendar account',
    description: 'One CalDAV account by id (cal_…). Never its password.',
    annotations: read,
  },
  add_calendar: {
    title: 'Add a CalDAV account',
    description:
      'Connect a CalDAV server by URL, username and (app) password; calendars are discovered and checked first, nothing stored on failure.',
    annotations: send,
  },
  remove_calendar: {
    title: 'Remove a calendar account',
    description: 'Remove an account added through the API; workspace-file accounts are refused (calendar_from_workspace).',
    annotations: destroy,
  },
  test_calendar: {
    title: 'Test a calendar account',
    description: 'Read the account now: its event calendars, which block time and which gets bookings, or why it cannot be read.',
    annotations: probe,
  },
  resync_calendar: {
    title: 'Write bookings to the calendar again',
    description: "Queue calendar events to be written again, one booking's or a host's failed ones, e.g. after fixing a password.",
    annotations: write,
  },
  list_time_off: {
    title: 'List time off',
    description: "A person's time off (user_id me for yourself), earliest first; from/to keep ranges overlapping that window.",
    annotations: read,
  },
  get_time_off: {
    title: 'Get time off',
    description: 'One range of time off and its version (update_time_off if_match).',
    annotations: read,
  },
  create_time_off: {
    title: 'Add time off',
    description:
      'Block a person for every event type: start/end instants, or whole days with start_date (end_date, inclusive, defaults to it) in their zone. Existing bookings stay.',
    annotations: create,
  },
  update_time_off: {
    title: 'Change time off',
    description: 'Move either end (start or start_date, end or end_date) or change the reason of one range.',
    annotations: write,
  },
  delete_time_off: {
    title: 'Remove time off',
    description: 'Remove a range; its time is free again for new bookings.',
    annotations: destroy,
  },
  get_person: {
    title: 'Get a person',
    description: "One person you may act for (user_id, username or me): role, manages, deactivated_at, version (update_person's if_match).",
    annotations: read,
  },
  create_person: {
    title: 'Add a person',
    description: 'Admins and owners: add a person to the organization. Give them a first token with create_token and user_id.',
    annotations: create,
  },
  update_person: {
    title: 'Change a person',
    description: 'Name, email, timezone: your own or those you act for. Role and manages: admins and owners; an owner only by an owner.',
    annotations: write,
  },
  deactivate_person: {
    title: 'Deactivate a person',
    description: 'Admins and owners: their tokens stop and their event types take no bookings; bookings and series stay. Reversible.',
    annotations: write,
  },
  reactivate_person: {
    title: 'Reactivate a person',
    description: 'Admins and owners: undo deactivate_person; their tokens not revoked work again.',
    annotations: write,
  },
  list_tokens: {
    title: 'List your tokens',
    description: 'Your own access tokens, oldest first: name, scopes, expiry, revoked_at. Never secrets.',
    annotations: read,
  },
  get_token: {
    title: 'Get a token',
    description: 'One of your tokens by id. Never its secret.',
    annotations: read,
  },
  create_token: {
    title: 'Create a token',
    description:
      'A new personal access token with scopes this token holds. secret is shown ONLY this once: hand it to the user, do not repeat it.',
    annotations: create,
  },
  revoke_token: {
    title: 'Revoke a token',
    description: 'Revoke one of your tokens now; calls with it fail from then on. Irreversible.',
    annotations: destroy,
  },
  get_event_type: {
    title: 'Get an event type',
    description: 'One event type whole: every setting, location, questions, version (update_event_type if_match); archived ones too.',
    annotations: read,
  },
  create_event_type: {
    title: 'Create an event type',
    description: 'A new bookable type for you or owner (someone you act for); slug unique per owner. Unsent settings take defaults.',
    annotations: create,
  },
  update_event_type: {
    title: 'Change an event type',
    description: 'Send only what changes; status off stops bookings. Existing bookings keep their times; a new slug keeps the id.',
    annotations: write,
  },
  delete_event_type: {
    title: 'Archive an event type',
    description: 'No longer listed or bookable, slug free for reuse; its bookings and series stay.',
    annotations: destroy,
  },
  get_availability: {
    title: 'Get working hours',
    description:
      "A person's weekly hours, zone and date overrides, as slots use them (user_id: an id, username or me), with version (replace_availability's if_match).",
    annotations: read,
  },
  replace_availability: {
    title: 'Replace working hours',
    description:
      'Replace the whole document: weekly hours, timezone, overrides. Overlapping or touching intervals are merged. Slots change at once; bookings stay.',
    annotations: write,
  },
  add_availability_override: {
    title: 'Set one date’s hours',
    description: "Set one date's hours (intervals [] = a day off), replacing any override of that date; other dates keep theirs.",
    annotations: write,
  },
  remove_availability_override: {
    title: 'Remove a date override',
    description: "Remove one date's override; the date gets its weekday's hours again. No override there: not_found.",
    annotations: destroy,
  },
};

/** Docs of the directory tools (also resources, for clients that read them). */
export const DIRECTORY_TOOL_DOCS = {
  whoami: {
    title: 'Who am I',
    description:
      'Who this token acts as: id, name, time zone, role, scopes, and for whom. Read it first: whose calendar you book, which zone to speak in.',
    annotations: read,
  },
  list_people: {
    title: 'List people',
    description: "The people the caller may act for, with user_id and username (a series' host_user_id or host_username) and time zone.",
    annotations: read,
  },
  list_event_types: {
    title: 'List event types',
    description:
      'The event types the caller can book, with id (event_type_id), owner, duration, whether recurring is on, notice and horizon.',
    annotations: read,
  },
} satisfies Partial<Record<OperationName, ToolDoc>>;

/** Every tool's docs, by tool name: a Record over the names, so an operation without docs does not compile. */
export const TOOL_DOCS: Record<OperationName, ToolDoc> = { ...API_TOOL_DOCS, ...DIRECTORY_TOOL_DOCS };

/** The `toolsets` tool (toolsets-tool.ts): not an endpoint, the connection's own. */
export const TOOLSETS_TOOL_DOC: ToolDoc = {
  title: 'List and switch on toolsets',
  description: 'The toolsets beyond booking, which are on, and their tools; enable switches more on for this connection.',
  annotations: write,
};
