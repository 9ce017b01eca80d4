import type { ActsFor } from '../auth/roles.js';
import { mayActFor } from '../auth/roles.js';
import { ScheduleError } from '../errors.js';
import type { Executor } from '../storage/store.js';
import type { DeclaredPoolHost, EventTypeDeclaration } from './event-type-fields.js';

// A team event type's pool (docs/api/teams.md): the users who host its
// bookings, each booking either all of them (collective) or its fixed hosts
// and one of the rest (round robin). Callers name them by user id or username; the pool is stored
// by user id, so a renamed user stays in it.

/** A host of a pool as stored and shown: who, what round robin weighs them by, and whether they meet every attendee. */
export interface PoolHost {
  readonly user_id: string;
  readonly weight: number;
  readonly priority: number;
  readonly fixed: boolean;
}

/** A stored pool; a row made before teams has none, and a host stored before fixed hosts is not fixed. */
export function storedPool(json: string | null | undefined): PoolHost[] {
  // Stryker disable next-line ConditionalExpression,ArrayDeclaration: only a row of an export made before teams lacks the column (NOT NULL, default '[]').
  const stored = json ? (JSON.parse(json) as (Omit<PoolHost, 'fixed'> & { fixed?: boolean })[]) : [];
  return stored.map((h) => ({ ...h, fixed: h.fixed === true }));
}

/**
 * Refuses what a declaration cannot mean, naming the field (`400
 * validation_error`): a round-robin type needs a host to choose (one not
 * fixed), a collective one at least two hosts to meet together, and a single
 * host's type has none; seats are a single host's (a seat group meets one
 * host, and round robin would scatter it).
 */
export function checkTeamShape(fields: Pick<EventTypeDeclaration, 'scheduling' | 'hosts' | 'seats'>): void {
  const refuse = (field: string, message: string) => new ScheduleError('validation_error', `${field}: ${message}`, { fields: [field] });
  if (fields.scheduling === 'single' && fields.hosts.length > 0) throw refuse('hosts', 'a single host’s type has no pool; set scheduling');
  if (fields.scheduling === 'round_robin' && fields.hosts.length === 0) throw refuse('hosts', 'round_robin needs at least one host');
  if (fields.scheduling === 'round_robin' && fields.hosts.every((h) => h.fixed)) {
    throw refuse('hosts', 'round_robin needs a host that is not fixed to choose from');
  }
  if (fields.scheduling === 'collective' && fields.hosts.length < 2) throw refuse('hosts', 'collective needs at least two hosts');
  if (fields.scheduling !== 'single' && fields.seats !== null) throw refuse('seats', 'a team type has no seats');
}

/**
 * The pool as stored: each host named by user id or username resolved to a
 * user of the organization the caller may act for. An unknown user, one the
 * caller may not act for and a deactivated one are `403 host_not_allowed`
 * alike, naming the entry, as a type's owner is; one named twice is `400
 * validation_error`. (The workspace file, its operator's, names anyone:
 * workspace/kind-event-types.ts resolves its pools itself.)
 */
export async function resolvePool(db: Executor, hosts: readonly DeclaredPoolHost[], actsFor: ActsFor): Promise<PoolHost[]> {
  // Each entry's name, which is a user id or a username (never both, event-type-fields.ts); one query for all.
  const keys = hosts.map((h) => h.user_id ?? h.username!);
  const rows =
    // Stryker disable next-line ConditionalExpression,ArrayDeclaration: PostgreSQL only: an empty `in ()`, which SQLite answers with no rows; with no hosts nothing reads the rows.
    keys.length === 0
      ? // Stryker disable next-line ArrayDeclaration: with no hosts nothing reads the rows.
        []
      : await db
          .selectFrom('users')
          .select(['id', 'username', 'deactivated_at'])
          .where((eb) => eb.or([eb('id', 'in', keys), eb('username', 'in', keys)]))
          .execute();
  const seen = new Set<string>();
  return hosts.map((host, i) => {
    const row = rows.find((r) => (host.user_id === undefined ? r.username === host.username : r.id === host.user_id));
    const field = `hosts.${i}`;
    if (row === undefined || row.deactivated_at !== null || !mayActFor(actsFor, row.id)) {
      throw new ScheduleError('host_not_allowed', `${field} is not an active user this caller may act for.`, { fields: [field] });
    }
    if (seen.has(row.id)) throw new ScheduleError('validation_error', `${field}: this host is in the pool already`, { fields: [field] });
    seen.add(row.id);
    return { user_id: row.id, weight: host.weight, priority: host.priority, fixed: host.fixed };
  });
}
