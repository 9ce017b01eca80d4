import type { ColumnType } from 'kysely';

// The values a text column may hold, each list declared once: the columns
// below are typed with them, and so are the domain's types and zod enums, so
// a row read back needs no cast.

/** docs/api/overview.md "Roles: whom a caller may act for". */
export const ROLES = ['user', 'manager', 'admin', 'owner'] as const;
export type Role = (typeof ROLES)[number];

/** An event type's `status` and `recurring` (docs/api). */
export const ON_OFF = ['on', 'off'] as const;
export type OnOff = (typeof ON_OFF)[number];

/**
 * Who may book an event type without a token (docs/api/event-types.md):
 * public ones are listed on the owner's booking page and booked from their
 * own page, hidden ones only from their own page (by its link), private ones
 * only through the API.
 */
export const VISIBILITIES = ['public', 'hidden', 'private'] as const;
export type Visibility = (typeof VISIBILITIES)[number];

/** docs/api/endpoints.md "Bookings": `status`. */
/**
 * `pending`: made on an event type that requires confirmation, holding its
 * time until the host confirms (then `confirmed`) or declines, or its start
 * passes unanswered (then `declined`).
 */
export const BOOKING_STATUSES = ['confirmed', 'pending', 'canceled', 'declined'] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

/** docs/api/endpoints.md "Bookings": `calendar_sync_status`. */
export const CALENDAR_SYNC_STATUSES = ['synced', 'pending', 'failed', 'not_applicable'] as const;
export type CalendarSyncStatus = (typeof CALENDAR_SYNC_STATUSES)[number];

/** How a series repeats (docs/api/series.md: `frequency`). */
export const FREQUENCIES = ['weekly', 'monthly_same_day'] as const;
export type Frequency = (typeof FREQUENCIES)[number];

/** docs/api/series.md: `status`. */
export const SERIES_STATUSES = ['active', 'paused', 'ended'] as const;
export type SeriesStatus = (typeof SERIES_STATUSES)[number];

/** Where a series was made (docs/api/series.md: `source`). */
export const SERIES_SOURCES = ['public', 'internal', 'api', 'mcp'] as const;
export type SeriesSource = (typeof SERIES_SOURCES)[number];

/**
 * The tables, as Kysely sees them. Both dialects store the same shapes:
 * instants as fixed-width ISO text (see time.ts), JSON as text, flags as 0/1
 * integers, so one query serves SQLite and PostgreSQL alike.
 */
export interface OrganizationTable {
  id: number;
  name: string;
  limits_json: string;
  updated_at: string;
  /** 0 turns off mail to attendees for the whole workspace. */
  attendee_mail: ColumnType<number, number | undefined, number>;
}

export interface UsersTable {
  id: string;
  username: string;
  email: string;
  name: string;
  timezone: string;
  role: Role;
  manages_json: string;
  schedule_json: string | null;
  calendars_json: string;
  created_at: string;
  updated_at: string;
  /** scrypt, for signing in to authorize OAuth apps; null until set (docs/oauth.md). */
  password_hash: ColumnType<string | null, string | null | undefined, string | null>;
  /** Counts changes made through the API or a workspace load; ETag of `GET /v1/people/:user_id`. */
  version: ColumnType<number, number | undefined, number>;
  /** When the person was deactivated (their tokens stop, they cannot be booked); null while active. */
  deactivated_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** The working hours' own version (If-Match of PUT /v1/people/:user_id/availability); 0 until first written. */
  schedule_version: ColumnType<number, number | undefined, number>;
  /** When the working hours were last written; null until then. */
  schedule_updated_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** 0: no reminders for the meetings this person hosts, to anyone (docs/reminders.md); rows made before it are 1. */
  reminders: ColumnType<number, number | undefined, number>;
}

