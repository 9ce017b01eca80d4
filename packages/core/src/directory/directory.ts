import { z } from 'zod';
import type { Principal } from '../auth/principal.js';
import { ScheduleError } from '../errors.js';
import { bookingUrlOf, type PagesAddress } from '../event-types/booking-url.js';
import { storedQuestions } from '../event-types/questions.js';
import { decodeCursor, MAX_PAGE_SIZE, type Page, pageOf, queryBinding } from '../pagination/cursor.js';
import { cursorParam, limitParam } from '../pagination/query-params.js';
import type { Executor } from '../storage/store.js';
import type { Caller, EventTypeSummary, Person } from './directory-view.js';

/** The caller as it authenticated. */
export function describeCaller(principal: Principal): Caller {
  const { account, credential } = principal;
  // execute refuses a visitor of the booking page every call of scope null, this one among them: it holds no token to describe.
  if (credential.kind === 'visitor') throw new ScheduleError('insufficient_scope', 'A visitor of the booking page holds no token.', {});
  return {
    user_id: account.id,
    username: account.username,
    name: account.name,
    email: account.email,
    timezone: account.timezone,
    role: account.role,
    credential: credential.kind,
    scopes: [...principal.scopes].sort(),
    acts_for: principal.actsFor.kind === 'organization' ? 'organization' : [...principal.actsFor.ids].sort(),
  };
}

/** The query of the directory lists: a page size (default 100, as a directory is small) and a cursor. */
export const directoryQuerySchema = z.object({ limit: limitParam(MAX_PAGE_SIZE), cursor: cursorParam });
export type DirectoryQuery = z.output<typeof directoryQuerySchema>;

/** The people the caller may act for (docs/api/choices.md): whose bookings and series it sees and books; by username. */
export async function listPeople(db: Executor, principal: Principal, query: DirectoryQuery): Promise<Page<Person>> {
  const binding = queryBinding({ list: 'people' });
  let q = db.selectFrom('users').select(['id', 'username', 'name', 'email', 'timezone', 'role']).orderBy('username');
  if (principal.actsFor.kind === 'users') q = q.where('id', 'in', [...principal.actsFor.ids]);
  if (query.cursor !== undefined) q = q.where('username', '>', decodeCursor(query.cursor, binding).value);
  const rows = await q.limit(query.limit + 1).execute();
  return pageOf(
    rows,
    query.limit,
    binding,
    (r) => ({ value: r.username, uid: r.id }),
    (r) => ({ user_id: r.id, username: r.username, name: r.name, email: r.email, timezone: r.timezone, role: r.role }),
  );
}

/** The event types the caller can book: those owned by someone it may act for; by owner, then slug. */
export async function listEventTypes(
  db: Executor,
  principal: Principal,
  query: DirectoryQuery,
  pages?: PagesAddress,
): Promise<Page<EventTypeSummary>> {
  const binding = queryBinding({ list: 'event_types' });
  let q = db
    .selectFrom('event_types')
    .innerJoin('users', 'users.id', 'event_types.owner_user_id')
    .selectAll('event_types')
    .select(['users.username', 'users.timezone as owner_timezone', 'users.schedule_json'])
    // Archived (deleted) types are not listed; GET /v1/event-types/:id still answers them.
    .where('event_types.archived_at', 'is', null)
    .orderBy('users.username')
    .orderBy('event_types.slug');
  if (principal.actsFor.kind === 'users') q = q.where('event_types.owner_user_id', 'in', [...principal.actsFor.ids]);
  if (query.cursor !== undefined) {
    // Usernames and slugs never hold a space, so "username slug" orders as the pair does.
    // Stryker disable next-line StringLiteral: the defaults only type the destructuring; a cursor that passed its binding holds both parts
    const [username = '', slug = ''] = decodeCursor(query.cursor, binding).value.split(' ');
    q = q.where((eb) =>
      eb.or([eb('users.username', '>', username), eb.and([eb('users.username', '=', username), eb('event_types.slug', '>', slug)])]),
    );
  }
  const rows = await q.limit(query.limit + 1).execute();
  return pageOf(
    rows,
    query.limit,
    binding,
    (r) => ({ value: `${r.username} ${r.slug}`, uid: r.id }),
    (r) => {
      // Stryker disable next-line ConditionalExpression: JSON.parse(null) is null too; the test says what null means
      const schedule = r.schedule_json === null ? null : (JSON.parse(r.schedule_json) as { timezone?: string });
      return {
        id: r.id,
        slug: r.slug,
        name: r.name,
        owner: { user_id: r.owner_user_id, username: r.username },
        duration_minutes: r.duration_minutes,
        status: r.status,
        recurring: r.recurring,
        allow_reschedule: r.allow_reschedule === 1,
        minimum_notice_minutes: r.minimum_notice_minutes,
        cancel_notice_minutes: r.cancel_notice_minutes,
        reschedule_notice_minutes: r.reschedule_notice_minutes,
        future_limit_days: r.future_limit_days,
        timezone: schedule?.timezone ?? r.owner_timezone,
        questions: storedQuestions(r.questions_json),
        // Archived types are not listed (above).
        booking_url: bookingUrlOf(pages, { username: r.username, slug: r.slug, visibility: r.visibility, archived: false }),
      };
    },
  );
}
