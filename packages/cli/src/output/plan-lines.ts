import type { PlanItem, PruneAction, WorkspacePlan } from '@schedule/core';

// A workspace plan for people, one line an entry, as `terraform plan` and
// `kubectl diff` show theirs: + create, ~ change (field old → new),
// - not in the file, and one line counting the unchanged.

const value = (v: unknown) => JSON.stringify(v);

/** What `--prune` does to an entry the file no longer names, and whether this run does it. */
function pruneWords(prune: PruneAction, pruning: boolean): string {
  switch (prune) {
    case 'archive':
      return pruning ? 'archived by --prune' : '--prune archives it';
    case 'revoke':
      return pruning ? 'revoked by --prune' : '--prune revokes it';
    case 'not_supported':
      return 'kept: a file does not remove people';
  }
}

function itemLine(item: PlanItem): string | undefined {
  // The organization is one of a kind: its label is its kind.
  const name = item.label === item.kind ? item.kind : `${item.kind} ${item.label}`;
  switch (item.action) {
    case 'create':
      return `+ ${name} (create)`;
    case 'change':
      return `~ ${name}: ${item.changes.map((c) => `${c.field} ${value(c.from)} → ${value(c.to)}`).join(', ')}`;
    case 'not_in_file':
      return `- ${name} (not in file; ${pruneWords(item.prune, item.pruning)})`;
    case 'unchanged':
      return undefined;
  }
}

/** The plan's lines, then how many are unchanged, then what it adds up to. */
export function planText(plan: WorkspacePlan): string {
  const lines = plan.items.flatMap((item) => itemLine(item) ?? []);
  if (plan.summary.unchanged > 0) lines.push(`= ${plan.summary.unchanged} unchanged`);
  const { create, change, prune } = plan.summary;
  lines.push(plan.changes ? `Plan: ${create} to create, ${change} to change, ${prune} to prune.` : 'No changes.');
  return `${lines.join('\n')}\n`;
}

/** The line after an apply that wrote. */
export function appliedText(plan: WorkspacePlan): string {
  const { create, change, prune } = plan.summary;
  return `Applied: ${create} created, ${change} changed, ${prune} pruned.\n`;
}