export interface EventTypesTable {
  id: string;
  owner_user_id: string;
  slug: string;
  name: string;
  duration_minutes: number;
  status: OnOff;
  minimum_notice_minutes: number;
  future_limit_days: number;
  recurring: OnOff;
  allow_reschedule: number;
  buffer_before_minutes: number;
  buffer_after_minutes: number;
  slot_interval_minutes: number;
  questions_json: string;
  created_at: string;
  updated_at: string;
  /** 0 turns off mail to attendees of this event type. */
  attendee_mail: ColumnType<number, number | undefined, number>;
  /** Grows with every change through the API; shown as the ETag. */
  version: ColumnType<number, number | undefined, number>;
  description: ColumnType<string | null, string | null | undefined, string | null>;
  /** The event type's location (event-type-location.ts) as JSON. */
  location_json: ColumnType<string, string | undefined, string>;
  /** Set when archived (DELETE); `slug` then holds `~<id>` and `archived_slug` the slug it had. */
  archived_at: ColumnType<string | null, string | null | undefined, string | null>;
  archived_slug: ColumnType<string | null, string | null | undefined, string | null>;
  /** Who may book it without a token (VISIBILITIES); rows made before it are public. */
  visibility: ColumnType<Visibility, Visibility | undefined, Visibility>;
  /** Bookings of this type a host takes per day and per ISO week; null: no limit. */
  max_bookings_per_day: ColumnType<number | null, number | null | undefined, number | null>;
  max_bookings_per_week: ColumnType<number | null, number | null | undefined, number | null>;
  /** Attendees one start takes, each their own booking; null: one per booking. */
  seats: ColumnType<number | null, number | null | undefined, number | null>;
  /** Minutes before the start after which a booking can no longer be canceled (0: none); rows made before it have 0. */
  cancel_notice_minutes: ColumnType<number, number | undefined, number>;
  /** Likewise for a reschedule. */
  reschedule_notice_minutes: ColumnType<number, number | undefined, number>;
  /** 1: a new booking starts `pending` until the host confirms it (docs/api/event-types.md); rows made before it are 0. */
  requires_confirmation: ColumnType<number, number | undefined, number>;
  /** How a booking finds its host (SCHEDULINGS); rows made before teams are `single`. */
  scheduling: ColumnType<Scheduling, Scheduling | undefined, Scheduling>;
  /** A team type's pool (event-types/pool.ts) as JSON: `[{ user_id, weight, priority, fixed }]`; `[]` for a single host's. */
  hosts_json: ColumnType<string, string | undefined, string>;
  /** Its reminder rules (reminders/reminder-rules.ts) as JSON; `[]` for rows made before reminders. */
  reminders_json: ColumnType<string, string | undefined, string>;
}

/**
 * single: the owner is the host; round_robin: one host of the pool, chosen
 * per booking, with its fixed hosts; collective: every host of the pool
 * (docs/api/teams.md).
 */
export const SCHEDULINGS = ['single', 'round_robin', 'collective'] as const;
export type Scheduling = (typeof SCHEDULINGS)[number];

export interface TokensTable {
  id: string;
  name: string;
  user_id: string;
  secret_hash: string;
  scopes_json: string;
  /** Set when the token stands for an OAuth client acting for the user; null for a PAT. */
  oauth_client_id: string | null;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
}

export interface BookingsTable {
  uid: string;
  version: number;
  event_type_id: string;
  host_user_id: string;
  title: string;
  status: BookingStatus;
  start_at: string;
  end_at: string;
  timezone: string;
  /** The primary attendee's email, kept beside attendees_json for the exact-match filter. */
  attendee_email: string;
  attendees_json: string;
  guests_json: string;
  location_json: string;
  metadata_json: string;
  responses_json: string | null;
  calendar_sync_status: CalendarSyncStatus;
  calendar_event_id: string;
  rescheduled_from_uid: string | null;
  cancelled_at: string | null;
  cancellation_reason: string | null;
  no_show_at: string | null;
  no_show_reason: string | null;
  /** The series this booking is an occurrence of, if any. */
  series_uid: string | null;
  /** The instant the series pattern gave this occurrence (docs/api/series.md "Owed, held and moved"). */
  pattern_instant: string | null;
  /** 1 when the invitee rescheduled this occurrence away from its pattern instant. */
  moved_by_invitee: number;
  /** Fingerprint of the workspace entry that imported this booking, so a reload changes nothing. */
  import_hash: string | null;
  /** Which series action canceled this occurrence (`pause`, `patch`, `end`); null otherwise. */
  canceled_by: string | null;
  /**
   * The hosts who meet the attendee besides `host_user_id` (a collective
   * type's, or a round-robin type's fixed hosts), as JSON `[{ user_id,
   * username, email }]` as they were when booked; `[]` for most bookings.
   * Their time is blocked through booking_hosts.
   */
  co_hosts_json: string;
  created_at: string;
  updated_at: string;
}

