import type { Principal } from '../auth/principal.js';
import type { Executor } from '../storage/store.js';
import type { EventTypeLocation } from './event-type-fields.js';
import type { Question } from './questions.js';
import { resolveEventType } from './resolve-event-type.js';

// What a visitor of the booking page may read about a host and an event
// type (docs/booking-page.md): names, what the meeting is, the form. Never
// the host's email, working hours, calendars or anything a token holder
// alone sees; the page is written from these views only.

/** An event type as its booking page shows it. */
export interface PublicEventType {
  readonly id: string;
  readonly slug: string;
  readonly name: string;
  readonly description: string | null;
  readonly durationMinutes: number;
  /** Off: its page says it takes no bookings now (switched off, archived, or its host deactivated). */
  readonly bookable: boolean;
  readonly recurring: boolean;
  readonly allowReschedule: boolean;
  /** How the meeting happens; a phone number or address is the host's to hand out in the invite, so only the kind is shown. */
  readonly locationType: EventTypeLocation['type'];
  readonly questions: readonly Question[];
  readonly host: PublicHost;
}

/** A host as the page names them. */
export interface PublicHost {
  readonly username: string;
  readonly name: string;
  /** The zone the page shows times in until the visitor picks theirs. */
  readonly timezone: string;
}

/**
 * The event type a booking page names, if the visitor's grant reaches it
 * (auth/visitor.ts): `404 event_type_not_found` otherwise, private types
 * and other hosts' among them.
 */
export async function publicEventType(db: Executor, principal: Principal, username: string, slug: string): Promise<PublicEventType> {
  const type = await resolveEventType(db, principal, { username, eventSlug: slug });
  return {
    id: type.id,
    slug: type.slug,
    name: type.name,
    description: type.description,
    durationMinutes: type.durationMinutes,
    bookable: type.status === 'on',
    recurring: type.recurring === 'on',
    allowReschedule: type.allowReschedule,
    locationType: type.location.type,
    questions: type.questions,
    host: { username: type.host.username, name: type.host.name, timezone: type.host.schedule?.timezone ?? type.host.timezone },
  };
}

/** A host's page: the host and the event types it lists (public, live, switched on), by name; undefined for nobody to show. */
export async function publicHostPage(
  db: Executor,
  username: string,
): Promise<
  { host: PublicHost; eventTypes: { slug: string; name: string; description: string | null; durationMinutes: number }[] } | undefined
> {
  const host = await db
    .selectFrom('users')
    .select(['id', 'username', 'name', 'timezone', 'schedule_json'])
    .where('username', '=', username)
    .where('deactivated_at', 'is', null)
    .executeTakeFirst();
  if (!host) return undefined;
  const types = await db
    .selectFrom('event_types')
    .select(['slug', 'name', 'description', 'duration_minutes'])
    .where('owner_user_id', '=', host.id)
    .where('visibility', '=', 'public')
    .where('status', '=', 'on')
    .where('archived_at', 'is', null)
    .orderBy('name')
    .orderBy('slug')
    .execute();
  // Stryker disable next-line ConditionalExpression: JSON.parse(null) is null, the same as the shortcut (the line's other mutant, parsing never, is killed).
  const schedule = host.schedule_json === null ? null : (JSON.parse(host.schedule_json) as { timezone?: string });
  return {
    host: { username: host.username, name: host.name, timezone: schedule?.timezone ?? host.timezone },
    eventTypes: types.map((t) => ({ slug: t.slug, name: t.name, description: t.description, durationMinutes: t.duration_minutes })),
  };
}

/** The host a booking page names, with the id a visitor's booking grant holds; undefined for an unknown or deactivated one. */
export async function bookingHost(db: Executor, username: string): Promise<{ readonly id: string } | undefined> {
  return db.selectFrom('users').select('id').where('username', '=', username).where('deactivated_at', 'is', null).executeTakeFirst();
}
