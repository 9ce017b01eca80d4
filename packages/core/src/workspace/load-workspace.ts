import type { Kysely } from 'kysely';
import { hashSecret } from '../auth/token-secret.js';
import { bookingTitle, displayName } from '../bookings/attendee-name.js';
import { fingerprintOf } from '../canonical-json.js';
import type { Clock } from '../clock.js';
import { type IdGenerator, isUuid, stableUuid } from '../ids.js';
import { DEFAULT_LIMITS } from '../rate-limit/limits.js';
import type { BookingsTable } from '../storage/schema.js';
import type { Executor, Store } from '../storage/store.js';
import { parseInstant, toTimestamp } from '../time.js';
import { WorkspaceError } from './parse-workspace.js';
import type { Workspace, WorkspaceBooking } from './workspace-schema.js';

export interface LoadWorkspaceDeps {
  store: Store;
  clock: Clock;
  ids: IdGenerator;
}

export interface LoadReport {
  users: number;
  eventTypes: number;
  tokens: number;
  bookingsWritten: number;
  bookingsUnchanged: number;
}

interface UserRef {
  id: string;
  username: string;
  name: string;
  hasCalendars: boolean;
}
interface EventTypeRef {
  id: string;
  slug: string;
  ownerId: string;
  name: string;
  durationMinutes: number;
}

/**
 * Applies a validated workspace to the store in one transaction. Loading the
 * same file twice changes nothing; a changed file updates what it names and
 * leaves everything else alone (workspace.md). References are checked first,
 * so a bad file writes nothing.
 */
export async function loadWorkspace(deps: LoadWorkspaceDeps, workspace: Workspace): Promise<LoadReport> {
  const now = toTimestamp(deps.clock.now());
  return deps.store.db.transaction().execute(async (trx) => {
    const users = await resolveUsers(trx, workspace);
    const eventTypes = await resolveEventTypes(trx, workspace, users);
    const problems: string[] = [];

    const userByRef = (ref: string) => users.get(ref);
    for (const [i, user] of workspace.users.entries()) {
      for (const [j, managed] of user.manages.entries()) {
        if (!userByRef(managed)) problems.push(`users[${i}].manages[${j}]: no user "${managed}"`);
      }
    }
    for (const [i, eventType] of workspace.event_types.entries()) {
      if (!userByRef(eventType.owner)) problems.push(`event_types[${i}].owner: no user "${eventType.owner}"`);
    }
    for (const [i, token] of workspace.tokens.entries()) {
      if (!userByRef(token.user)) problems.push(`tokens[${i}].user: no user "${token.user}"`);
    }
    const bookingPlans = workspace.bookings.map((booking, i) => planBooking(booking, i, users, eventTypes, problems));
    if (problems.length > 0) throw new WorkspaceError(problems);

    const stored = await trx.selectFrom('organization').select('limits_json').where('id', '=', 1).executeTakeFirst();
    await upsertChanged(
      trx,
      'organization',
      1,
      {
        name: workspace.organization.name,
        // A file without `limits` keeps what an earlier file set.
        limits_json: JSON.stringify(workspace.limits ?? (stored ? JSON.parse(stored.limits_json) : DEFAULT_LIMITS)),
      },
      now,
    );

    for (const user of workspace.users) {
      const ref = users.get(user.username)!;
      const row = {
        username: user.username,
        email: user.email,
        name: ref.name,
        timezone: user.timezone,
        role: user.role,
        manages_json: JSON.stringify(user.manages.map((m) => users.get(m)!.id)),
        schedule_json: user.schedule ? JSON.stringify(user.schedule) : null,
        calendars_json: JSON.stringify(user.calendars),
      };
      await upsertChanged(trx, 'users', ref.id, row, now);
    }

    for (const eventType of workspace.event_types) {
      const ownerId = users.get(eventType.owner)!.id;
      const id = eventType.id ?? stableUuid(`event-type:${ownerId}:${eventType.slug}`);
      const row = {
        owner_user_id: ownerId,
        slug: eventType.slug,
        name: eventType.name,
        duration_minutes: eventType.duration_minutes,
        status: eventType.status,
        minimum_notice_minutes: eventType.minimum_notice_minutes,
        future_limit_days: eventType.future_limit_days,
        recurring: eventType.recurring,
        allow_reschedule: eventType.allow_reschedule ? 1 : 0,
        buffer_before_minutes: eventType.buffer_before_minutes,
        buffer_after_minutes: eventType.buffer_after_minutes,
        slot_interval_minutes: eventType.slot_interval_minutes ?? eventType.duration_minutes,
        questions_json: JSON.stringify(eventType.questions),
      };
      await upsertChanged(trx, 'event_types', id, row, now);
    }

    for (const token of workspace.tokens) {
      const row = {
        name: token.name,
        user_id: users.get(token.user)!.id,
        scopes_json: JSON.stringify(token.scopes),
        oauth_client_id: token.oauth_client_id ?? null,
        expires_at: token.expires_at ? toTimestamp(parseInstant(token.expires_at)!.epochMs) : null,
      };
      const secretHash = hashSecret(token.secret);
      const existing = await trx.selectFrom('tokens').select('revoked_at').where('secret_hash', '=', secretHash).executeTakeFirst();
      // A revocation keeps the time it first took effect; un-revoking clears it.
      const revokedAt = token.revoked ? (existing?.revoked_at ?? now) : null;
      if (existing) {
        await trx
          .updateTable('tokens')
          .set({ ...row, revoked_at: revokedAt })
          .where('secret_hash', '=', secretHash)
          .execute();
      } else {
        await trx
          .insertInto('tokens')
          .values({ id: deps.ids.uuid(), secret_hash: secretHash, ...row, revoked_at: revokedAt, created_at: now })
          .execute();
      }
    }

    let bookingsWritten = 0;
    for (const plan of bookingPlans) {
      if (await writeImportedBooking(trx, plan!, now)) bookingsWritten += 1;
    }

    return {
      users: workspace.users.length,
      eventTypes: workspace.event_types.length,
      tokens: workspace.tokens.length,
      bookingsWritten,
      bookingsUnchanged: bookingPlans.length - bookingsWritten,
    };
  });
}

