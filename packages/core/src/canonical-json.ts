import { createHash } from 'node:crypto';
import canonicalizeModule from 'canonicalize';

// The package is CommonJS with `module.exports = fn`, while its typings claim a
// default export; under NodeNext the default import is that function.
const canonicalizeJson = canonicalizeModule as unknown as (value: unknown) => string | undefined;

/** RFC 8785 canonical JSON: sorted keys, no insignificant white space. */
export function canonicalJson(value: unknown): string {
  return canonicalizeJson(value) ?? 'null';
}

/** A SHA-256 hex digest of the canonical JSON of a value. */
export function fingerprintOf(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}
