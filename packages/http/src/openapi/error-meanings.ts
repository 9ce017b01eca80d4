import type { ErrorCode } from '@schedule/core';

/**
 * What each error code means for a client, one sentence each, as the
 * document says it beside the code (errors.md has the long form). A Record
 * over the code union: a new code without a meaning does not compile.
 */
export const ERROR_MEANINGS: Record<ErrorCode, string> = {
  validation_error:
    'A body field is missing, mistyped or out of bounds, the body is not a JSON object, or the Idempotency-Key is empty or too long; `details.fields` names them.',
  attendee_email_invalid: '`attendee.email` is text but not an email address of at most 254 characters.',
  missing_idempotency_key: 'This endpoint needs an Idempotency-Key header and none was sent.',
  invalid_if_match: 'If-Match is not `"N"`, `N` or `*`; `details.if_match` echoes it.',
  invalid_query_param: 'A query parameter is malformed or out of range; `details.param` names it.',
  unauthorized: 'No bearer token, or one that is unknown, revoked or expired (they answer alike).',
  insufficient_scope: 'The token is valid but lacks the scope this endpoint needs; `details.required_scope` names it.',
  host_not_allowed: 'The named host is unknown or not someone the caller may act for; `details.fields` names the field.',
  forbidden:
    'The caller’s role or credential does not allow this change; `details.reason` says why (`role`, `owner_only`, `oauth_credential`, `scopes_not_held`) and `details.fields` or `details.scopes` what.',
  not_found: 'No such path, or a path parameter that no resource can have (U+0000, a lone surrogate).',
  series_not_found: 'The uid is not a UUID, is unknown, or its host is outside the caller’s set (they answer alike).',
  booking_not_found: 'The uid is not a UUID, is unknown, or its host is outside the caller’s set (they answer alike).',
  event_type_not_found: 'The event type is unknown, or its owner is outside the caller’s set.',
  webhook_not_found: 'The webhook id is not a UUID, is unknown, or belongs to another account (they answer alike).',
  delivery_not_found: 'The webhook has no delivery with this id.',
  calendar_not_found: 'The calendar account id is unknown, or its user is outside the caller’s set (they answer alike).',
  time_off_not_found: 'The time-off id is unknown, malformed, or belongs to another user than the path names.',
  person_not_found: 'The user id or username is unknown, or the person is outside the caller’s set (they answer alike).',
  token_not_found: 'The token id is not a UUID, is unknown, or is another account’s (they answer alike).',
  method_not_allowed: 'The path exists but not with this method; `Allow` lists the methods it takes.',
  recurring_disabled: 'The event type does not allow recurring series.',
  no_dates_free: 'The host is free on none of the pattern’s dates; nothing was created and `details.skipped` lists them all.',
  series_busy: 'Another action on the series, or a mail about it, holds it right now; nothing changed. Retry shortly.',
  series_ended: 'The series has ended; nothing can change it any more.',
  version_conflict:
    'The resource is not at the version If-Match names, or another write got there first; `details.current_version` says where it is.',
  slug_taken: 'The owner already has a live event type with this slug; nothing changed.',
  time_off_limit_reached: 'The person already has as many time off ranges as allowed (`details.max`); delete one first. Nothing changed.',
  event_type_inactive: 'The event type is switched off and takes no bookings.',
  slot_in_past: 'The requested start is before now.',
  slot_unavailable: 'The host is not free at that start; `details.reason` says why (`slot_busy`, `outside_minimum_notice`, …).',
  hold_not_found: 'The hold id is malformed, unknown, or another caller’s (they answer alike).',
  hold_expired: 'The hold expired or was released before this booking; `details.expires_at`. Hold the time again, or book without a hold.',
  hold_mismatch: 'The hold is for another event type or start than the body names; `details` give the held ones.',
  hold_limit_reached: 'The caller already holds as many of this host’s times as allowed (`details.max`); release one first.',
  booking_in_past: 'The booking has started or is over, so it stays as it is; `details.start_at` is its start.',
  booking_already_cancelled: 'Only a confirmed booking can be rescheduled or take a no-show.',
  booking_not_pending: 'Only a pending booking can be confirmed or declined, and only before its start.',
  reschedule_not_allowed: 'The event type does not allow rescheduling.',
  cancel_notice:
    "The booking starts sooner than its event type's cancel notice; `details.deadline` is when canceling closed (a token may send `override_notice`).",
  reschedule_notice:
    "The booking starts sooner than its event type's reschedule notice; `details.deadline` is when moving closed (a token may send `override_notice`).",
  booking_not_started: 'A no-show is recorded only once the booking has started; `details.start_at` is its start.',
  webhook_inactive: 'The webhook is paused or disabled, so nothing can be sent to it; `details.status` says which. Resume it first.',
  calendar_from_workspace: 'The account comes from the workspace file, which would bring it back on its next load; remove it there.',
  username_taken: 'Another person has this username; `details.username` echoes it.',
  last_owner: 'The change would leave the organization without an active owner; nothing changed.',
  token_limit_reached: 'The person already has as many live personal access tokens as allowed (`details.max`); revoke one first.',
  idempotency_key_conflict: 'This Idempotency-Key was used in the last 24 hours for a different request; nothing was done.',
  idempotency_in_progress: 'A request with this Idempotency-Key is still running; retry the same request after `Retry-After`.',
  payload_too_large: 'The body is over 1 MiB.',
  unsupported_media_type: 'A body without `Content-Type: application/json` (or another `+json` type); it was not read.',
  bad_request: 'The request is not usable HTTP: a target that is not a path, HTTP/1.1 without Host, broken syntax.',
  request_timeout: 'The headers or the whole request did not arrive in time; the connection is closed.',
  headers_too_large: 'The request headers are over 16 KiB; the connection is closed.',
  expectation_failed: 'An `Expect` header other than `100-continue`.',
  count_out_of_range: '`count` is an integer outside 1–42.',
  field_immutable: 'The body names fields a booking or person PATCH cannot change; `details.fields` lists them.',
  invalid_change: 'The body names fields a series PATCH cannot change, or clears `location_url`; `details.fields` lists them.',
  calendar_credentials_refused: 'The CalDAV server refused the username and password (HTTP 401 or 403); `details.status` is its answer.',
  calendar_not_caldav: 'The URL answered, but not as a CalDAV server: no principal or calendar home was found.',
  calendar_name_unknown:
    'A calendar named in `busy_calendars` or `book_into` is not among the account’s; `details.calendars` lists the ones it has.',
  missing_if_match: 'This endpoint needs an If-Match header with the version you read.',
  rate_limited: 'The bucket of this token (or address) is spent for this minute; wait `Retry-After` seconds.',
  availability_unavailable: 'A conflict calendar of the host could not be read, so nothing was booked; retry after `Retry-After`.',
  slot_lock_timeout: 'The host’s lock or the database file was not had in time; nothing was written. Retry after `Retry-After`.',
  calendar_unreachable:
    'The CalDAV server could not be reached, gave no answer in time, answered too much or with an error; `details.reason` says which.',
  calendar_key_missing:
    'The server has no calendar key (`CALENDAR_KEY`), so it cannot keep or open CalDAV passwords. Its operator must set one.',
  calendar_password_unavailable:
    'The account’s password cannot be had: its environment variable is unset, or the calendar key does not open the stored one.',
  database_unavailable: 'The database did not answer in time; nothing was acknowledged that was not committed. Retry after `Retry-After`.',
  internal_error: 'An unexpected fault, logged under the request id; the answer carries no internals.',
};
