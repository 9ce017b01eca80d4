import type { z } from 'zod';
import { type Workspace, workspaceSchema } from './workspace-schema.js';
import { type DeclaredWorkspace, sectionsOf } from './workspace-sections.js';

/** A workspace file that cannot be loaded, with one line per problem, each naming its JSON path. */
export class WorkspaceError extends Error {
  override readonly name = 'WorkspaceError';
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(`invalid workspace:\n${problems.map((p) => `  ${p}`).join('\n')}`);
    this.problems = problems;
  }
}

/** `users[0].schedule.weekly.mon[1]` from zod's path segments. */
export function jsonPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? String(segment) : `.${String(segment)}`;
  }
  return out === '' ? '(root)' : out;
}

function describe(issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.map((issue) => `${jsonPath(issue.path)}: ${issue.message}`);
}

/** Validates workspace JSON text. Throws WorkspaceError naming every problem. */
export function parseWorkspace(text: string): Workspace {
  return parseDeclaredWorkspace(text).workspace;
}

/** Validates workspace JSON text and says which sections it declares (workspace-sections.ts). */
export function parseDeclaredWorkspace(text: string): DeclaredWorkspace {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new WorkspaceError([`(root): not valid JSON: ${(error as Error).message}`]);
  }
  const result = workspaceSchema.safeParse(raw);
  if (!result.success) throw new WorkspaceError(describe(result.error.issues));
  // The schema accepted it, so it is an object.
  return { workspace: result.data, sections: sectionsOf(raw as object) };
}
