import type { Clock } from '../clock.js';
import type { IdGenerator } from '../ids.js';
import type { BookingsTable } from '../storage/schema.js';
import type { Executor, Store } from '../storage/store.js';
import type { EventTypeRef, UserRef } from './workspace-refs.js';
import type { DeclaredWorkspace, Section } from './workspace-sections.js';

// One row of the table of kinds (workspace-kinds.ts): how a kind of resource
// is named, read, written and pruned. The plan, the apply and the export
// know nothing else about it, so each kind's writer can be swapped for the
// API's own without touching them.

/** The kinds of resource a workspace file declares, as plan lines name them. */
export type KindName = 'organization' | 'user' | 'event_type' | 'token' | 'booking' | 'oauth_client';

/** What `--prune` does to a stored entry the file no longer names. */
export type PruneAction = 'archive' | 'revoke' | 'not_supported';

/**
 * One resource in the file's terms: its identity, a name for people, and
 * its fields as the file writes them (defaults filled in, references to
 * users as ids, `null` for a field the file leaves out).
 */
export interface Entry {
  readonly key: string;
  readonly label: string;
  readonly fields: Readonly<Record<string, unknown>>;
}

export interface ApplyDeps {
  readonly store: Store;
  readonly clock: Clock;
  readonly ids: IdGenerator;
}

/** What a write or a prune gets: the deps and the time of this apply. */
export interface WriteContext {
  readonly deps: ApplyDeps;
  readonly now: string;
}

/** An entry of the file, with how to store it. */
export interface FileEntry extends Entry {
  /** Where it is in the file, for problems: `event_types[2]`. */
  readonly at: string;
  write(trx: Executor, ctx: WriteContext): Promise<void>;
}

/** The file with its references resolved against the database (workspace-refs.ts). */
export interface ResolvedFile {
  readonly declared: DeclaredWorkspace;
  /** Users by username and by id: the file's and the stored ones. */
  readonly users: ReadonlyMap<string, UserRef>;
  readonly eventTypes: readonly EventTypeRef[];
  /** The id of each of the file's event types, by index. */
  readonly eventTypeIds: readonly string[];
  /** The row of each of the file's bookings, by index. */
  readonly bookingRows: readonly BookingsTable[];
}

/** How a stored entry the file does not name is pruned. */
export type PruneRule =
  | { readonly action: 'not_supported' }
  | {
      readonly action: 'archive' | 'revoke';
      /** Already in the state a prune leaves it in: not listed. */
      done(entry: Entry): boolean;
      run(trx: Executor, ctx: WriteContext, entry: Entry): Promise<void>;
    };

export interface ResourceKind {
  readonly kind: KindName;
  /** The file's sections it is read from: a file with none of them does not manage it. */
  readonly sections: readonly Section[];
  /** Fields holding user ids, shown and exported as usernames. */
  readonly userRefs: readonly string[];
  /** The file's entries of this kind (called only when the file has one of its sections). */
  fromFile(file: ResolvedFile): FileEntry[];
  /** The stored entries; `fileKeys` are the keys the file names (bookings read only those). */
  read(trx: Executor, names: ReadonlyMap<string, string>, fileKeys: ReadonlySet<string>): Promise<Entry[]>;
  /** The top-level keys the stored entries are exported as; absent for kinds export leaves out. */
  exportAs?(fields: readonly Record<string, unknown>[]): Record<string, unknown>;
  /** Absent: a stored entry the file does not name is not listed (bookings, the organization). */
  readonly prune?: PruneRule;
}
