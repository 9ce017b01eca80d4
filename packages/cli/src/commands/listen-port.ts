import { type ConnectionLimits, listen, type RunningServer } from '@schedule/http';
import { CliError } from '../backend/backend.js';

type Handler = Parameters<typeof listen>[0];

/** `--port`, else $PORT, else 3000: a whole number from 0 (any free port) to 65535, or a usage error naming the flag. */
export function portOf(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): number {
  const text = flag ?? env.PORT ?? '3000';
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65_535) {
    throw new CliError('usage', `--port ${text} is not a port; give a whole number from 1 to 65535, or 0 for a free one.`);
  }
  return port;
}

/** Why the system refused to bind, in the words a person at the command line needs; undefined when it is not about the address. */
function bindProblem(code: string | undefined, where: string): string | undefined {
  switch (code) {
    case 'EADDRINUSE':
      return `${where} is already in use; stop what listens there, or pick another --port (0 picks a free one).`;
    case 'EACCES':
      return `${where} needs privileges this user lacks (ports below 1024 usually do); pick another --port.`;
    case 'EADDRNOTAVAIL':
      return `${where}: this machine has no such address; pick another --host.`;
    default:
      return undefined;
  }
}

/**
 * Listens like @schedule/http's `listen`, with a taken or forbidden
 * address a usage error (exit 2) instead of a stack of Node's. `release`
 * runs first, so that a process that cannot serve exits instead of
 * holding its database open.
 */
export async function listenOrExplain(
  handler: Handler,
  options: { host: string; port: number; limits: Partial<ConnectionLimits>; requestIds: () => string },
  release: () => Promise<void>,
): Promise<RunningServer> {
  try {
    return await listen(handler, options);
  } catch (error) {
    await release();
    const problem = bindProblem((error as NodeJS.ErrnoException).code, `${options.host}:${options.port}`);
    throw problem === undefined ? error : new CliError('usage', problem);
  }
}
