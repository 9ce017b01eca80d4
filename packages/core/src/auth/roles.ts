import type { Role } from '../storage/schema.js';

// Roles are stored in users.role, so their list is declared with the tables.
export { ROLES, type Role } from '../storage/schema.js';

/**
 * Who a user may act for, which is also whose bookings and series they see:
 * a user, themself; a manager, themself and the people they manage; an admin
 * or owner, the whole organization.
 */
export type ActsFor = { readonly kind: 'organization' } | { readonly kind: 'users'; readonly ids: ReadonlySet<string> };

export function actsForOf(role: Role, userId: string, manages: readonly string[]): ActsFor {
  switch (role) {
    case 'owner':
    case 'admin':
      return { kind: 'organization' };
    case 'manager':
      return { kind: 'users', ids: new Set([userId, ...manages]) };
    case 'user':
      return { kind: 'users', ids: new Set([userId]) };
  }
}

export function mayActFor(actsFor: ActsFor, userId: string): boolean {
  return actsFor.kind === 'organization' || actsFor.ids.has(userId);
}
