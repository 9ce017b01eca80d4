import { readFile } from 'node:fs/promises';
import type { Workspace } from '@schedule/core';
import { CliError } from './backend/backend.js';
import { asCliErrors } from './backend/core-refusals.js';

/** Why a file could not be read, for a person; undefined when it is not about the path. */
function pathProblem(code: string | undefined): string | undefined {
  switch (code) {
    case 'ENOENT':
      return 'no such file';
    case 'EISDIR':
      return 'a directory, not a file';
    case 'EACCES':
    case 'EPERM':
      return 'not readable by this user';
    default:
      return undefined;
  }
}

/** The text of a `--workspace` file; a path that cannot be read is a usage error (exit 2) naming the flag, not a stack. */
async function readWorkspaceFile(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const problem = pathProblem((error as NodeJS.ErrnoException).code);
    if (problem === undefined) throw error;
    throw new CliError('usage', `--workspace ${path}: ${problem}.`);
  }
}

/** The workspace in a `--workspace` file; a file core refuses is a usage error (exit 2) listing every problem. */
export async function readWorkspace(path: string): Promise<Workspace> {
  const [text, { parseWorkspace }] = await Promise.all([readWorkspaceFile(path), import('@schedule/core')]);
  return asCliErrors(() => parseWorkspace(text));
}