/**
 * One co-host of a booking (bookings.co_hosts_json) with the booking's times,
 * so a host's availability finds the bookings they co-host by one index range
 * as it finds their own (migration 0018). The times follow the booking's
 * (bookings/apply-change.ts); whether it still blocks time is the booking's
 * status, read through the join.
 */
export interface BookingHostsTable {
  booking_uid: string;
  user_id: string;
  start_at: string;
  end_at: string;
}

/** A booking's event in a CalDAV calendar, and the queue that writes it there (migration 0004). */
export interface CalendarSyncsTable {
  booking_uid: string;
  generation: ColumnType<number, number | undefined, number>;
  status: 'pending' | 'synced' | 'failed';
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: string;
  lease: string | null;
  locked_until: string | null;
  href: string | null;
  etag: string | null;
  account_user_id: string | null;
  account_url: string | null;
  account_username: string | null;
  last_error: string | null;
  updated_at: string;
}

export interface SeriesTable {
  uid: string;
  version: number;
  /**
   * The fencing token of the action that owns the series: every action's
   * first write bumps it, and each later step of that action writes only
   * while it is still the same (docs/api/series.md "Busy and superseded").
   */
  epoch: number;
  event_type_id: string;
  host_user_id: string;
  /** `{ name, email, phone }`. */
  attendee_json: string;
  frequency: Frequency;
  interval_weeks: number;
  weekdays_json: string;
  time: string;
  timezone: string;
  starts_on: string;
  count: number;
  status: SeriesStatus;
  location_url: string | null;
  notify_invitee: number;
  source: SeriesSource;
  /** 1 while an end's cancellations are unfinished: a re-run of end may complete them. */
  ending: number;
  /** Who holds the series (an action's first write, a mail being sent) and until when. */
  hold_token: string | null;
  hold_until: string | null;
  created_at: string;
  updated_at: string;
  ended_at: string | null;
}

/** An occurrence a pause or pattern change canceled and the series still owes (docs/api/series.md "Owed, held and moved"). */
export interface SeriesOwedTable {
  id: string;
  series_uid: string;
  /** The pattern instant of the held occurrence. */
  pattern_instant: string;
  /** The held booking; its replacement names it as `rescheduled_from_uid`. */
  held_booking_uid: string;
  created_at: string;
}

