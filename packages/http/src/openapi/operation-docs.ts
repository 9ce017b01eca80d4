import type { OperationName } from '@schedule/core';
import * as example from './examples.js';

/** The groups the document lists operations under, with what each holds. */
export const TAGS = {
  Series: 'Recurring series: a pattern that books a run of occurrences for one attendee. Occurrences are bookings.',
  Bookings: 'One meeting between a host and an attendee on an event type; series occurrences too.',
  Slots: 'Start times at which an event type can be booked, computed on request and never stored.',
  Webhooks:
    'Subscriptions of the caller’s own account to events, delivered as signed POSTs (docs/webhooks.md); their secrets and deliveries.',
  Calendars:
    'CalDAV accounts of the people the caller acts for: where busy times are read and bookings written (docs/calendars.md). Passwords are sealed and never shown.',
  EventTypes:
    'What can be booked and how: duration, rules, location, booking form. Changing one changes future slots, never existing bookings.',
  Availability:
    'When a person can be booked: weekly working hours, their zone and date overrides (docs/api/availability.md), and time off (docs/api/time-off.md), as slots, checks and bookings read them.',
  Directory: 'Who the caller is, whom it may act for, and what it can book. Any valid token may read them.',
  People:
    'The people of the organization and the caller’s own access tokens (docs/api/people.md): admins and owners add, change and deactivate people; everyone edits their profile and tokens.',
  Meta: 'This document, and the probes an orchestrator calls. No token, no rate limit.',
  OAuth:
    'The authorization server: discovery, the authorization code flow with PKCE, tokens, revocation, introspection, client registration (docs/oauth.md).',
} as const;

export type Tag = keyof typeof TAGS;

/** What the document says about one operation beyond what the registry declares. */
export interface OperationDoc {
  readonly tag: Tag;
  readonly summary: string;
  /** Markdown, in the project's words; docs/api/endpoints.md has the long form. */
  readonly description: string;
  /** The name of the component its `data` (a list's items) is shown as. */
  readonly resource: string;
  /** The success carries the resource's version as `ETag` (requests.md "Where ETag appears"). */
  readonly etag?: boolean;
  /** The success is `201 Created` with a `Location`. */
  readonly created?: boolean;
  /** The success is `202 Accepted`: something was queued (a webhook delivery). */
  readonly accepted?: boolean;
  /** The request body may be left out (a cancel without a reason). */
  readonly optionalBody?: boolean;
  /** The component its request body is shown as, when it takes another operation's body; else `<Name>Body`. */
  readonly body?: string;
  /** A request body, as a client would send it. */
  readonly requestExample?: unknown;
  /** The success's `data`: the object, or one item of a list. */
  readonly responseExample: unknown;
}

const RANGE = 'Unknown query parameters are ignored.';

