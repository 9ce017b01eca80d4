import type { Principal } from '../auth/principal.js';
import type { Role } from '../auth/roles.js';
import { ScheduleError } from '../errors.js';
import type { Dialect, Executor } from '../storage/store.js';

// Who may change whom (docs/api/people.md "Who may do what"). Seeing a person
// is the acts-for set (find-person.ts); these rules are what more it takes.

/** Why a change is refused: the caller's role, an owner's change by a non-owner, or the credential. */
export type ForbiddenReason = 'role' | 'owner_only' | 'oauth_credential' | 'scopes_not_held';

export function forbidden(reason: ForbiddenReason, message: string, details: Record<string, unknown> = {}): ScheduleError {
  return new ScheduleError('forbidden', message, { reason, ...details });
}

/** True for the roles that run the organization: admins and owners. */
export function runsOrganization(principal: Principal): boolean {
  return principal.account.role === 'admin' || principal.account.role === 'owner';
}

/** Refuses a caller that is not an admin or owner; `fields` names what it asked to change, if any. */
export function requireAdmin(principal: Principal, action: string, fields?: readonly string[]): void {
  if (!runsOrganization(principal)) {
    throw forbidden('role', `Only admins and owners may ${action}.`, fields ? { fields } : {});
  }
}

/**
 * Refuses a non-owner who would change an owner, or make one: an admin runs
 * the organization, but its owners are changed only by an owner.
 */
export function requireOwnerFor(principal: Principal, target: { readonly role: Role }, granted?: Role): void {
  if (principal.account.role === 'owner') return;
  if (target.role === 'owner') throw forbidden('owner_only', 'Only an owner may change an owner.');
  if (granted === 'owner') throw forbidden('owner_only', 'Only an owner may make someone an owner.', { fields: ['role'] });
}

/**
 * Refuses a change that would leave no active owner: demoting or
 * deactivating the last one. The active owners are read locked on
 * PostgreSQL, so two owners demoting each other at once cannot both succeed;
 * SQLite runs one write at a time.
 */
export async function keepAnOwner(trx: Executor, dialect: Dialect, target: { readonly id: string; readonly role: Role }): Promise<void> {
  if (target.role !== 'owner') return;
  // Every active owner is locked, the target too, in one order: two such changes queue rather than deadlock.
  let owners = trx.selectFrom('users').select('id').where('role', '=', 'owner').where('deactivated_at', 'is', null).orderBy('id');
  // Stryker disable next-line ConditionalExpression,StringLiteral: a lock: only two transactions racing on PostgreSQL tell it apart; SQLite writes one at a time.
  if (dialect === 'postgres') owners = owners.forUpdate();
  if ((await owners.execute()).every((owner) => owner.id === target.id)) {
    throw new ScheduleError('last_owner', 'This is the last active owner; make someone else an owner first.', {});
  }
}
