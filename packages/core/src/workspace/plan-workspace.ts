import { canonicalJson } from '../canonical-json.js';
import type { Executor } from '../storage/store.js';
import { toTimestamp } from '../time.js';
import { inFileTerms } from './file-terms.js';
import { WorkspaceError } from './parse-workspace.js';
import { resolveWorkspace } from './resolve-workspace.js';
import type { ApplyDeps, Entry, FileEntry, KindName, PruneAction, ResourceKind, WriteContext } from './resource-kind.js';
import { WORKSPACE_KINDS } from './workspace-kinds.js';
import type { DeclaredWorkspace } from './workspace-sections.js';

// The plan of a workspace file: its entries compared, kind by kind and field
// by field, with the stored ones as export reads them (workspace-kinds.ts).
// One representation for both, so an exported file plans empty by
// construction, and apply writes exactly the entries the plan lists.

/** One field the file changes, in the file's terms (usernames, not ids). */
export interface FieldChange {
  readonly field: string;
  readonly from: unknown;
  readonly to: unknown;
}

interface Named {
  readonly kind: KindName;
  readonly key: string;
  readonly label: string;
}

/** One line of a plan. */
export type PlanItem =
  | (Named & { readonly action: 'create' })
  | (Named & { readonly action: 'change'; readonly changes: readonly FieldChange[] })
  | (Named & { readonly action: 'unchanged' })
  /** Stored, of a kind the file declares, but not named by it: `pruning` says whether this apply prunes it. */
  | (Named & { readonly action: 'not_in_file'; readonly prune: PruneAction; readonly pruning: boolean });

export interface PlanSummary {
  readonly create: number;
  readonly change: number;
  readonly unchanged: number;
  readonly not_in_file: number;
  readonly prune: number;
}

/** What applying a file would do; `changes` is false when it would write nothing. */
export interface WorkspacePlan {
  readonly changes: boolean;
  readonly summary: PlanSummary;
  readonly items: readonly PlanItem[];
}

export interface PlanOptions {
  /** Plan to prune what the file no longer names (per kind: resource-kind.ts PruneRule). */
  readonly prune?: boolean;
}

type Step = (trx: Executor, ctx: WriteContext) => Promise<void>;

const same = (a: unknown, b: unknown) => canonicalJson(a) === canonicalJson(b);

function changesOf(kind: ResourceKind, file: Entry, stored: Entry, names: ReadonlyMap<string, string>): FieldChange[] {
  // Only the fields the file's entry has: the others are not the file's to manage.
  return Object.keys(file.fields)
    .filter((field) => !same(file.fields[field], stored.fields[field]))
    .map((field) => ({
      field,
      from: inFileTerms(kind, field, stored.fields[field] ?? null, names),
      to: inFileTerms(kind, field, file.fields[field], names),
    }));
}

/** The file's entries of one kind; a key given twice is a problem of the file. */
function fileEntriesOf(kind: ResourceKind, file: Parameters<ResourceKind['fromFile']>[0], problems: string[]): FileEntry[] {
  const entries = kind.fromFile(file);
  const seen = new Set<string>();
  for (const entry of entries) {
    if (seen.has(entry.key)) problems.push(`${entry.at}: "${entry.label}" appears twice`);
    seen.add(entry.key);
  }
  return entries;
}

/**
 * The plan of a declared workspace on the database `trx` reads, and the
 * steps that carry it out (writes of created and changed entries, then the
 * prunes), for `applyWorkspace` to run in the same transaction. A file
 * with a problem is refused here, before any step exists.
 */
export async function planIn(
  trx: Executor,
  declared: DeclaredWorkspace,
  options: PlanOptions,
  now: string,
): Promise<{ plan: WorkspacePlan; steps: Step[] }> {
  const resolved = await resolveWorkspace(trx, declared, now);
  const names = new Map([...resolved.users.values()].map((user) => [user.id, user.username]));
  const problems: string[] = [];
  // A kind whose sections the file leaves out is not the file's: nothing of it is read, listed or pruned.
  const perKind = WORKSPACE_KINDS.filter((kind) => kind.sections.some((section) => declared.sections.has(section))).map((kind) => ({
    kind,
    entries: fileEntriesOf(kind, resolved, problems),
  }));
  if (problems.length > 0) throw new WorkspaceError(problems);

  const items: PlanItem[] = [];
  const steps: Step[] = [];
  for (const { kind, entries } of perKind) {
    const stored = await kind.read(trx, names, new Set(entries.map((e) => e.key)));
    const storedByKey = new Map(stored.map((entry) => [entry.key, entry]));
    for (const entry of entries) {
      const named = { kind: kind.kind, key: entry.key, label: entry.label };
      const before = storedByKey.get(entry.key);
      // Stryker disable next-line ArrayDeclaration: a created entry's line has no changes; the value is not read
      const changes = before ? changesOf(kind, entry, before, names) : [];
      if (before && changes.length === 0) {
        items.push({ ...named, action: 'unchanged' });
        continue;
      }
      items.push(before ? { ...named, action: 'change', changes } : { ...named, action: 'create' });
      steps.push((t, ctx) => entry.write(t, ctx));
    }
    const rule = kind.prune;
    // Stryker disable next-line ConditionalExpression: a kind without a rule reads only entries the file names (the one organization, bookings by key)
    if (!rule) continue;
    const fileKeys = new Set(entries.map((e) => e.key));
    for (const entry of stored) {
      if (fileKeys.has(entry.key)) continue;
      const item = { kind: kind.kind, key: entry.key, label: entry.label, action: 'not_in_file' as const };
      if (rule.action === 'not_supported') {
        items.push({ ...item, prune: rule.action, pruning: false });
        continue;
      }
      // Already as a prune leaves it (revoked): nothing to say; archived types are not read at all.
      if (rule.done(entry)) continue;
      items.push({ ...item, prune: rule.action, pruning: options.prune === true });
      if (options.prune) steps.push((t, ctx) => rule.run(t, ctx, entry));
    }
  }
  return { plan: planOf(items), steps };
}

function planOf(items: readonly PlanItem[]): WorkspacePlan {
  const count = (test: (item: PlanItem) => boolean) => items.filter(test).length;
  const summary: PlanSummary = {
    create: count((i) => i.action === 'create'),
    change: count((i) => i.action === 'change'),
    unchanged: count((i) => i.action === 'unchanged'),
    not_in_file: count((i) => i.action === 'not_in_file'),
    // Stryker disable next-line ConditionalExpression: only a not_in_file line has `pruning`; the test narrows the type to read it
    prune: count((i) => i.action === 'not_in_file' && i.pruning),
  };
  return { changes: summary.create + summary.change + summary.prune > 0, summary, items };
}

/** The plan of a workspace file on a store, read in one transaction; writes nothing. */
export async function planWorkspace(deps: ApplyDeps, declared: DeclaredWorkspace, options: PlanOptions = {}): Promise<WorkspacePlan> {
  const now = toTimestamp(deps.clock.now());
  return deps.store.db.transaction().execute(async (trx) => (await planIn(trx, declared, options, now)).plan);
}
