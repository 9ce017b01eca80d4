import { randomUUID } from 'node:crypto';
import { v5 as uuidV5 } from 'uuid';

/** Where core gets new identifiers. Passed in, so tests can make them predictable. */
export interface IdGenerator {
  uuid(): string;
}

export const randomIds: IdGenerator = { uuid: () => randomUUID() };

/** Ids that count up, for tests that want to read them. */
export function sequentialIds(prefix = '00000000-0000-4000-8000-'): IdGenerator {
  let n = 0;
  return { uuid: () => `${prefix}${(++n).toString(16).padStart(12, '0')}` };
}

// A fixed namespace so that a workspace entry without an id gets the same id on every load.
const WORKSPACE_NAMESPACE = '9b0c8f52-2f1e-4c59-8d7e-4a3b5c6d7e80';

/** A stable UUID (RFC 9562 v5) derived from a name: loading a workspace twice names the same rows. */
export function stableUuid(name: string): string {
  return uuidV5(name, WORKSPACE_NAMESPACE);
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID_RE.test(value);
}
