import type { Calendar } from '../event-types/calendar.js';
import { stableUuid } from '../ids.js';
import type { Executor } from '../storage/store.js';
import { WorkspaceError } from './parse-workspace.js';
import type { Workspace, WorkspaceEventType } from './workspace-schema.js';

/** A user a workspace entry may name, stored or in the file. */
export interface UserRef {
  readonly id: string;
  readonly username: string;
  readonly name: string;
  readonly calendars: readonly Calendar[];
}

/** An event type a workspace booking may name, stored or in the file. */
export interface EventTypeRef {
  readonly id: string;
  readonly slug: string;
  readonly ownerId: string;
  readonly name: string;
  readonly durationMinutes: number;
}

/**
 * The id an event type of the file has: its own; else that of the stored
 * event type with its owner and slug (one the API made has a random id);
 * else one derived from its owner and slug, so reloading finds it.
 */
export function eventTypeIdOf(eventType: WorkspaceEventType, ownerId: string, storedIds: ReadonlyMap<string, string> = new Map()): string {
  return eventType.id ?? storedIds.get(`${ownerId}/${eventType.slug}`) ?? stableUuid(`event-type:${ownerId}:${eventType.slug}`);
}

/** Users named by the file, plus those already stored, by username and by id. */
export async function resolveUsers(trx: Executor, workspace: Workspace): Promise<Map<string, UserRef>> {
  const refs = new Map<string, UserRef>();
  const stored = await trx.selectFrom('users').select(['id', 'username', 'name', 'calendars_json']).execute();
  for (const row of stored) {
    const ref = { id: row.id, username: row.username, name: row.name, calendars: JSON.parse(row.calendars_json) as Calendar[] };
    refs.set(row.id, ref);
    refs.set(row.username, ref);
  }
  const seen = new Set<string>();
  for (const [i, user] of workspace.users.entries()) {
    if (seen.has(user.username)) throw new WorkspaceError([`users[${i}].username: "${user.username}" appears twice`]);
    seen.add(user.username);
    // Keep the id a stored user already has, so a file that omits ids reloads cleanly.
    const id = user.id ?? refs.get(user.username)?.id ?? stableUuid(`user:${user.username}`);
    const ref = { id, username: user.username, name: user.name ?? user.username, calendars: user.calendars };
    refs.set(id, ref);
    refs.set(user.username, ref);
  }
  return refs;
}

/** Event types of the file, plus those already stored, and the id of each of the file's (by index). */
export async function resolveEventTypes(
  trx: Executor,
  workspace: Workspace,
  users: Map<string, UserRef>,
): Promise<{ all: EventTypeRef[]; ofFile: string[] }> {
  const stored = await trx
    .selectFrom('event_types')
    .select(['id', 'slug', 'owner_user_id', 'name', 'duration_minutes'])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const byId = new Map<string, EventTypeRef>(
    stored.map((r) => [r.id, { id: r.id, slug: r.slug, ownerId: r.owner_user_id, name: r.name, durationMinutes: r.duration_minutes }]),
  );
  // One stored type an owner and slug: the table's unique constraint (an archived type's slug is `~<id>`).
  const storedIds = new Map(stored.map((r) => [`${r.owner_user_id}/${r.slug}`, r.id]));
  const ofFile: string[] = [];
  for (const eventType of workspace.event_types) {
    const owner = users.get(eventType.owner);
    // Stryker disable next-line StringLiteral: a type without its owner refuses the file (resolve-workspace.ts); its id is never read
    const id = owner ? eventTypeIdOf(eventType, owner.id, storedIds) : '';
    ofFile.push(id);
    if (!owner) continue;
    byId.set(id, { id, slug: eventType.slug, ownerId: owner.id, name: eventType.name, durationMinutes: eventType.duration_minutes });
  }
  return { all: [...byId.values()], ofFile };
}
