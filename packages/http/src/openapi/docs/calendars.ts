import * as example from '../examples.js';
import type { OperationDocs } from '../operation-doc.js';

/** Calendars: CalDAV accounts (docs/calendars.md). */
export const CALENDAR_DOCS = {
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
} satisfies OperationDocs;
