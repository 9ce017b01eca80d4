/** Why talking to a CalDAV server failed; a front end words it, a sync decides from it whether to retry. */
export type CalDavFailureReason =
  /** No password for the account: its environment variable is unset, or its sealed password cannot be opened. */
  | 'no_password'
  /** The server refused the username and password (HTTP 401 or 403). */
  | 'credentials'
  /** No connection, or the connection broke. */
  | 'unreachable'
  /** No complete answer within the time allowed. */
  | 'timeout'
  /** An answer larger than allowed. */
  | 'too_large'
  /** Any other answer that is not success. */
  | 'http'
  /** The server answered, but not as a CalDAV server does (no calendar home). */
  | 'not_caldav'
  /** A calendar the account names (busy_calendars, book_into) is not among the account's calendars. */
  | 'no_calendar'
  /** More events in the range read than one read takes. */
  | 'too_many'
  /** The event was changed in the calendar by someone else since it was written or read (HTTP 412). */
  | 'changed_elsewhere'
  /** Another object than the booking's event (another UID) sits at the event's name; it is left as it is. */
  | 'foreign_object';

/** A CalDAV call that failed. The message names the server without credentials and never holds the password. */
export class CalDavFailure extends Error {
  override readonly name = 'CalDavFailure';
  constructor(
    readonly reason: CalDavFailureReason,
    message: string,
    /** The HTTP status, when the server answered. */
    readonly status?: number,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}
