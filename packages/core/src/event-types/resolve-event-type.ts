import type { Selectable } from 'kysely';
import type { Principal } from '../auth/principal.js';
import { mayActFor } from '../auth/roles.js';
import { visitorMayBook } from '../auth/visitor.js';
import { ScheduleError } from '../errors.js';
import { isUuid } from '../ids.js';
import { type ReminderRule, storedReminders } from '../reminders/reminder-rules.js';
import { runPrepared } from '../storage/prepared-query.js';
import type { OnOff, Scheduling, UsersTable } from '../storage/schema.js';
import type { Executor } from '../storage/store.js';
import type { Calendar } from './calendar.js';
import type { EventTypeLocation } from './event-type-fields.js';
import { storedLocation } from './event-type-rows.js';
import { storedPool } from './pool.js';
import { type Question, storedQuestions } from './questions.js';
import type { Schedule } from './schedule.js';

/** An event type with its owner (the host `POST /v1/bookings` books), as availability reads them. */
export interface EventTypeWithHost {
  readonly id: string;
  readonly slug: string;
  readonly name: string;
  readonly description: string | null;
  readonly durationMinutes: number;
  readonly status: OnOff;
  readonly minimumNoticeMinutes: number;
  /** How long before the start a booking may still be canceled, and moved (0: up to the start); policies/booking-notice.ts. */
  readonly cancelNoticeMinutes: number;
  readonly rescheduleNoticeMinutes: number;
  readonly futureLimitDays: number;
  readonly recurring: OnOff;
  readonly allowReschedule: boolean;
  /** A new booking starts `pending` until the host confirms it (bookings/answer-request.ts). */
  readonly requiresConfirmation: boolean;
  readonly bufferBeforeMinutes: number;
  readonly bufferAfterMinutes: number;
  readonly slotIntervalMinutes: number;
  /** Bookings a host takes of it per day and per ISO week; null: no limit. */
  readonly maxPerDay: number | null;
  readonly maxPerWeek: number | null;
  /** Attendees per start; null: one per booking. */
  readonly seats: number | null;
  readonly questions: readonly Question[];
  /** Where its bookings meet (event-type-fields.ts). */
  readonly location: EventTypeLocation;
  /**
   * Whether mail may go to this event type's attendees: neither it nor the
   * workspace turned attendee mail off (the rule of attendeeMailOn, read with
   * the event type so a booking write need not read it again).
   */
  readonly attendeeMail: boolean;
  /** Its reminder rules (docs/reminders.md). */
  readonly reminders: readonly ReminderRule[];
  /** The owner: the host of a single host's type; of a team type, whose type it is. */
  readonly host: HostRecord;
  readonly scheduling: Scheduling;
  /** A team type's active hosts (deactivated ones left out), in the pool's order; empty for a single host's type. */
  readonly pool: readonly PoolMember[];
}

/** A host of a team type's pool, with what round robin weighs them by. */
export interface PoolMember {
  readonly host: HostRecord;
  readonly weight: number;
  readonly priority: number;
  /** Meets the attendee at every booking: every host of a collective pool, and a round-robin pool's fixed hosts. */
  readonly fixed: boolean;
}

/** A user as a host: whose time is booked. */
export interface HostRecord {
  readonly id: string;
  readonly username: string;
  readonly email: string;
  readonly name: string;
  readonly timezone: string;
  readonly schedule: Schedule | null;
  readonly calendars: readonly Calendar[];
  /** Their switch for the reminders of the meetings they host (people `reminders`). */
  readonly reminders: boolean;
}

/** How a request names an event type: by id, or by its owner's username and its slug. */
export type EventTypeRef = { readonly eventTypeId: string } | { readonly username: string; readonly eventSlug: string };

function query(db: Executor) {
  return db
    .selectFrom('event_types')
    .innerJoin('users', 'users.id', 'event_types.owner_user_id')
    .selectAll('event_types')
    .select([
      'users.username',
      'users.email',
      'users.name as host_name',
      'users.timezone as host_timezone',
      'users.schedule_json',
      'users.calendars_json',
      'users.deactivated_at as host_deactivated_at',
      'users.reminders as host_reminders',
    ])
    .select((eb) => eb.selectFrom('organization').select('attendee_mail').where('id', '=', 1).as('organization_attendee_mail'));
}

/** Loads a host by id. */
export async function findHost(db: Executor, userId: string): Promise<HostRecord | undefined> {
  return toHost(await db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst());
}

/** Loads a host by username (exact, as `username` + `event_slug` is matched). */
export async function findHostByUsername(db: Executor, username: string): Promise<HostRecord | undefined> {
  return toHost(await db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst());
}

function toHost(row: Selectable<UsersTable> | undefined): HostRecord | undefined {
  if (!row) return undefined;
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    name: row.name,
    timezone: row.timezone,
    // Stryker disable next-line ConditionalExpression: equivalent: JSON.parse(null) is null too; the check is for the nullable column's type (the line's other mutant, always null, is killed).
    schedule: row.schedule_json === null ? null : JSON.parse(row.schedule_json),
    calendars: JSON.parse(row.calendars_json),
    reminders: row.reminders !== 0,
  };
}