type Stamped = 'organization' | 'users' | 'event_types';

/**
 * Inserts a row, or updates it only where a value differs, so that loading an
 * unchanged file leaves every row (and its `updated_at`) exactly as it was.
 */
async function upsertChanged(trx: Executor, table: Stamped, id: string | number, row: Record<string, unknown>, now: string): Promise<void> {
  // The three tables share the id / created_at / updated_at columns this needs.
  const db = trx as unknown as Kysely<Record<Stamped, Record<string, unknown>>>;
  const existing = await db.selectFrom(table).selectAll().where('id', '=', id).executeTakeFirst();
  if (!existing) {
    await db
      .insertInto(table)
      .values({ id, ...row, ...(table === 'organization' ? {} : { created_at: now }), updated_at: now })
      .execute();
    return;
  }
  if (Object.entries(row).every(([column, value]) => existing[column] === value)) return;
  await db
    .updateTable(table)
    .set({ ...row, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/** Users named by the file, plus those already stored, by username and by id. */
async function resolveUsers(trx: Executor, workspace: Workspace): Promise<Map<string, UserRef>> {
  const refs = new Map<string, UserRef>();
  const stored = await trx.selectFrom('users').select(['id', 'username', 'name', 'calendars_json']).execute();
  for (const row of stored) {
    const ref = { id: row.id, username: row.username, name: row.name, hasCalendars: row.calendars_json !== '[]' };
    refs.set(row.id, ref);
    refs.set(row.username, ref);
  }
  const seen = new Set<string>();
  for (const [i, user] of workspace.users.entries()) {
    if (seen.has(user.username)) throw new WorkspaceError([`users[${i}].username: "${user.username}" appears twice`]);
    seen.add(user.username);
    // Keep the id a stored user already has, so a file that omits ids reloads cleanly.
    const id = user.id ?? refs.get(user.username)?.id ?? stableUuid(`user:${user.username}`);
    const ref = { id, username: user.username, name: user.name ?? user.username, hasCalendars: user.calendars.length > 0 };
    refs.set(id, ref);
    refs.set(user.username, ref);
  }
  return refs;
}

async function resolveEventTypes(trx: Executor, workspace: Workspace, users: Map<string, UserRef>): Promise<EventTypeRef[]> {
  const stored = await trx.selectFrom('event_types').select(['id', 'slug', 'owner_user_id', 'name', 'duration_minutes']).execute();
  const byId = new Map<string, EventTypeRef>(
    stored.map((r) => [r.id, { id: r.id, slug: r.slug, ownerId: r.owner_user_id, name: r.name, durationMinutes: r.duration_minutes }]),
  );
  for (const eventType of workspace.event_types) {
    const owner = users.get(eventType.owner);
    if (!owner) continue;
    const id = eventType.id ?? stableUuid(`event-type:${owner.id}:${eventType.slug}`);
    byId.set(id, { id, slug: eventType.slug, ownerId: owner.id, name: eventType.name, durationMinutes: eventType.duration_minutes });
  }
  return [...byId.values()];
}

interface BookingPlan {
  uid: string;
  importHash: string;
  row: Omit<BookingsTable, 'uid' | 'version' | 'created_at' | 'updated_at' | 'import_hash'>;
}

function planBooking(
  booking: WorkspaceBooking,
  index: number,
  users: Map<string, UserRef>,
  eventTypes: readonly EventTypeRef[],
  problems: string[],
): BookingPlan | undefined {
  const at = `bookings[${index}]`;
  const hostFromRef = booking.host ? users.get(booking.host) : undefined;
  if (booking.host && !hostFromRef) {
    problems.push(`${at}.host: no user "${booking.host}"`);
    return undefined;
  }
  const candidates = isUuid(booking.event_type)
    ? eventTypes.filter((e) => e.id === booking.event_type)
    : eventTypes.filter((e) => e.slug === booking.event_type && (!hostFromRef || e.ownerId === hostFromRef.id));
  if (candidates.length !== 1) {
    problems.push(
      `${at}.event_type: ${candidates.length === 0 ? 'no event type' : 'more than one event type (name the host)'} "${booking.event_type}"`,
    );
    return undefined;
  }
  const eventType = candidates[0]!;
  const host = hostFromRef ?? [...users.values()].find((u) => u.id === eventType.ownerId);
  if (!host) {
    problems.push(`${at}.host: the event type's owner is unknown`);
    return undefined;
  }
  const startMs = parseInstant(booking.start)!.epochMs;
  const attendeeName = displayName(booking.attendee);
  const timezone = booking.timezone ?? booking.attendee.timezone ?? 'UTC';
  const uid = booking.uid ?? stableUuid(`booking:${host.id}:${booking.start}:${booking.attendee.email}`);
  const canceled = booking.status === 'canceled';
  return {
    uid,
    importHash: fingerprintOf(booking),
    row: {
      event_type_id: eventType.id,
      host_user_id: host.id,
      title: bookingTitle(eventType.name, host.name, attendeeName),
      status: booking.status,
      start_at: toTimestamp(startMs),
      end_at: toTimestamp(startMs + eventType.durationMinutes * 60_000),
      timezone,
      attendee_email: booking.attendee.email,
      attendees_json: JSON.stringify([
        { email: booking.attendee.email, name: attendeeName, timezone: booking.attendee.timezone ?? timezone },
      ]),
      guests_json: JSON.stringify(booking.guests.map((g) => (typeof g === 'string' ? { email: g } : g))),
      location_json: JSON.stringify(booking.location ?? { type: 'conference', url: null, value: null }),
      metadata_json: JSON.stringify(booking.metadata),
      responses_json: booking.responses ? JSON.stringify(booking.responses) : null,
      calendar_sync_status: host.hasCalendars ? 'synced' : 'not_applicable',
      calendar_event_id: '',
      rescheduled_from_uid: null,
      cancelled_at: canceled ? toTimestamp(parseInstant(booking.cancelled_at ?? booking.start)!.epochMs) : null,
      cancellation_reason: canceled ? (booking.cancellation_reason ?? null) : null,
      no_show_at: null,
      no_show_reason: null,
      series_uid: null,
      pattern_instant: null,
      moved_by_invitee: 0,
      canceled_by: null,
    },
  };
}

/** Writes one imported booking unless the stored row came from this very entry. */
async function writeImportedBooking(trx: Executor, plan: BookingPlan, now: string): Promise<boolean> {
  const existing = await trx.selectFrom('bookings').select(['version', 'import_hash']).where('uid', '=', plan.uid).executeTakeFirst();
  if (existing?.import_hash === plan.importHash) return false;
  if (existing) {
    await trx
      .updateTable('bookings')
      .set({ ...plan.row, import_hash: plan.importHash, version: existing.version + 1, updated_at: now })
      .where('uid', '=', plan.uid)
      .execute();
  } else {
    await trx
      .insertInto('bookings')
      .values({ uid: plan.uid, ...plan.row, import_hash: plan.importHash, version: 1, created_at: now, updated_at: now })
      .execute();
  }
  return true;
}