/** Mail to people, written beside the change it reports and sent later by a Mailer. */
export interface NotificationsTable {
  id: string;
  kind: string;
  series_uid: string | null;
  recipient: string;
  payload_json: string;
  /**
   * `pending`, `sent`, `suppressed` (the attendee opted out since, or a reminder no longer owed), `expired` (a
   * reminder whose moment passed beyond its grace), or `failed` after the last attempt.
   */
  status: string;
  attempts: number;
  next_attempt_at: string;
  created_at: string;
  sent_at: string | null;
  booking_uid: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface IdempotencyKeysTable {
  account_id: string;
  key: string;
  fingerprint: string;
  /** `in_flight` while the first request runs, `completed` once its success is stored. */
  state: string;
  /** Who holds an in-flight reservation; a crashed holder's lease runs out at locked_until. */
  lease: string;
  locked_until: string;
  response_json: string | null;
  created_at: string;
  expires_at: string;
}

export interface OutboxTable {
  id: string;
  event_type: string;
  subject_uid: string;
  payload_json: string;
  created_at: string;
  dispatched_at: string | null;
  /** Who is fanning the event out to webhooks now, until locked_until. */
  lease: ColumnType<string | null, string | null | undefined, string | null>;
  locked_until: ColumnType<string | null, string | null | undefined, string | null>;
}

/** One stored object of the authorization server (oauth/oauth-records.ts). */
export interface OAuthRecordsTable {
  model: string;
  id: string;
  payload_json: string;
  grant_id: string | null;
  uid: string | null;
  account_id: string | null;
  client_id: string | null;
  expires_at: string | null;
  consumed_at: string | null;
}

/** A subscription to events (migration 0003). */
export interface WebhooksTable {
  id: string;
  owner_user_id: string;
  url: string;
  events_json: string;
  description: string | null;
  secret: string;
  previous_secret: string | null;
  previous_secret_until: string | null;
  status: 'active' | 'paused' | 'disabled';
  paused_reason: 'owner' | 'failures' | 'gone' | null;
  consecutive_failures: ColumnType<number, number | undefined, number>;
  failing_since: string | null;
  version: ColumnType<number, number | undefined, number>;
  created_at: string;
  updated_at: string;
  /** 1 when the receiver's last answer came within the prompt time (migration 0007): it may then have more than one request in flight. */
  answers_promptly: ColumnType<number, number | undefined, number>;
  /** After a request timed out, no delivery of the webhook is sent before this instant. */
  backoff_until: ColumnType<string | null, string | null | undefined, string | null>;
}

/** One event for one webhook: what is sent, retried and listed. */
export interface WebhookDeliveriesTable {
  id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  payload_json: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: string;
  lease: string | null;
  locked_until: string | null;
  last_status_code: number | null;
  last_response_body: string | null;
  last_error: string | null;
  created_at: string;
  delivered_at: string | null;
}

/** A host's time off: busy time for every event type of theirs (migration 0010, docs/api/time-off.md). */
export interface TimeOffTable {
  id: string;
  user_id: string;
  start_at: string;
  end_at: string;
  reason: string | null;
  version: number;
  created_at: string;
  updated_at: string;
}

export interface ServerSecretsTable {
  name: string;
  value: string;
  created_at: string;
}

/** A start held for one caller until `expires_at` (migration 0016, docs/api/holds.md). */
export interface HoldsTable {
  id: string;
  /** Who may use or release it: the token, or one visitor of the booking page (holds/holder.ts). */
  holder: string;
  /** The caller's token (a visitor's shared one): the cap on live holds counts per token and host. */
  token_id: string;
  event_type_id: string;
  host_user_id: string;
  start_at: string;
  end_at: string;
  expires_at: string;
  created_at: string;
}

/** The toolsets of one MCP connection over Streamable HTTP (migration 0019, docs/mcp.md). */
export interface McpSessionsTable {
  id: string;
  /** The token that opened it; a request of another token with its id is a connection without a session. */
  token_id: string;
  /** Comma-separated toolset names. */
  toolsets: string;
  created_at: string;
  /** The last request that named it; sessions unused for 30 days are deleted. */
  used_at: string;
}

export interface Database {
  organization: OrganizationTable;
  users: UsersTable;
  event_types: EventTypesTable;
  tokens: TokensTable;
  bookings: BookingsTable;
  booking_hosts: BookingHostsTable;
  idempotency_keys: IdempotencyKeysTable;
  outbox: OutboxTable;
  series: SeriesTable;
  series_owed: SeriesOwedTable;
  notifications: NotificationsTable;
  oauth_records: OAuthRecordsTable;
  server_secrets: ServerSecretsTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  calendar_syncs: CalendarSyncsTable;
  time_off: TimeOffTable;
  holds: HoldsTable;
  mcp_sessions: McpSessionsTable;
}
