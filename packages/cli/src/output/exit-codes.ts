import type { CliCode } from '../backend/backend.js';

/**
 * The exit code of each error code: the one table from the API's error codes
 * to the shell (README, "CLI exit codes"). A script can tell "fix the
 * input" from "not there" from "not allowed" from "conflict" from "retry".
 */
export const EXIT_CODES = {
  ok: 0,
  /** Unexpected: internal_error, or the API could not be reached. */
  failure: 1,
  /** The command line or the input is wrong. */
  usage: 2,
  notFound: 3,
  /** No valid token, or the token may not do this. */
  denied: 4,
  /** The state of things refuses it (taken, ended, changed meanwhile). */
  conflict: 5,
  /** Try again later (rate limited, calendar down, lock busy, in progress). */
  retry: 6,
  /** `schedule apply --dry-run`: the plan has changes (0 when it has none), as `terraform plan -detailed-exitcode` says it with 2, which is taken here. */
  changes: 10,
} as const;

/** A Record over every code, the API's and the CLI's own, so a new code without an exit code does not compile. */
const BY_CODE: Record<CliCode, number> = {
  usage: EXIT_CODES.usage,
  validation_error: EXIT_CODES.usage,
  attendee_email_invalid: EXIT_CODES.usage,
  invalid_query_param: EXIT_CODES.usage,
  missing_idempotency_key: EXIT_CODES.usage,
  invalid_if_match: EXIT_CODES.usage,
  missing_if_match: EXIT_CODES.usage,
  count_out_of_range: EXIT_CODES.usage,
  field_immutable: EXIT_CODES.usage,
  invalid_change: EXIT_CODES.usage,
  /** The account's URL, credentials or calendar names are to be fixed. */
  calendar_credentials_refused: EXIT_CODES.usage,
  calendar_not_caldav: EXIT_CODES.usage,
  calendar_name_unknown: EXIT_CODES.usage,
  payload_too_large: EXIT_CODES.usage,
  unsupported_media_type: EXIT_CODES.usage,
  bad_request: EXIT_CODES.usage,
  headers_too_large: EXIT_CODES.usage,
  expectation_failed: EXIT_CODES.usage,
  /** A short uid that starts several bookings: give more of it. */
  ambiguous_uid: EXIT_CODES.usage,
  not_found: EXIT_CODES.notFound,
  booking_not_found: EXIT_CODES.notFound,
  series_not_found: EXIT_CODES.notFound,
  event_type_not_found: EXIT_CODES.notFound,
  webhook_not_found: EXIT_CODES.notFound,
  delivery_not_found: EXIT_CODES.notFound,
  calendar_not_found: EXIT_CODES.notFound,
  time_off_not_found: EXIT_CODES.notFound,
  person_not_found: EXIT_CODES.notFound,
  token_not_found: EXIT_CODES.notFound,
  unauthorized: EXIT_CODES.denied,
  insufficient_scope: EXIT_CODES.denied,
  host_not_allowed: EXIT_CODES.denied,
  forbidden: EXIT_CODES.denied,
  recurring_disabled: EXIT_CODES.conflict,
  no_dates_free: EXIT_CODES.conflict,
  series_busy: EXIT_CODES.conflict,
  series_ended: EXIT_CODES.conflict,
  version_conflict: EXIT_CODES.conflict,
  slug_taken: EXIT_CODES.conflict,
  time_off_limit_reached: EXIT_CODES.conflict,
  event_type_inactive: EXIT_CODES.conflict,
  slot_in_past: EXIT_CODES.conflict,
  slot_unavailable: EXIT_CODES.conflict,
  hold_not_found: EXIT_CODES.notFound,
  hold_expired: EXIT_CODES.conflict,
  hold_mismatch: EXIT_CODES.conflict,
  hold_limit_reached: EXIT_CODES.conflict,
  booking_in_past: EXIT_CODES.conflict,
  booking_already_cancelled: EXIT_CODES.conflict,
  booking_not_pending: EXIT_CODES.conflict,
  reschedule_not_allowed: EXIT_CODES.conflict,
  cancel_notice: EXIT_CODES.conflict,
  reschedule_notice: EXIT_CODES.conflict,
  booking_not_started: EXIT_CODES.conflict,
  webhook_inactive: EXIT_CODES.conflict,
  calendar_from_workspace: EXIT_CODES.conflict,
  username_taken: EXIT_CODES.conflict,
  last_owner: EXIT_CODES.conflict,
  token_limit_reached: EXIT_CODES.conflict,
  idempotency_key_conflict: EXIT_CODES.conflict,
  /** `schedule tokens create` with a name a token has: names pick tokens for revoke, so they stay unique. */
  token_name_taken: EXIT_CODES.conflict,
  idempotency_in_progress: EXIT_CODES.retry,
  rate_limited: EXIT_CODES.retry,
  availability_unavailable: EXIT_CODES.retry,
  slot_lock_timeout: EXIT_CODES.retry,
  database_unavailable: EXIT_CODES.retry,
  calendar_unreachable: EXIT_CODES.retry,
  request_timeout: EXIT_CODES.retry,
  /** The CLI called a route the wrong way: its own fault, not the user's input. */
  method_not_allowed: EXIT_CODES.failure,
  internal_error: EXIT_CODES.failure,
  /** The server's configuration, not the call, is to be fixed: CALENDAR_KEY, or an account's environment variable. */
  calendar_key_missing: EXIT_CODES.failure,
  calendar_password_unavailable: EXIT_CODES.failure,
  connection_failed: EXIT_CODES.failure,
  /** The user left an interactive command: nothing was done, and a script must not read it as success. */
  canceled: EXIT_CODES.failure,
};

export function exitCodeOf(code: CliCode): number {
  return BY_CODE[code];
}
