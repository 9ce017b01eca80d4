import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson, fingerprintOf } from '../src/canonical-json.js';

describe('canonicalJson', () => {
  it('sorts keys at every depth and drops white space', () => {
    expect(canonicalJson({ b: 1, a: [3, { d: 1, c: 'x' }] })).toBe('{"a":[3,{"c":"x","d":1}],"b":1}');
  });

  it('writes numbers in their shortest form (RFC 8785)', () => {
    expect(canonicalJson({ n: 1.0, m: 1e21, k: 0.5 })).toBe('{"k":0.5,"m":1e+21,"n":1}');
  });

  it('writes undefined as null', () => {
    expect(canonicalJson(undefined)).toBe('null');
  });
});

describe('fingerprintOf', () => {
  it('is the SHA-256 hex digest of the canonical text', () => {
    const expected = createHash('sha256').update('{"a":1,"b":[true,null]}').digest('hex');
    expect(fingerprintOf({ b: [true, null], a: 1 })).toBe(expected);
  });

  it('does not change with key order', () => {
    const one = { route: 'PATCH /v1/bookings/x', body: { metadata: { a: 1, b: 2 }, attendee_name: 'Bob' } };
    const other = { body: { attendee_name: 'Bob', metadata: { b: 2, a: 1 } }, route: 'PATCH /v1/bookings/x' };
    expect(fingerprintOf(other)).toBe(fingerprintOf(one));
  });

  it('does not change with white space in the JSON text', () => {
    const compact = JSON.parse('{"metadata":{"a":1},"responses":{"topic":"x"}}');
    const spaced = JSON.parse('{\n  "responses" : { "topic" : "x" },\n\t"metadata": {"a":   1}\n}');
    expect(fingerprintOf(spaced)).toBe(fingerprintOf(compact));
  });

  it('changes with a value', () => {
    expect(fingerprintOf({ metadata: { a: 1 } })).not.toBe(fingerprintOf({ metadata: { a: 2 } }));
  });

  it('changes with array order', () => {
    expect(fingerprintOf([1, 2])).not.toBe(fingerprintOf([2, 1]));
  });
});
