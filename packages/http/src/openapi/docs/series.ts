import * as example from '../examples.js';
import { type OperationDocs, RANGE } from '../operation-doc.js';

/** Series: a pattern that books a run of occurrences (docs/api/series.md). */
export const SERIES_DOCS = {
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
} satisfies OperationDocs;
