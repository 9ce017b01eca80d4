import type { ErrorCode } from '@schedule/core';

/**
 * The HTTP status of every error code (api.md "Errors", decisions.md). A
 * Record over the code union, so a new code without a status does not compile.
 */
export const HTTP_STATUS: Record<ErrorCode, number> = {
  validation_error: 400,
  attendee_email_invalid: 400,
  missing_idempotency_key: 400,
  invalid_if_match: 400,
  invalid_query_param: 400,
  unauthorized: 401,
  insufficient_scope: 403,
  host_not_allowed: 403,
  not_found: 404,
  series_not_found: 404,
  booking_not_found: 404,
  event_type_not_found: 404,
  method_not_allowed: 405,
  recurring_disabled: 409,
  no_dates_free: 409,
  series_busy: 409,
  series_ended: 409,
  version_conflict: 409,
  event_type_inactive: 409,
  slot_in_past: 409,
  slot_unavailable: 409,
  booking_in_past: 409,
  booking_already_cancelled: 409,
  reschedule_not_allowed: 409,
  idempotency_key_conflict: 409,
  idempotency_in_progress: 409,
  payload_too_large: 413,
  count_out_of_range: 422,
  field_immutable: 422,
  invalid_change: 422,
  missing_if_match: 428,
  rate_limited: 429,
  availability_unavailable: 503,
  slot_lock_timeout: 503,
  internal_error: 500,
};
