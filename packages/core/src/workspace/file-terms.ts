import type { ResourceKind } from './resource-kind.js';

// Entries hold users as ids, so that renaming a user is one change, not one
// per event type they own; people and files read usernames.

/** A field's value as the file writes it: user ids as usernames (an id no user has stays as it is). */
export function inFileTerms(kind: ResourceKind, field: string, value: unknown, names: ReadonlyMap<string, string>): unknown {
  if (!kind.userRefs.includes(field)) return value;
  // Stryker disable next-line ConditionalExpression: a Map of strings has no other key, so `?? id` gives such a value back alike
  const name = (id: unknown) => (typeof id === 'string' ? (names.get(id) ?? id) : id);
  return Array.isArray(value) ? value.map(name) : name(value);
}

/** An entry's fields as a file entry: usernames for user ids, and no field for a `null` (the file leaves it out). */
export function fileEntryOf(
  kind: ResourceKind,
  fields: Readonly<Record<string, unknown>>,
  names: ReadonlyMap<string, string>,
): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(fields)
      .filter(([, value]) => value !== null)
      .map(([field, value]) => [field, inFileTerms(kind, field, value, names)]),
  );
}
