import { CliError } from './backend.js';

/**
 * Runs core's work and turns what core refuses into the CLI's one error:
 * a ScheduleError keeps its code and is worded as the HTTP API words it, so
 * embedded and remote print the same line; a workspace core refuses is a
 * usage error listing every problem. Core loads here, not at start-up.
 */
export async function asCliErrors<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const { isScheduleError, WorkspaceError } = await import('@schedule/core');
    if (error instanceof WorkspaceError) throw new CliError('usage', error.message);
    if (!isScheduleError(error)) throw error;
    const { HTTP_WORDS } = await import('@schedule/http');
    const { code, message, details } = error.shownIn(HTTP_WORDS);
    throw new CliError(code, message, details);
  }
}
