import { type CallWords, CORE_WORDS, type Worded } from './call-words.js';

/**
 * Every documented failure of the API, by its spec code. Front ends map a code
 * to their own status (HTTP status, MCP isError, CLI exit code) in one table each.
 */
export const ERROR_CODES = [
  'validation_error',
  'attendee_email_invalid',
  'missing_idempotency_key',
  'invalid_if_match',
  'invalid_query_param',
  'unauthorized',
  'insufficient_scope',
  'host_not_allowed',
  'forbidden',
  'not_found',
  'series_not_found',
  'booking_not_found',
  'event_type_not_found',
  'webhook_not_found',
  'delivery_not_found',
  'calendar_not_found',
  'time_off_not_found',
  'hold_not_found',
  'person_not_found',
  'token_not_found',
  'method_not_allowed',
  'recurring_disabled',
  'no_dates_free',
  'series_busy',
  'series_ended',
  'version_conflict',
  'slug_taken',
  'time_off_limit_reached',
  'event_type_inactive',
  'slot_in_past',
  'slot_unavailable',
  'hold_expired',
  'hold_mismatch',
  'hold_limit_reached',
  'booking_in_past',
  'booking_already_cancelled',
  'booking_not_pending',
  'reschedule_not_allowed',
  'cancel_notice',
  'reschedule_notice',
  'booking_not_started',
  'webhook_inactive',
  'calendar_from_workspace',
  'username_taken',
  'last_owner',
  'token_limit_reached',
  'idempotency_key_conflict',
  'idempotency_in_progress',
  'payload_too_large',
  'unsupported_media_type',
  'bad_request',
  'request_timeout',
  'headers_too_large',
  'expectation_failed',
  'count_out_of_range',
  'field_immutable',
  'invalid_change',
  'calendar_credentials_refused',
  'calendar_not_caldav',
  'calendar_name_unknown',
  'missing_if_match',
  'rate_limited',
  'availability_unavailable',
  'slot_lock_timeout',
  'calendar_unreachable',
  'calendar_key_missing',
  'calendar_password_unavailable',
  'database_unavailable',
  'internal_error',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

const KNOWN_CODES: ReadonlySet<string> = new Set(ERROR_CODES);

/** True for a code of this API; a client reads codes off the wire. */
export function isErrorCode(value: unknown): value is ErrorCode {
  // Stryker disable next-line ConditionalExpression: equivalent: the set holds strings only, so has() is false for any other value; the typeof is there for the type guard.
  return typeof value === 'string' && KNOWN_CODES.has(value);
}

export type ErrorDetails = Record<string, unknown>;

/** A failure as a front end shows it: the message and details in its own words. */
export interface ShownError {
  readonly code: ErrorCode;
  readonly message: string;
  readonly details: ErrorDetails;
}

function say<T extends string | ErrorDetails>(text: Worded<T>, words: CallWords): T {
  return typeof text === 'function' ? text(words) : text;
}

/** An expected failure, carrying the spec's code. Thrown inside core, caught once per front end. */
export class ScheduleError extends Error {
  override readonly name = 'ScheduleError';
  readonly code: ErrorCode;
  /** In core's words; a front end shows `shownIn(its words)`. */
  readonly details: ErrorDetails;
  /** Seconds the caller should wait before retrying, where the spec asks for `Retry-After`. */
  readonly retryAfterSeconds: number | undefined;
  readonly #message: Worded<string>;
  readonly #details: Worded<ErrorDetails>;

  /**
   * A message or details that name a call input (call-words.ts) are given
   * as a function of the words, so each front end says the input its own
   * way. `cause` keeps what went wrong underneath (an unreadable feed, say)
   * for the operator's log; it never reaches the caller.
   */
  constructor(
    code: ErrorCode,
    message: Worded<string>,
    details: Worded<ErrorDetails> = {},
    retryAfterSeconds?: number,
    options?: { cause?: unknown },
  ) {
    super(say(message, CORE_WORDS), options);
    this.code = code;
    this.details = say(details, CORE_WORDS);
    this.retryAfterSeconds = retryAfterSeconds;
    this.#message = message;
    this.#details = details;
  }

  /** The error in a front end's words; the same as `message` and `details` unless they name a call input. */
  shownIn(words: CallWords): ShownError {
    return { code: this.code, message: say(this.#message, words), details: say(this.#details, words) };
  }
}

export function isScheduleError(value: unknown): value is ScheduleError {
  return value instanceof ScheduleError;
}
