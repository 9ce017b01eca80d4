import type { Workspace } from './workspace-schema.js';

/**
 * The top-level keys of a workspace file that declare resources. A file
 * manages only the sections it has: one with only `event_types` leaves the
 * users, tokens and organization as they are, and `--prune` removes nothing
 * of theirs (docs/workspace.md "Apply, plan, prune, export").
 */
export const SECTIONS = ['organization', 'attendee_mail', 'limits', 'users', 'event_types', 'tokens', 'bookings', 'oauth_clients'] as const;
export type Section = (typeof SECTIONS)[number];

/** A validated workspace and the sections its file wrote. */
export interface DeclaredWorkspace {
  readonly workspace: Workspace;
  readonly sections: ReadonlySet<Section>;
}

/** The sections a parsed JSON object (one the schema accepted) has. */
export function sectionsOf(raw: object): ReadonlySet<Section> {
  const keys = Object.keys(raw);
  return new Set(SECTIONS.filter((section) => keys.includes(section)));
}

/** A workspace built in code, which manages every section (as loading always has). */
export function declaringAll(workspace: Workspace): DeclaredWorkspace {
  return { workspace, sections: new Set(SECTIONS) };
}
