import { canonicalJson } from '../canonical-json.js';
import { ScheduleError } from '../errors.js';
import { toTimestamp } from '../time.js';
import { type PlanOptions, planIn, type WorkspacePlan } from './plan-workspace.js';
import type { ApplyDeps } from './resource-kind.js';
import type { DeclaredWorkspace } from './workspace-sections.js';

export interface ApplyOptions extends PlanOptions {
  /**
   * The plan a person confirmed: if the database changed since, so that the
   * plan made now differs, nothing is written (`version_conflict`).
   */
  readonly expected?: WorkspacePlan;
}

/**
 * Plans a declared workspace and carries the plan out, in one transaction:
 * writes the entries it creates or changes, then prunes (with `prune`) what
 * the file no longer names. A bad file writes nothing. Returns the plan
 * that was carried out.
 */
export async function applyWorkspace(deps: ApplyDeps, declared: DeclaredWorkspace, options: ApplyOptions = {}): Promise<WorkspacePlan> {
  const now = toTimestamp(deps.clock.now());
  return deps.store.db.transaction().execute(async (trx) => {
    const { plan, steps } = await planIn(trx, declared, options, now);
    if (options.expected && canonicalJson(options.expected) !== canonicalJson(plan)) {
      throw new ScheduleError(
        'version_conflict',
        'The database changed after the plan was shown; nothing was applied. Review the new plan.',
      );
    }
    for (const step of steps) await step(trx, { deps, now });
    return plan;
  });
}
