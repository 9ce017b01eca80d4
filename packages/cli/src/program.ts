import { Command, CommanderError } from 'commander';
import { reportError } from './command-context.js';
import { registerAvailability } from './commands/availability.js';
import { registerBookings } from './commands/bookings.js';
import { registerCalendars } from './commands/calendars.js';
import { registerCompletion } from './commands/completion.js';
import { registerDirectory } from './commands/directory.js';
import { registerHolds } from './commands/holds.js';
import { registerInit } from './commands/init.js';
import { registerOAuthClients } from './commands/oauth-clients.js';
import { registerPasswords } from './commands/passwords.js';
import { registerPeople } from './commands/people.js';
import { registerSeries } from './commands/series.js';
import { registerSlots } from './commands/slots.js';
import { registerTimeOff } from './commands/time-off.js';
import { registerTimes } from './commands/times.js';
import { registerTokens } from './commands/tokens.js';
import { registerWebhooks } from './commands/webhooks.js';
import { registerWorkspace } from './commands/workspace.js';
import { registerInteractive } from './interactive/register-interactive.js';
import { EXIT_CODES } from './output/exit-codes.js';
import { packageVersion } from './package-version.js';

// Nothing heavy is imported here: core, the HTTP and MCP servers load when a
// command runs, so `schedule --version` and `--help` start at once.

const version = packageVersion();

/** The `schedule` command line. */
export function buildProgram(): Command {
  const program = new Command('schedule')
    .description('Self-hostable scheduling: bookings, recurring series and slots, over HTTP, MCP or this CLI.')
    .version(version)
    .showHelpAfterError('(run with --help for usage)')
    .addHelpText(
      'after',
      [
        '',
        'Commands run embedded (on --db, default the local file) or remote (--api-url / $SCHEDULE_API_URL),',
        'as the token in --token / $SCHEDULE_TOKEN. Exit codes: 0 ok, 1 failure, 2 usage or invalid input,',
        '3 not found, 4 not allowed, 5 conflict, 6 try again later.',
        'apply --dry-run and plan exit 10 when the plan has changes.',
        "Times typed without an offset (2026-12-09T11:00) are read in --tz, by default this machine's zone.",
        'Shell completion: schedule completion bash|zsh|fish.',
      ].join('\n'),
    );

  program
    .command('serve')
    .description('Run the HTTP API (and the MCP server at /mcp).')
    .option('--workspace <file>', 'load this workspace file first (users, event types, tokens, bookings)')
    .option('--db <url>', 'SQLite file, :memory:, or postgres:// URL (default: $DATABASE_URL, else an embedded file)')
    .option('--port <n>', 'port to listen on; 0 picks a free one (default: $PORT, else 3000)')
    .option('--host <addr>', 'address to bind (default: $HOST, else 127.0.0.1)')
    .option('--demo', 'run a demo workspace in a throw-away in-memory database (fresh on every start), and print a token and a curl to try')
    .addHelpText(
      'after',
      '\nExamples:\n  schedule serve --demo --workspace demo/workspace.json\n  schedule serve --workspace ws.json --db postgres://127.0.0.1/test --port 0',
    )
    .action(async (options) => {
      const { serve } = await import('./commands/serve.js');
      await serve(options, process.stdout);
    });

  program
    .command('mcp')
    .description('Run the MCP server: on stdio acting as $SCHEDULE_TOKEN, or with --http over Streamable HTTP at /mcp.')
    .option('--workspace <file>', 'load this workspace file first (users, event types, tokens, bookings)')
    .option('--db <url>', 'SQLite file, :memory:, or postgres:// URL (default: $DATABASE_URL, else an embedded file)')
    .option(
      '--http',
      'serve Streamable HTTP at /mcp instead of stdio; each request sends its own bearer token, which a client given only the URL gets by signing in (OAuth)',
    )
    .option(
      '--toolsets <names>',
      'stdio: toolsets to list beside booking and manage, comma-separated (series, time_off, webhooks, ... or all; the toolsets tool names them all and switches them at run time); over --http each client asks with /mcp?toolsets=',
    )
    .option('--port <n>', 'with --http: port to listen on; 0 picks a free one (default: $PORT, else 3000)')
    .option('--host <addr>', 'with --http: address to bind (default: $HOST, else 127.0.0.1)')
    .option('--demo', 'run a demo workspace in a throw-away in-memory database (fresh on every start)')
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  SCHEDULE_TOKEN=pat_demo_alice_0123456789 schedule mcp --demo --workspace demo/workspace.json',
        '  SCHEDULE_TOKEN=pat_demo_alice_0123456789 schedule mcp --demo --workspace demo/workspace.json --toolsets series',
        '  schedule mcp --http --port 3001 --demo --workspace demo/workspace.json',
      ].join('\n'),
    )
    .action(async (options) => {
      const { mcp } = await import('./commands/mcp.js');
      await mcp(options, process.stdout);
    });

  program
    .command('openapi')
    .description("Print the HTTP API's OpenAPI 3.1 document (JSON), as GET /v1/openapi.json serves it.")
    .addHelpText('after', '\nExample:\n  schedule openapi > openapi.json')
    .action(async () => {
      const { printOpenApi } = await import('./commands/openapi.js');
      await printOpenApi(process.stdout);
    });

  registerBookings(program);
  registerSeries(program);
  registerSlots(program);
  registerHolds(program);
  registerTimes(program);
  registerDirectory(program);
  registerWebhooks(program);
  registerTimeOff(program);
  registerAvailability(program);
  registerTokens(program);
  registerPeople(program);
  registerPasswords(program);
  registerOAuthClients(program);
  registerCalendars(program);
  registerWorkspace(program);
  registerInit(program);
  registerInteractive(program);
  registerCompletion(program);
  return program;
}

/** Runs the CLI. Usage mistakes exit 2 as `error usage: …`; command errors use the exit code table. */
export async function run(argv: readonly string[]): Promise<void> {
  const program = buildProgram();
  const usage = (command: Command) =>
    command.exitOverride().configureOutput({
      outputError: (text, write) => write(`error usage: ${text.replace(/^error: /, '')}`),
    });
  const all = (command: Command): Command[] => [command, ...command.commands.flatMap(all)];
  for (const command of all(program)) usage(command);
  try {
    await program.parseAsync([...argv]);
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end here too, with exit code 0.
      process.exitCode = error.exitCode === 0 ? EXIT_CODES.ok : EXIT_CODES.usage;
      return;
    }
    reportError(error, false);
  }
}
