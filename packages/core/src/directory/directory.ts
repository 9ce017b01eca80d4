import type { Principal } from '../auth/principal.js';
import type { Role } from '../auth/roles.js';
import type { Executor } from '../storage/store.js';
import type { Caller, EventTypeSummary, Person } from './directory-view.js';

/** The caller as it authenticated. */
export function describeCaller(principal: Principal): Caller {
  const { account } = principal;
  return {
    user_id: account.id,
    username: account.username,
    name: account.name,
    email: account.email,
    timezone: account.timezone,
    role: account.role,
    credential: principal.credential.kind,
    scopes: [...principal.scopes].sort(),
    acts_for: principal.actsFor.kind === 'organization' ? 'organization' : [...principal.actsFor.ids].sort(),
  };
}

/** The people the caller may act for (decisions.md): whose bookings and series it sees and books. */
export async function listPeople(db: Executor, principal: Principal): Promise<Person[]> {
  let q = db.selectFrom('users').select(['id', 'username', 'name', 'email', 'timezone', 'role']).orderBy('username');
  if (principal.actsFor.kind === 'users') q = q.where('id', 'in', [...principal.actsFor.ids]);
  const rows = await q.execute();
  return rows.map((r) => ({
    user_id: r.id,
    username: r.username,
    name: r.name,
    email: r.email,
    timezone: r.timezone,
    role: r.role as Role,
  }));
}

/** The event types the caller can book: those owned by someone it may act for. */
export async function listEventTypes(db: Executor, principal: Principal): Promise<EventTypeSummary[]> {
  let q = db
    .selectFrom('event_types')
    .innerJoin('users', 'users.id', 'event_types.owner_user_id')
    .selectAll('event_types')
    .select(['users.username', 'users.timezone as owner_timezone', 'users.schedule_json'])
    .orderBy('users.username')
    .orderBy('event_types.slug');
  if (principal.actsFor.kind === 'users') q = q.where('event_types.owner_user_id', 'in', [...principal.actsFor.ids]);
  const rows = await q.execute();
  return rows.map((r) => {
    const schedule = r.schedule_json === null ? null : (JSON.parse(r.schedule_json) as { timezone?: string });
    return {
      id: r.id,
      slug: r.slug,
      name: r.name,
      owner: { user_id: r.owner_user_id, username: r.username },
      duration_minutes: r.duration_minutes,
      status: r.status as EventTypeSummary['status'],
      recurring: r.recurring as EventTypeSummary['recurring'],
      allow_reschedule: r.allow_reschedule === 1,
      minimum_notice_minutes: r.minimum_notice_minutes,
      future_limit_days: r.future_limit_days,
      timezone: schedule?.timezone ?? r.owner_timezone,
    };
  });
}
