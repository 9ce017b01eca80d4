import { describe, expect, it } from 'vitest';
import { etagOf, matchesVersion, parseIfMatch } from '../src/conditional.js';

describe('parseIfMatch', () => {
  it('reads a quoted version', () => {
    expect(parseIfMatch('"3"')).toEqual({ kind: 'version', version: 3 });
  });

  it('reads a bare version', () => {
    expect(parseIfMatch('3')).toEqual({ kind: 'version', version: 3 });
  });

  it('reads * as any current version', () => {
    expect(parseIfMatch('*')).toEqual({ kind: 'any' });
  });

  it('ignores white space around the value', () => {
    expect(parseIfMatch('  "12" ')).toEqual({ kind: 'version', version: 12 });
  });

  it.each([
    ['a weak tag', 'W/"3"'],
    ['garbage', 'garbage'],
    ['an empty header', ''],
    ['an unterminated quote', '"3'],
    ['a negative version', '"-1"'],
    ['a decimal version', '"3.0"'],
    ['a list of tags', '"3", "4"'],
  ])('treats %s as invalid', (_, header) => {
    expect(parseIfMatch(header)).toEqual({ kind: 'invalid' });
  });
});

describe('etagOf', () => {
  it('quotes the version and parses back to it', () => {
    expect(etagOf(7)).toBe('"7"');
    expect(parseIfMatch(etagOf(7))).toEqual({ kind: 'version', version: 7 });
  });
});

describe('matchesVersion', () => {
  it('admits any version for *', () => {
    expect(matchesVersion({ kind: 'any' }, 1)).toBe(true);
    expect(matchesVersion({ kind: 'any' }, 99)).toBe(true);
  });

  it('admits only the named version', () => {
    expect(matchesVersion({ kind: 'version', version: 3 }, 3)).toBe(true);
    expect(matchesVersion({ kind: 'version', version: 3 }, 4)).toBe(false);
  });

  it('admits nothing for an invalid header', () => {
    expect(matchesVersion({ kind: 'invalid' }, 1)).toBe(false);
  });
});
