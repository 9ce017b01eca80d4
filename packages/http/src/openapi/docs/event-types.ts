import * as example from '../examples.js';
import type { OperationDocs } from '../operation-doc.js';

/** Event types (docs/api/event-types.md). */
export const EVENT_TYPE_DOCS = {
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
} satisfies OperationDocs;
