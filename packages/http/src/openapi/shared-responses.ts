import type { oas31 } from 'zod-openapi';
import { pascalCase } from './operation-path.js';

export type Responses = Record<string, oas31.ResponseObject | oas31.ReferenceObject>;

/** The codes an error answer lists, from its envelope's `code` enum. */
function codesOf(response: oas31.ResponseObject): string[] {
  const schema = response.content?.['application/json']?.schema as {
    properties?: { error?: { properties?: { code?: { enum?: unknown } } } };
  };
  const codes = schema?.properties?.error?.properties?.code?.enum;
  return Array.isArray(codes) ? codes.map(String) : [];
}

/**
 * Moves each error answer that several operations give word for word (a
 * `401 unauthorized`, a `429 rate_limited`, …) to `components.responses`,
 * named after its codes, and refers to it from each: the same answer is
 * written once. Answers that differ, or list more codes than a name can
 * carry, stay where they are.
 */
export function shareRepeatedResponses(all: readonly Responses[]): Record<string, oas31.ResponseObject> {
  const seen = new Map<string, number>();
  for (const responses of all) {
    for (const [status, response] of Object.entries(responses)) {
      if (status.startsWith('2') || '$ref' in response) continue;
      const text = JSON.stringify(response);
      seen.set(text, (seen.get(text) ?? 0) + 1);
    }
  }
  const shared: Record<string, oas31.ResponseObject> = {};
  const names = new Map<string, string>();
  for (const responses of all) {
    for (const [status, response] of Object.entries(responses)) {
      if (status.startsWith('2') || '$ref' in response) continue;
      const text = JSON.stringify(response);
      if ((seen.get(text) ?? 0) < 2) continue;
      let name = names.get(text);
      if (name === undefined) {
        const codes = codesOf(response);
        const candidate = codes.map(pascalCase).join('Or');
        // A name must stay readable: answers of three codes or more stay with their operation.
        if (codes.length === 0 || codes.length > 2 || shared[candidate] !== undefined) continue;
        name = candidate;
        names.set(text, name);
        shared[name] = response;
      }
      responses[status] = { $ref: `#/components/responses/${name}` };
    }
  }
  return shared;
}