type EventTypeQueryRow = Awaited<ReturnType<ReturnType<typeof query>['executeTakeFirstOrThrow']>>;

/** The type of a row, with its pool's active hosts read for a team type (one more query, none for a single host's). */
async function withPool(db: Executor, row: EventTypeQueryRow): Promise<EventTypeWithHost> {
  const eventType = toEventType(row);
  const declared = storedPool(row.hosts_json);
  if (declared.length === 0) return eventType;
  const users = await db
    .selectFrom('users')
    .selectAll()
    .where(
      'id',
      'in',
      declared.map((h) => h.user_id),
    )
    .where('deactivated_at', 'is', null)
    .execute();
  const byId = new Map(users.map((u) => [u.id, toHost(u)!]));
  const pool = declared.flatMap((h) => {
    const host = byId.get(h.user_id);
    return host === undefined ? [] : [{ host, weight: h.weight, priority: h.priority, fixed: h.fixed }];
  });
  // Round robin with every host it chooses from deactivated has no one to choose: nobody hosts it (its fixed hosts never meet alone).
  if (eventType.scheduling === 'round_robin' && pool.every((m) => m.fixed)) return { ...eventType, pool: [] };
  return { ...eventType, pool };
}

function toEventType(row: EventTypeQueryRow): EventTypeWithHost {
  return {
    id: row.id,
    slug: row.archived_slug ?? row.slug,
    name: row.name,
    description: row.description,
    durationMinutes: row.duration_minutes,
    // A deactivated host's event types answer as switched off (docs/api/people.md): no slots, no new bookings or series;
    // an archived type takes no bookings either, as one switched off (docs/api/event-types.md).
    status: row.host_deactivated_at === null && row.archived_at === null ? row.status : 'off',
    minimumNoticeMinutes: row.minimum_notice_minutes,
    cancelNoticeMinutes: row.cancel_notice_minutes,
    rescheduleNoticeMinutes: row.reschedule_notice_minutes,
    futureLimitDays: row.future_limit_days,
    recurring: row.recurring,
    allowReschedule: row.allow_reschedule === 1,
    requiresConfirmation: row.requires_confirmation === 1,
    bufferBeforeMinutes: row.buffer_before_minutes,
    bufferAfterMinutes: row.buffer_after_minutes,
    slotIntervalMinutes: row.slot_interval_minutes,
    maxPerDay: row.max_bookings_per_day,
    maxPerWeek: row.max_bookings_per_week,
    seats: row.seats,
    questions: storedQuestions(row.questions_json),
    location: storedLocation(row.location_json),
    reminders: storedReminders(row.reminders_json),
    // A missing organization row (no workspace loaded yet) has nothing turned off.
    attendeeMail: row.attendee_mail !== 0 && row.organization_attendee_mail !== 0,
    host: {
      id: row.owner_user_id,
      username: row.username,
      email: row.email,
      name: row.host_name,
      timezone: row.host_timezone,
      // Stryker disable next-line ConditionalExpression: equivalent: JSON.parse(null) is null too; the check is for the nullable column's type (the line's other mutant, always null, is killed).
      schedule: row.schedule_json === null ? null : JSON.parse(row.schedule_json),
      calendars: JSON.parse(row.calendars_json),
      reminders: row.host_reminders !== 0,
    },
    scheduling: row.scheduling ?? 'single',
    pool: [],
  };
}

const byId = (db: Executor, id: string) => query(db).where('event_types.id', '=', id);
const bySlug = (db: Executor, username: string, slug: string) =>
  query(db).where('users.username', '=', username).where('event_types.slug', '=', slug);

/** An event type by id, whoever asks; for an existing booking's own event type. */
export async function eventTypeById(db: Executor, id: string): Promise<EventTypeWithHost | undefined> {
  const [row] = await runPrepared(db, byId, [id]);
  return row ? withPool(db, row) : undefined;
}

/**
 * The event type a request names, if the caller may act for its owner.
 * Unknown, malformed and invisible answer `404 event_type_not_found` alike
 * (docs/api/overview.md "Roles: whom a caller may act for"); a visitor of
 * the booking page reaches what its grant names (auth/visitor.ts).
 */
export async function resolveEventType(db: Executor, principal: Principal, ref: EventTypeRef): Promise<EventTypeWithHost> {
  const notFound = () => new ScheduleError('event_type_not_found', 'No such event type.', {});
  // Stryker disable next-line ConditionalExpression,StringLiteral: equivalent: event type ids are UUIDs in a text column on both stores, so an id that is none matches no row and the same 404 follows (the line's mutants that refuse every id are killed).
  if ('eventTypeId' in ref && !isUuid(ref.eventTypeId)) throw notFound();
  const [row] =
    'eventTypeId' in ref
      ? await runPrepared(db, byId, [ref.eventTypeId.toLowerCase()])
      : await runPrepared(db, bySlug, [ref.username, ref.eventSlug]);
  if (!row) throw notFound();
  const visitorMay = () => visitorMayBook(principal, { id: row.id, ownerId: row.owner_user_id, visibility: row.visibility });
  if (!mayActFor(principal.actsFor, row.owner_user_id) && !visitorMay()) throw notFound();
  return withPool(db, row);
}
