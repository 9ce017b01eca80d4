import type { Command } from 'commander';
import { CliError } from '../backend/backend.js';
import { asCliErrors } from '../backend/core-refusals.js';
import { type RunContext, runCommand, withCommonOptions } from '../command-context.js';
import { inCi } from '../interactive/terminal.js';
import { EXIT_CODES } from '../output/exit-codes.js';
import { appliedText, planText } from '../output/plan-lines.js';
import { renderJson } from '../output/render.js';
import { readWorkspace } from '../workspace-file.js';
import { localStore } from './local-store.js';

/** The workspace file works on the server's database, as loading it does. */
const APPLIED = 'Workspace files are applied and exported';

async function core() {
  return import('@schedule/core');
}

/** Whether to go on with a plan that writes: always when piped or with --yes; on a terminal, when the person says so. */
async function confirmed(ctx: RunContext): Promise<boolean> {
  if (!ctx.style.tty || ctx.style.json || ctx.options.yes) return true;
  if (process.stdin.isTTY !== true || inCi()) {
    throw new CliError(
      'usage',
      'Nothing was applied: the plan has changes and there is no keyboard to confirm them on (stdin is not a terminal). Add --yes.',
    );
  }
  const { confirmOnTerminal } = await import('../interactive/confirm-command.js');
  return confirmOnTerminal('Apply these changes?', ctx.style.color);
}

/** `schedule apply` and `schedule plan`: the plan of a file, then (unless a dry run) the plan carried out. */
async function applyFile(ctx: RunContext, path: string, dryRun: boolean): Promise<void> {
  const [{ applyWorkspace, planWorkspace, randomIds, systemClock }, { workspaceFor }] = await Promise.all([
    core(),
    import('../open-runtime.js'),
  ]);
  const store = localStore(ctx, APPLIED);
  const file = workspaceFor(await readWorkspace(path, '-f'), path, false, systemClock.now());
  const deps = { store, clock: systemClock, ids: randomIds };
  const options = { prune: ctx.options.prune === true };
  const plan = await asCliErrors(() => planWorkspace(deps, file, options));
  if (dryRun || !plan.changes) {
    ctx.print(ctx.style.json ? renderJson({ ...plan, applied: false }) : planText(plan));
    if (dryRun && plan.changes) process.exitCode = EXIT_CODES.changes;
    return;
  }
  if (!ctx.style.json) ctx.print(planText(plan));
  if (!(await confirmed(ctx))) throw new CliError('canceled', 'Nothing was applied.');
  // The plan shown is the plan applied: a database changed meanwhile refuses it (version_conflict).
  const applied = await asCliErrors(() => applyWorkspace(deps, file, { ...options, expected: plan }));
  ctx.print(ctx.style.json ? renderJson({ ...applied, applied: true }) : appliedText(applied));
}

/** `schedule apply`, `schedule plan` and `schedule export`. */
export function registerWorkspace(program: Command): void {
  for (const [name, dryRun] of [
    ['apply', false],
    ['plan', true],
  ] as const) {
    const command = program
      .command(name)
      .description(
        dryRun
          ? 'Show what applying a workspace file would change (as apply --dry-run); exit 10 when it would change something.'
          : 'Make the database what a workspace file says: show the plan, then write it (on a terminal, after you confirm).',
      )
      .requiredOption('-f, --file <path>', 'the workspace file; - reads it from stdin')
      .option('--prune', 'also remove what the file no longer names: event types switched off, tokens and OAuth clients revoked');
    if (!dryRun) {
      command
        .option('--dry-run', 'show the plan only; exit 0 when it has no changes, 10 when it has')
        .option('-y, --yes', 'apply without asking on a terminal');
    }
    withCommonOptions(command, 'local')
      .addHelpText(
        'after',
        [
          '',
          'Examples:',
          `  schedule ${name} -f workspace.json --db postgres://127.0.0.1/schedule`,
          '  schedule export --db old.db | schedule apply -f - --db new.db --yes',
        ].join('\n'),
      )
      .action((_, cmd: Command) =>
        runCommand(cmd, (ctx) => applyFile(ctx, String(ctx.options.file), dryRun || ctx.options.dryRun === true)),
      );
  }

  withCommonOptions(
    program
      .command('export')
      .description(
        'Print the database as a workspace file that applies back with no changes (tokens and bookings are left out: see docs/workspace.md).',
      ),
    'local',
  )
    .addHelpText('after', '\nExample:\n  schedule export --db ./schedule.db > workspace.json')
    .action((_, cmd: Command) =>
      runCommand(cmd, async (ctx) => {
        const { exportWorkspace } = await core();
        ctx.print(renderJson(await exportWorkspace(localStore(ctx, APPLIED).db)));
      }),
    );
}
