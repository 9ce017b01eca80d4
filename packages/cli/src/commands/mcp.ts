import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { isScheduleError } from '@schedule/core';
import { buildServer, guardMessages, parseToolsets, type ToolsetName } from '@schedule/mcp';
import { CliError } from '../backend/backend.js';
import { exitOnSignal, logUnhandledRejections, processHost, startService } from '../service.js';
import { mcpDepsOf, startServing } from './serve.js';

export interface McpOptions {
  workspace?: string;
  db?: string;
  http?: boolean;
  port?: string;
  host?: string;
  demo?: boolean;
  toolsets?: string;
}

/** `--toolsets` for stdio; over HTTP every request asks for its own (`/mcp?toolsets=`), so the flag would say nothing. */
function toolsetsOf(options: McpOptions): readonly ToolsetName[] {
  if (options.http && options.toolsets !== undefined) {
    throw new CliError('usage', '--toolsets is for stdio; over --http a client asks with /mcp?toolsets=series,webhooks.');
  }
  try {
    return parseToolsets(options.toolsets);
  } catch (error) {
    if (isScheduleError(error)) throw new CliError('usage', `--toolsets: ${error.message}`);
    throw error;
  }
}

/**
 * `schedule mcp`: the MCP server on stdio, acting as the token in
 * SCHEDULE_TOKEN; with `--http`, over Streamable HTTP at /mcp, where every
 * request brings its own bearer token: what `schedule serve` runs, but only
 * /mcp and the authorization server, so that a client given only the URL
 * signs its host in (docs/oauth.md).
 */
export async function mcp(options: McpOptions, out: NodeJS.WritableStream): Promise<void> {
  const secret = process.env.SCHEDULE_TOKEN;
  if (!options.http && !secret) throw new CliError('usage', 'SCHEDULE_TOKEN must hold the token the MCP server acts as (or use --http).');
  // Checked before the database opens: a wrong flag costs nothing.
  const toolsets = toolsetsOf(options);
  if (options.http) {
    const serving = await startServing(options, processHost(), 'mcp');
    logUnhandledRejections(serving.service.logger);
    out.write(`schedule: listening on ${serving.http.url}\n`);
    exitOnSignal(() => serving.close());
    return;
  }

  const service = await startService(options);
  logUnhandledRejections(service.logger);
  const deps = mcpDepsOf(service);

  // Checked once at start so that a wrong token fails loudly, and for the tools its scopes allow; each call checks it again (it may be revoked).
  const principal = await service.authenticate(secret!);
  if (!principal) {
    await service.close();
    throw new CliError('usage', 'SCHEDULE_TOKEN is not a valid token (unknown, revoked or expired).');
  }
  const server = buildServer(
    deps,
    { principal: () => service.authenticate(secret!), address: 'stdio' },
    { toolsets, scopes: principal.scopes },
  );
  const transport = new StdioServerTransport();
  transport.onclose = () => void service.close().finally(() => process.exit(0));
  await server.connect(transport);
  guardMessages(transport);
  exitOnSignal(async () => {
    await server.close();
    await service.close();
  });
}
