import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { isScheduleError } from '@schedule/core';
import { buildServer, guardMessages, mcpHttpHandler, onlyMcpPath, parseToolsets, type ToolsetName } from '@schedule/mcp';
import { CliError } from '../backend/backend.js';
import { exitOnSignal, logUnhandledRejections, startService } from '../service.js';
import { listenOrExplain, portOf } from './listen-port.js';
import { connectionLimitsFromEnv, mcpDepsOf } from './serve.js';

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
 * request brings its own bearer token.
 */
export async function mcp(options: McpOptions, out: NodeJS.WritableStream): Promise<void> {
  const secret = process.env.SCHEDULE_TOKEN;
  if (!options.http && !secret) throw new CliError('usage', 'SCHEDULE_TOKEN must hold the token the MCP server acts as (or use --http).');
  // Checked before the database opens: a wrong flag costs nothing.
  const port = options.http ? portOf(options.port) : undefined;
  const toolsets = toolsetsOf(options);
  const service = await startService(options);
  logUnhandledRejections(service.logger);
  const deps = mcpDepsOf(service);

  if (port !== undefined) {
    const running = await listenOrExplain(
      onlyMcpPath(mcpHttpHandler(deps), service.core.ids),
      {
        host: options.host ?? process.env.HOST ?? '127.0.0.1',
        port,
        limits: connectionLimitsFromEnv(),
        requestIds: () => service.core.ids.uuid(),
      },
      () => service.close(),
    );
    out.write(`schedule: listening on ${running.url}\n`);
    exitOnSignal(async () => {
      await running.close();
      await service.close();
    });
    return;
  }

  // Checked once at start so that a wrong token fails loudly; each call checks it again (it may be revoked).
  if (!(await service.authenticate(secret!))) {
    await service.close();
    throw new CliError('usage', 'SCHEDULE_TOKEN is not a valid token (unknown, revoked or expired).');
  }
  const server = buildServer(deps, { principal: () => service.authenticate(secret!), address: 'stdio' }, toolsets);
  const transport = new StdioServerTransport();
  transport.onclose = () => void service.close().finally(() => process.exit(0));
  await server.connect(transport);
  guardMessages(transport);
  exitOnSignal(async () => {
    await server.close();
    await service.close();
  });
}
