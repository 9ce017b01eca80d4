import { readFile } from 'node:fs/promises';
import type { DeclaredWorkspace } from '@schedule/core';
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

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The text of a workspace file (`-` is stdin); a path that cannot be read is a usage error (exit 2) naming the flag, not a stack. */
async function readWorkspaceFile(path: string, flag: string): Promise<string> {
  if (path === '-' && flag !== '--workspace') return readStdin();
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const problem = pathProblem((error as NodeJS.ErrnoException).code);
    if (problem === undefined) throw error;
    throw new CliError('usage', `${flag} ${path}: ${problem}.`);
  }
}

/**
 * The workspace in a file (given as `flag`, `--workspace` unless said) with
 * the sections it declares; a file core refuses is a usage error (exit 2)
 * listing every problem.
 */
export async function readWorkspace(path: string, flag = '--workspace'): Promise<DeclaredWorkspace> {
  const [text, { parseDeclaredWorkspace }] = await Promise.all([readWorkspaceFile(path, flag), import('@schedule/core')]);
  return asCliErrors(() => parseDeclaredWorkspace(text));
}
