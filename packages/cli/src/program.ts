import { createRequire } from 'node:module';
import { WorkspaceError } from '@schedule/core';
import { Command } from 'commander';
import { mcp, UsageError } from './commands/mcp.js';
import { serve } from './commands/serve.js';

const { version } = createRequire(import.meta.url)('../package.json') as { version: string };

/** The `schedule` command line. */
export function buildProgram(): Command {
  const program = new Command('schedule')
    .description('Self-hostable scheduling: bookings, recurring series and slots, over HTTP, MCP or this CLI.')
    .version(version);

  program
    .command('serve')
    .description('Run the HTTP API.')
    .option('--workspace <file>', 'load this workspace file first (users, event types, tokens, bookings)')
    .option('--db <url>', 'SQLite file, :memory:, or postgres:// URL (default: $DATABASE_URL, else an embedded file)')
    .option('--port <n>', 'port to listen on; 0 picks a free one (default: $PORT, else 3000)')
    .option('--host <addr>', 'address to bind (default: $HOST, else 127.0.0.1)')
    .option('--demo', 'print a demo token and a curl to try')
    .addHelpText(
      'after',
      '\nExamples:\n  schedule serve --workspace demo/workspace.json\n  schedule serve --workspace ws.json --db postgres://127.0.0.1/test --port 0',
    )
    .action(async (options) => serve(options, process.stdout));

  program
    .command('mcp')
    .description('Run the MCP server: on stdio acting as $SCHEDULE_TOKEN, or with --http over Streamable HTTP at /mcp.')
    .option('--workspace <file>', 'load this workspace file first (users, event types, tokens, bookings)')
    .option('--db <url>', 'SQLite file, :memory:, or postgres:// URL (default: $DATABASE_URL, else an embedded file)')
    .option('--http', 'serve Streamable HTTP at /mcp instead of stdio; each request sends its own bearer token')
    .option('--port <n>', 'with --http: port to listen on; 0 picks a free one (default: $PORT, else 3000)')
    .option('--host <addr>', 'with --http: address to bind (default: $HOST, else 127.0.0.1)')
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  SCHEDULE_TOKEN=pat_demo_alice_0123456789 schedule mcp --workspace demo/workspace.json',
        '  schedule mcp --http --port 3001 --workspace demo/workspace.json',
      ].join('\n'),
    )
    .action(async (options) => mcp(options, process.stdout));

  return program;
}

/** Runs the CLI; a workspace or usage problem exits 2 with the reason on stderr. */
export async function run(argv: readonly string[]): Promise<void> {
  try {
    await buildProgram().parseAsync([...argv]);
  } catch (error) {
    if (error instanceof WorkspaceError || error instanceof UsageError) {
      process.stderr.write(`schedule: ${error.message}\n`);
      process.exit(2);
    }
    process.stderr.write(`schedule: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
