import type { Selectable } from 'kysely';
import { storedReminders } from '../reminders/reminder-rules.js';
import type { EventTypesTable } from '../storage/schema.js';
import type { Executor } from '../storage/store.js';
import { bookingUrlOf, type PagesAddress } from './booking-url.js';
import { type EventTypeDeclaration, type EventTypeLocation, GENERATED_CONFERENCE } from './event-type-fields.js';
import type { EventType } from './event-type-view.js';
import { type PoolHost, storedPool } from './pool.js';
import { storedQuestions } from './questions.js';

/** A declaration as it is stored: its pool resolved to user ids (pool.ts resolvePool). */
export type ResolvedDeclaration = Omit<EventTypeDeclaration, 'hosts'> & { readonly hosts: readonly PoolHost[] };

// One mapping each way between an event type's declared fields and its row,
// used by the API's writes and the workspace loader alike.

/** The columns an event type's declared fields are stored in; the interval is the duration when not given. */
export function eventTypeColumns(fields: ResolvedDeclaration) {
  return {
    slug: fields.slug,
    name: fields.name,
    description: fields.description,
    duration_minutes: fields.duration_minutes,
    status: fields.status,
    minimum_notice_minutes: fields.minimum_notice_minutes,
    cancel_notice_minutes: fields.cancel_notice_minutes,
    reschedule_notice_minutes: fields.reschedule_notice_minutes,
    future_limit_days: fields.future_limit_days,
    recurring: fields.recurring,
    allow_reschedule: fields.allow_reschedule ? 1 : 0,
    requires_confirmation: fields.requires_confirmation ? 1 : 0,
    buffer_before_minutes: fields.buffer_before_minutes,
    buffer_after_minutes: fields.buffer_after_minutes,
    slot_interval_minutes: fields.slot_interval_minutes ?? fields.duration_minutes,
    questions_json: JSON.stringify(fields.questions),
    attendee_mail: fields.attendee_mail ? 1 : 0,
    location_json: JSON.stringify(fields.location),
    reminders_json: JSON.stringify(fields.reminders),
    visibility: fields.visibility,
    max_bookings_per_day: fields.max_bookings_per_day,
    max_bookings_per_week: fields.max_bookings_per_week,
    seats: fields.seats,
    scheduling: fields.scheduling,
    // Every host of a collective pool meets every attendee: stored as fixed, so the pool says it whatever the caller sent.
    hosts_json: JSON.stringify(
      fields.hosts.map((h) => ({
        user_id: h.user_id,
        weight: h.weight,
        priority: h.priority,
        fixed: fields.scheduling === 'collective' || h.fixed,
      })),
    ),
  };
}

/** The slug an archived type's row holds: `~` is in no valid slug, and the id makes it unique per owner. */
export function archivedSlugColumn(id: string): string {
  return `~${id}`;
}

/** A stored location; a row stored before locations existed reads as a generated conference link. */
export function storedLocation(json: string | null | undefined): EventTypeLocation {
  return json ? (JSON.parse(json) as EventTypeLocation) : GENERATED_CONFERENCE;
}

export type EventTypeRow = Selectable<EventTypesTable> & { readonly username: string };

/** An event type row with its owner's username. */
export function eventTypeRowQuery(db: Executor) {
  return db
    .selectFrom('event_types')
    .innerJoin('users', 'users.id', 'event_types.owner_user_id')
    .selectAll('event_types')
    .select('users.username');
}

/** The view of a row: an archived type shows the slug it had; its booking page is where `pages` serves it. */
export function toEventTypeView(row: EventTypeRow, pages: PagesAddress | undefined): EventType {
  const archived = row.archived_at !== null;
  return {
    id: row.id,
    slug: row.archived_slug ?? row.slug,
    name: row.name,
    description: row.description,
    owner: { user_id: row.owner_user_id, username: row.username },
    duration_minutes: row.duration_minutes,
    slot_interval_minutes: row.slot_interval_minutes,
    buffer_before_minutes: row.buffer_before_minutes,
    buffer_after_minutes: row.buffer_after_minutes,
    minimum_notice_minutes: row.minimum_notice_minutes,
    cancel_notice_minutes: row.cancel_notice_minutes,
    reschedule_notice_minutes: row.reschedule_notice_minutes,
    future_limit_days: row.future_limit_days,
    status: row.status,
    recurring: row.recurring,
    allow_reschedule: row.allow_reschedule === 1,
    requires_confirmation: row.requires_confirmation === 1,
    attendee_mail: row.attendee_mail !== 0,
    location: storedLocation(row.location_json),
    visibility: row.visibility,
    // Rows read before the columns existed (an old export) have none: no limit, one seat.
    max_bookings_per_day: row.max_bookings_per_day ?? null,
    max_bookings_per_week: row.max_bookings_per_week ?? null,
    seats: row.seats ?? null,
    scheduling: row.scheduling ?? 'single',
    hosts: storedPool(row.hosts_json),
    booking_url: bookingUrlOf(pages, { username: row.username, slug: row.slug, visibility: row.visibility, archived }),
    questions: storedQuestions(row.questions_json),
    reminders: storedReminders(row.reminders_json),
    version: row.version,
    created_at: row.created_at,
    updated_at: row.updated_at,
    archived_at: row.archived_at,
  };
}
