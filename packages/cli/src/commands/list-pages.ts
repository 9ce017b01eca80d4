import type { OperationName } from '@schedule/core';
import type { Command } from 'commander';
import { type RunContext, show } from '../command-context.js';
import { wholeNumber } from '../input/whole-number.js';
import { type Column, renderList } from '../output/render.js';

/** Adds the paging options of a list command (before the common ones, so --help lists them with the command's own). */
export function withPaging(command: Command): Command {
  return command
    .option('--limit <n>', 'items per page, 1 to 100', wholeNumber('--limit'))
    .option('--cursor <cursor>', 'the page after this cursor (printed as next_cursor)')
    .option('--all', 'every page, following the cursor to the end');
}

/**
 * Runs a list: one page, or with --all every page. `--json` prints the items
 * exactly as the API's `data` (all of them with --all). A page with more
 * after it says how to get the rest on stderr, piped and --json too: a
 * script would otherwise take the first page for the whole list.
 */
export async function listCommand(
  ctx: RunContext,
  operation: OperationName,
  query: Record<string, unknown>,
  columns: readonly Column[],
  params: Record<string, string> = {},
): Promise<void> {
  const items: unknown[] = [];
  let cursor = ctx.options.cursor as string | undefined;
  let next: string | null = null;
  do {
    const result = await ctx.call(operation, { params, query: { ...query, limit: ctx.options.limit, cursor } });
    items.push(...(result.data as unknown[]));
    next = result.page?.hasMore ? result.page.nextCursor : null;
    cursor = next ?? undefined;
  } while (ctx.options.all && next !== null);
  show(ctx, items, () => renderList(items, columns, ctx.style));
  if (!ctx.options.all && next !== null) process.stderr.write(`more: pass --cursor ${next} or --all\n`);
}