/** Every operation's doc, by name: a new operation without one does not compile. */
export const OPERATION_DOCS: Record<OperationName, OperationDoc> = {
  list_series: {
    tag: 'Series',
    summary: 'List series',
    description: `The series whose host the caller may act for, newest first (\`created_at\`, then \`uid\`, both descending). ${RANGE}`,
    resource: 'Series',
    responseExample: example.SERIES,
  },
  get_series: {
    tag: 'Series',
    summary: 'Get a series',
    description: 'One series, with its version as `ETag`. Its occurrences are bookings: `GET /v1/bookings?series_id=<uid>`.',
    resource: 'Series',
    etag: true,
    responseExample: example.SERIES,
  },
  create_series: {
    tag: 'Series',
    summary: 'Create a series',
    description: [
      'Creates a series and, in the same transaction, books every candidate date on which the host is free.',
      'Dates on which the host is not free come back in `skipped` and are never moved to another time;',
      '`occurrences` and `skipped` together hold exactly `count` entries, in time order.',
      'Name the host by `host_user_id` or `host_username`, the event type by `event_type_id` or `username` + `event_slug`.',
      'A body field it does not take is refused, `400 validation_error` naming it.',
    ].join(' '),
    resource: 'CreateSeriesResult',
    etag: true,
    created: true,
    requestExample: example.CREATE_SERIES_BODY,
    responseExample: example.CREATED_SERIES,
  },
  preview_series: {
    tag: 'Series',
    summary: 'Preview a series',
    description: [
      'Takes the body of `POST /v1/series` and answers what that create would do now, writing nothing:',
      'the dates it would book, and each date it would skip with its `cause`; or the very error the create would answer',
      '(`409 no_dates_free` lists every date and its cause). Nothing is held, so a booking made before the create can still take a date.',
      'Needs `series:write`, as the create does; no Idempotency-Key.',
    ].join(' '),
    resource: 'SeriesPreview',
    body: 'CreateSeriesBody',
    requestExample: example.CREATE_SERIES_BODY,
    responseExample: example.SERIES_PREVIEW,
  },
  pause_series: {
    tag: 'Series',
    summary: 'Pause a series',
    description: [
      'No body. Holds every future occurrence that is still confirmed and was not moved by the invitee:',
      'it is canceled without mail to the attendee, and the series owes a replacement. `held` counts what this call held;',
      'pausing a paused series holds whatever was left. `superseded: true` means another action took the series over part way.',
    ].join(' '),
    resource: 'PauseResult',
    responseExample: example.PAUSED,
  },
  resume_series: {
    tag: 'Series',
    summary: 'Resume a series',
    description: [
      'No body. Books one replacement for each owed occurrence where the host is free; the series becomes `active` once nothing is owed.',
      '`skipped` lists targets at which the host was not free, which stay owed; `owed` is what is still owed after this call.',
      'With If-Match, the resume is refused if the series changed since you read it.',
    ].join(' '),
    resource: 'ResumeResult',
    responseExample: example.RESUMED,
  },
  end_series: {
    tag: 'Series',
    summary: 'End a series',
    description: [
      'No body. Ends the series for good: every future confirmed occurrence is canceled and nothing stays owed.',
      'One notice listing the canceled dates goes to the attendee, unless `notify_invitee` is false or nothing was canceled.',
    ].join(' '),
    resource: 'EndResult',
    responseExample: example.ENDED,
  },
  change_series_host: {
    tag: 'Series',
    summary: 'Move a series to another host',
    description: [
      'Moves each future confirmed occurrence to the new host, then the series itself. `stopped_by` is null when everything moved;',
      'otherwise it says why the call stopped early (`no_writable_calendar`, `slot_unavailable`, `superseded`).',
      'What moved stays moved, and the series keeps its old host.',
    ].join(' '),
    resource: 'HostChangeResult',
    requestExample: example.CHANGE_HOST_BODY,
    responseExample: example.HOST_CHANGED,
  },
  update_series: {
    tag: 'Series',
    summary: 'Change a series',
    description: [
      'Changes the pattern (`frequency`, `interval_weeks`, `weekdays`, `time`), the fixed link or `notify_invitee`. Send only what changes.',
      'A pattern change holds every future occurrence the new pattern no longer yields (unless the invitee moved it),',
      'then books replacements as a resume would; `resumed` reports that step and is null when no pattern field was sent.',
    ].join(' '),
    resource: 'UpdateSeriesResult',
    etag: true,
    requestExample: example.UPDATE_SERIES_BODY,
    responseExample: example.UPDATED_SERIES,
  },
  list_bookings: {
    tag: 'Bookings',
    summary: 'List bookings',
    description: [
      'The bookings whose host the caller may act for, one page at a time. Items have `responses: null`.',
      'For a catch-up sweep, page with `updated_since` and `sort=updated_at_asc` (requests.md "The catch-up sweep").',
      RANGE,
    ].join(' '),
    resource: 'Booking',
    responseExample: { ...example.BOOKING, responses: null },
  },
  get_booking: {
    tag: 'Bookings',
    summary: 'Get a booking',
    description: 'One booking with its form answers, and its version as `ETag`. Uids are matched regardless of case.',
    resource: 'Booking',
    etag: true,
    responseExample: example.BOOKING,
  },
  create_booking: {
    tag: 'Bookings',
    summary: 'Book a meeting',
    description: [
      'Books the event type’s owner at `start`, which must be a start `GET /v1/slots` would list, for the event type’s duration.',
      'Answers to the booking form go in `responses` and are checked against its questions. Keep the Idempotency-Key: a retry with it',
      'books once. A body field it does not take is refused, `400 validation_error` naming it.',
    ].join(' '),
    resource: 'Booking',
    etag: true,
    created: true,
    requestExample: example.CREATE_BOOKING_BODY,
    responseExample: example.BOOKING,
  },
  cancel_booking: {
    tag: 'Bookings',
    summary: 'Cancel a booking',
    description: [
      'Cancels a booking that has not started; the body may be omitted. A booking already canceled is answered as it is,',
      'its version not bumped and the new reason not stored.',
    ].join(' '),
    resource: 'Booking',
    etag: true,
    optionalBody: true,
    requestExample: example.CANCEL_BOOKING_BODY,
    responseExample: example.CANCELED_BOOKING,
  },
  reschedule_booking: {
    tag: 'Bookings',
    summary: 'Reschedule a booking',
    description: [
      'Moves a confirmed booking in place: same uid, new start and end, same duration, version bumped.',
      'Its own current time does not count against the new one. Moving a series occurrence marks it as moved by the invitee.',
    ].join(' '),
    resource: 'Booking',
    etag: true,
    requestExample: example.RESCHEDULE_BOOKING_BODY,
    responseExample: { ...example.BOOKING, version: 2, start_at: '2026-12-09T13:00:00.000Z', end_at: '2026-12-09T13:30:00.000Z' },
  },
  update_booking: {
    tag: 'Bookings',
    summary: 'Change a booking’s notes',
    description: [
      'Changes `metadata` (merged one level deep), `responses` (replaced whole) or `attendee_name`; never the time or status.',
      'Any other key is `422 field_immutable`. Every success bumps the version, even when nothing stored changed.',
    ].join(' '),
    resource: 'Booking',
    etag: true,
    requestExample: example.UPDATE_BOOKING_BODY,
    responseExample: { ...example.BOOKING, version: 2, metadata: { utm_source: 'newsletter', crm_id: '42' } },
  },
  list_slots: {
    tag: 'Slots',
    summary: 'List free slots',
    description: [
      'The starts at which the event type can be booked in a window of at most 31 days, computed from the owner’s working hours,',
      'the slot grid, notice, horizon, buffers, confirmed bookings and conflict calendars. Not paged; an event type that is off has none.',
    ].join(' '),
    resource: 'SlotList',
    responseExample: example.SLOTS,
  },
  check_slot: {
    tag: 'Slots',
    summary: 'Check one start',
    description: [
      'Whether one exact start can be booked. When it cannot, `reason` is the first that applies and `next_available`',
      'the first free start in the 7 days after the checked end, or null.',
    ].join(' '),
    resource: 'SlotCheck',
    responseExample: example.SLOT_TAKEN,
  },
  list_webhooks: {
    tag: 'Webhooks',
    summary: 'List webhooks',
    description:
      'The caller’s own webhooks, newest first (`created_at`, then `id`, both descending). Secrets are never shown. Admins see only their own too.',
    resource: 'Webhook',
    responseExample: example.WEBHOOK,
  },
  get_webhook: {
    tag: 'Webhooks',
    summary: 'Get a webhook',
    description: 'One of the caller’s webhooks, with its version as `ETag`. Another account’s answers 404 like an unknown one.',
    resource: 'Webhook',
    etag: true,
    responseExample: example.WEBHOOK,
  },
  create_webhook: {
    tag: 'Webhooks',
    summary: 'Create a webhook',
    description: [
      'Subscribes the caller’s account to the events named in `events` (no wildcard), POSTed to `url` and signed as Standard Webhooks does.',
      'The answer holds `secret`, shown this once. A `url` naming a private, loopback or link-local address (or `localhost`) is refused',
      'unless the server allows such targets. It receives only bookings and series its owner may see. A body field it does not take is refused, `400 validation_error` naming it.',
    ].join(' '),
    resource: 'WebhookWithSecret',
    etag: true,
    created: true,
    requestExample: example.CREATE_WEBHOOK_BODY,
    responseExample: example.CREATED_WEBHOOK,
  },
  update_webhook: {
    tag: 'Webhooks',
    summary: 'Change, pause or resume a webhook',
    description: [
      'Changes `url`, `events`, `description` or `status`; send only what changes, any other key is refused.',
      '`status: "paused"` stops deliveries and ends the pending ones (events meanwhile are missed);',
      '`status: "active"` resumes from new events, also after a pause by failures or a 410, and clears the failure count.',
      'Every success bumps the version.',
    ].join(' '),
    resource: 'Webhook',
    etag: true,
    requestExample: example.UPDATE_WEBHOOK_BODY,
    responseExample: example.PAUSED_WEBHOOK,
  },
  delete_webhook: {
    tag: 'Webhooks',
    summary: 'Delete a webhook',
    description:
      'Deletes the webhook with all its deliveries, pending or done, and answers it as it was. Nothing is sent to it afterwards.',
    resource: 'Webhook',
    responseExample: example.WEBHOOK,
  },
  rotate_webhook_secret: {
    tag: 'Webhooks',
    summary: 'Rotate a webhook’s secret',
    description: [
      'No body. Gives the webhook a new `secret`, shown in this answer only. The previous secret signs too for 24 hours,',
      'so the receiver can switch without missing a delivery. Bumps the version.',
    ].join(' '),
    resource: 'WebhookWithSecret',
    etag: true,
    responseExample: example.ROTATED_WEBHOOK,
  },
  list_webhook_deliveries: {
    tag: 'Webhooks',
    summary: 'List a webhook’s deliveries',
    description: [
      'Recent deliveries of one webhook, newest first (`created_at`, then `id`, both descending), with their attempts,',
      'last status code and the start of the last answer; `status` filters them.',
      RANGE,
    ].join(' '),
    resource: 'Delivery',
    responseExample: example.DELIVERY,
  },
  redeliver_webhook_delivery: {
    tag: 'Webhooks',
    summary: 'Send a delivery again',
    description: [
      'No body. Makes the delivery due now with its attempts counted from zero. It keeps its id, so the receiver gets the same',
      '`webhook-id` and event again: one that deduplicates by `webhook-id` ignores it unless it allows replays. The webhook must be active.',
    ].join(' '),
    resource: 'Delivery',
    accepted: true,
    responseExample: {
      ...example.DELIVERY,
      status: 'pending',
      attempts: 0,
      next_attempt_at: '2026-11-26T09:00:00.000Z',
      delivered_at: null,
    },
  },
  test_webhook: {
    tag: 'Webhooks',
    summary: 'Send a test event',
    description:
      'No body. Queues a `webhook.test` event to this webhook alone, whatever it subscribes to: `data` is `{ "webhook_id" }`. The webhook must be active.',
    resource: 'Delivery',
    accepted: true,
    responseExample: example.QUEUED_DELIVERY,
  },
  list_calendars: {
    tag: 'Calendars',
    summary: 'List calendar accounts',
    description: [
      'The CalDAV accounts of the caller, or of `user` (one the caller acts for; anyone else gives an empty list):',
      'the workspace file’s first, then those added through the API in the order they were added. One page. Passwords are never shown.',
    ].join(' '),
    resource: 'CalendarAccount',
    responseExample: example.CALENDAR_ACCOUNT,
  },
  get_calendar: {
    tag: 'Calendars',
    summary: 'Get a calendar account',
    description: 'One CalDAV account of someone the caller acts for. Its password is never shown.',
    resource: 'CalendarAccount',
    responseExample: example.CALENDAR_ACCOUNT,
  },
  add_calendar: {
    tag: 'Calendars',
    summary: 'Add a CalDAV account',
    description: [
      'Discovers the account from `url` (principal, calendar home, calendars) with the credentials given, checks the calendars',
      '`busy_calendars` and `book_into` name, and only then stores it, the password sealed with the server’s calendar key.',
      'Nothing is stored when the server is unreachable, is not CalDAV, refuses the credentials or lacks a named calendar.',
      'A body field it does not take is refused, `400 validation_error` naming it.',
    ].join(' '),
    resource: 'CalendarAccount',
    created: true,
    requestExample: example.ADD_CALENDAR_BODY,
    responseExample: example.CALENDAR_ACCOUNT,
  },
  remove_calendar: {
    tag: 'Calendars',
    summary: 'Remove a calendar account',
    description: [
      'Removes an account added through the API and answers it as it was; events already written to it stay there.',
      'The workspace file’s own accounts are refused: the file would bring them back.',
    ].join(' '),
    resource: 'CalendarAccount',
    responseExample: example.CALENDAR_ACCOUNT,
  },
  test_calendar: {
    tag: 'Calendars',
    summary: 'Test a calendar account',
    description: [
      'No body. Reads the account now, as availability and calendar sync will, and lists its event calendars with which block',
      'time and which takes bookings. Changes nothing. A failure is the refusal adding it would give.',
    ].join(' '),
    resource: 'CalendarAccountTest',
    responseExample: example.CALENDAR_TEST,
  },
  resync_calendar: {
    tag: 'Calendars',
    summary: 'Write bookings to the calendar again',
    description: [
      'Queues calendar writes again, each with the whole retry schedule: one booking’s (`booking_uid`, whatever its',
      '`calendar_sync_status`), or every `failed` one of a host (`user`, yourself when left out), the oldest 500 per call.',
      'Each booking is `pending` until its event is written (or removed, for a canceled one). With an empty body: your own failed ones.',
    ].join(' '),
    resource: 'CalendarResync',
    accepted: true,
    optionalBody: true,
    requestExample: example.RESYNC_CALENDAR_BODY,
    responseExample: example.CALENDAR_RESYNC,
  },
  get_availability: {
    tag: 'Availability',
    summary: 'Get working hours',
    description: [
      'The working hours of `user_id` (a user id, a username, or `me`), whom the caller may act for, with their version as `ETag`.',
      'A person with none written answers the hours used, around the clock, with `default: true` and version 0.',
    ].join(' '),
    resource: 'WorkingHours',
    etag: true,
    responseExample: example.WORKING_HOURS,
  },
  replace_availability: {
    tag: 'Availability',
    summary: 'Replace working hours',
    description: [
      'Replaces the whole document; `If-Match` must name the version read. Each day’s intervals are sorted, and overlapping',
      'or touching ones merged, as availability reads them. Slots change at once; existing bookings stay.',
    ].join(' '),
    resource: 'WorkingHours',
    etag: true,
    requestExample: example.REPLACE_WORKING_HOURS_BODY,
    responseExample: example.WORKING_HOURS,
  },
  add_availability_override: {
    tag: 'Availability',
    summary: 'Set one date’s hours',
    description: 'Adds the override of `date`, or replaces the one there; `intervals: []` is a day off. Answers the whole document.',
    resource: 'WorkingHours',
    etag: true,
    requestExample: example.ADD_OVERRIDE_BODY,
    responseExample: example.WORKING_HOURS,
  },
  remove_availability_override: {
    tag: 'Availability',
    summary: 'Remove a date override',
    description: 'The date gets its weekday’s hours again. `404 not_found` when it has no override. Answers the whole document.',
    resource: 'WorkingHours',
    etag: true,
    responseExample: example.WORKING_HOURS,
  },
  whoami: {
    tag: 'Directory',
    summary: 'Who am I',
    description: 'The caller: its user, role, credential, sorted scopes and whom it may act for. Takes no query parameters.',
    resource: 'Caller',
    responseExample: example.CALLER,
  },
  list_people: {
    tag: 'Directory',
    summary: 'List people',
    description: 'The people the caller may act for, by username.',
    resource: 'Person',
    responseExample: example.PERSON,
  },
  list_event_types: {
    tag: 'Directory',
    summary: 'List event types',
    description: 'The event types whose owner the caller may act for, by owner username and then slug, with their booking forms.',
    resource: 'EventType',
    responseExample: example.EVENT_TYPE,
  },
  list_time_off: {
    tag: 'Availability',
    summary: 'List time off',
    description: [
      'A person’s time off (`me`, a user id or a username), earliest start first (`start_at`, then `id`).',
      '`from` and `to` keep the ranges overlapping that window.',
    ].join(' '),
    resource: 'TimeOff',
    responseExample: example.TIME_OFF,
  },
  get_time_off: {
    tag: 'Availability',
    summary: 'Get time off',
    description: 'One range of a person’s time off, with its version as `ETag`.',
    resource: 'TimeOff',
    etag: true,
    responseExample: example.TIME_OFF,
  },
  create_time_off: {
    tag: 'Availability',
    summary: 'Add time off',
    description: [
      'Adds a range that is busy time for every event type of the person: `start` and `end` instants, or whole days',
      '(`start_date`, and `end_date` inclusive, defaulting to it) in the zone of their working hours. At most 366 days.',
      'Bookings already inside it stay; slots, checks, bookings and series skip it. Sends `time_off.created`.',
    ].join(' '),
    resource: 'TimeOff',
    etag: true,
    created: true,
    requestExample: example.CREATE_TIME_OFF_BODY,
    responseExample: example.TIME_OFF,
  },
  update_time_off: {
    tag: 'Availability',
    summary: 'Change time off',
    description:
      'Each field sent replaces one end (`start` or `start_date`, `end` or `end_date`) or the `reason`; the range that results is checked whole. Bumps the version.',
    resource: 'TimeOff',
    etag: true,
    requestExample: example.UPDATE_TIME_OFF_BODY,
    responseExample: example.MOVED_TIME_OFF,
  },
  delete_time_off: {
    tag: 'Availability',
    summary: 'Remove time off',
    description: 'Removes the range and answers it as it was; its time is free again. Sends `time_off.deleted`.',
    resource: 'TimeOff',
    responseExample: example.TIME_OFF,
  },
  get_person: {
    tag: 'People',
    summary: 'Get a person',
    description:
      'One person the caller may act for, by user id, username or `me`, with their version as `ETag`. Anyone else answers 404 like an unknown person.',
    resource: 'PersonDetail',
    etag: true,
    responseExample: example.PERSON_DETAIL,
  },
  create_person: {
    tag: 'People',
    summary: 'Add a person',
    description:
      'Admins and owners add a person (an owner only by an owner). A taken username is `409 username_taken`. They get a first token through `POST /v1/tokens` with `user_id`.',
    resource: 'PersonDetail',
    etag: true,
    created: true,
    requestExample: example.CREATE_PERSON_BODY,
    responseExample: example.NEW_PERSON,
  },
  update_person: {
    tag: 'People',
    summary: 'Change a person',
    description: [
      'Name, email and time zone: the person or whoever acts for them. Role and manages: admins and owners; an owner is changed only by an owner.',
      'The last active owner keeps the role (`409 last_owner`); `username` and other fields are `422 field_immutable`.',
    ].join(' '),
    resource: 'PersonDetail',
    etag: true,
    requestExample: example.UPDATE_PERSON_BODY,
    responseExample: { ...example.PERSON_DETAIL, timezone: 'Europe/Lisbon', version: 2 },
  },
  deactivate_person: {
    tag: 'People',
    summary: 'Deactivate a person',
    description:
      'Admins and owners. Their tokens stop working, their event types take no bookings; bookings and series stay. Not the last active owner.',
    resource: 'PersonDetail',
    etag: true,
    responseExample: { ...example.NEW_PERSON, deactivated_at: '2026-12-02T08:00:00.000Z', version: 2 },
  },
  reactivate_person: {
    tag: 'People',
    summary: 'Reactivate a person',
    description: 'Admins and owners. Undoes a deactivation: their tokens that were not revoked work again.',
    resource: 'PersonDetail',
    etag: true,
    responseExample: { ...example.NEW_PERSON, version: 3 },
  },
  list_tokens: {
    tag: 'People',
    summary: 'List your tokens',
    description: 'The caller’s own access tokens, oldest first, revoked ones included. Never secrets.',
    resource: 'Token',
    responseExample: example.TOKEN,
  },
  get_token: {
    tag: 'People',
    summary: 'Get a token',
    description: 'One of the caller’s tokens. Another person’s answers 404 like an unknown one.',
    resource: 'Token',
    responseExample: example.TOKEN,
  },
  create_token: {
    tag: 'People',
    summary: 'Create a token',
    description: [
      'A personal access token with scopes the calling token holds, made with a personal access token (not an OAuth grant).',
      '`secret` is shown in this answer only; a replay with the same Idempotency-Key answers `secret: null`. Admins and owners may name `user_id`.',
    ].join(' '),
    resource: 'TokenWithSecret',
    created: true,
    requestExample: example.CREATE_TOKEN_BODY,
    responseExample: example.CREATED_TOKEN,
  },
  revoke_token: {
    tag: 'People',
    summary: 'Revoke a token',
    description: 'Revokes one of the caller’s tokens at once; revoking a revoked one answers it unchanged.',
    resource: 'Token',
    responseExample: { ...example.TOKEN, revoked_at: '2026-12-03T08:00:00.000Z' },
  },
  get_event_type: {
    tag: 'EventTypes',
    summary: 'Get an event type',
    description: 'One event type whole, archived ones too, with its version as `ETag`. One the caller may not act for answers 404.',
    resource: 'EventTypeDetails',
    etag: true,
    responseExample: example.FULL_EVENT_TYPE,
  },
  create_event_type: {
    tag: 'EventTypes',
    summary: 'Create an event type',
    description: [
      'Creates an event type for `owner` (a user_id or username the caller may act for; the caller when absent).',
      'Fields left out take the workspace file’s defaults. A slug the owner already uses answers `409 slug_taken`.',
    ].join(' '),
    resource: 'EventTypeDetails',
    etag: true,
    created: true,
    requestExample: example.CREATE_EVENT_TYPE_BODY,
    responseExample: example.FULL_EVENT_TYPE,
  },
  update_event_type: {
    tag: 'EventTypes',
    summary: 'Change an event type',
    description: [
      'Send only what changes; `id`, `owner`, `version` and the times answer `422 field_immutable`. A new slug keeps the id.',
      'Duration, interval and rules change future slots, never existing bookings. Every success bumps the version.',
    ].join(' '),
    resource: 'EventTypeDetails',
    etag: true,
    requestExample: example.UPDATE_EVENT_TYPE_BODY,
    responseExample: { ...example.FULL_EVENT_TYPE, duration_minutes: 45, slot_interval_minutes: 15, version: 2 },
  },
  delete_event_type: {
    tag: 'EventTypes',
    summary: 'Archive an event type',
    description: [
      'Archives: no longer listed nor bookable, its slug free for a new type; `GET` still answers it with `archived_at`.',
      'Its bookings and series stay. Deleting it again answers it unchanged.',
    ].join(' '),
    resource: 'EventTypeDetails',
    etag: true,
    responseExample: { ...example.FULL_EVENT_TYPE, version: 2, archived_at: '2026-03-02T09:00:00.000Z' },
  },
};
