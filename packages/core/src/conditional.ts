/**
 * An `If-Match` value, per docs/api/requests.md "Conditional requests": `"3"`, `3`,
 * or `*` (any current version). Anything else is `invalid`.
 */
export type IfMatch = { readonly kind: 'any' } | { readonly kind: 'version'; readonly version: number } | { readonly kind: 'invalid' };

export function parseIfMatch(header: string): IfMatch {
  const value = header.trim();
  if (value === '*') return { kind: 'any' };
  const m = /^(?:"(\d{1,15})"|(\d{1,15}))$/.exec(value);
  const digits = m?.[1] ?? m?.[2];
  if (digits === undefined) return { kind: 'invalid' };
  return { kind: 'version', version: Number(digits) };
}

/** The `ETag` of a version: the number in double quotes. */
export function etagOf(version: number): string {
  return `"${version}"`;
}

/** True when the precondition admits the current version. */
export function matchesVersion(ifMatch: IfMatch, current: number): boolean {
  switch (ifMatch.kind) {
    case 'any':
      return true;
    case 'version':
      return ifMatch.version === current;
    case 'invalid':
      return false;
  }
}
