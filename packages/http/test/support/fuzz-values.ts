import fc from 'fast-check';

// Values for request bodies and query strings: the wrong types, the extremes
// of each type, and strings one edit away from a valid one. JSON is built as
// text (jsonText), so that it can hold what JSON.stringify would normalise
// away: `-0`, `1e309`, 2**53+1 as written, duplicate keys, nesting thousands
// of levels deep.

/** JSON text put verbatim where a value goes. */
export class RawJson {
  constructor(readonly text: string) {}
}

/** An object as a list of entries: keys may repeat, and `__proto__` is just a key. */
export class JsonEntries {
  constructor(readonly entries: readonly (readonly [string, FuzzJson])[]) {}
}

export type FuzzJson = null | boolean | number | string | RawJson | JsonEntries | FuzzJson[] | { [key: string]: FuzzJson };

/** The JSON text of a fuzz value. Generated trees are shallow; depth comes from RawJson. */
export function jsonText(value: FuzzJson): string {
  if (value instanceof RawJson) return value.text;
  if (value instanceof JsonEntries) return `{${value.entries.map(([k, v]) => `${JSON.stringify(k)}:${jsonText(v)}`).join(',')}}`;
  if (Array.isArray(value)) return `[${value.map(jsonText).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}:${jsonText(v)}`)
      .join(',')}}`;
  }
  // NaN and the infinities have no JSON; JSON.stringify writes null, as a client library would.
  return JSON.stringify(value);
}

/** Nesting `depth` levels deep, built as text without recursion. */
export function deepJson(depth: number, shape: 'array' | 'object' | 'mixed'): RawJson {
  const open = { array: '[', object: '{"a":', mixed: '[{"a":' }[shape];
  const close = { array: ']', object: '}', mixed: '}]' }[shape];
  return new RawJson(`${open.repeat(depth)}${shape === 'array' ? '' : 'null'}${close.repeat(depth)}`);
}

/** Mostly `usual`, now and then one of `rare`. */
export function mostly<T>(usual: fc.Arbitrary<T>, weight: number, ...rare: fc.Arbitrary<T>[]): fc.Arbitrary<T> {
  return fc.oneof({ weight, arbitrary: usual }, ...rare.map((arbitrary) => ({ weight: 1, arbitrary })));
}

/** Numbers at the edges of IEEE 754 and of JSON, written as a client could write them. */
export const extremeNumber: fc.Arbitrary<FuzzJson> = fc.oneof(
  fc.constantFrom(
    ...[
      '1e308',
      '-1e308',
      '1e309',
      '-1e309',
      '-0',
      '-0.0',
      '0e0',
      '9007199254740993',
      '-9007199254740993',
      '123456789012345678901234567890',
      '5e-324',
      '1e-400',
      '4.2e1',
      '1E2',
      '1.0',
      '0.1',
      '-1',
      '42.000000000000001',
    ].map((text) => new RawJson(text)),
  ),
  fc.constantFrom(0, 1, -1, 41, 42, 43, 255, 256, 2 ** 31, 2 ** 32, 2 ** 53, Number.MAX_SAFE_INTEGER, Number.MIN_VALUE),
  fc.double({ noNaN: true }),
  fc.integer(),
);

/** Instants at and past the edges of what Date, luxon and a fixed-width timestamp can hold, and near-ISO shapes. */
export const EXTREME_DATES = [
  '+275760-09-12T23:30:00Z',
  '+275760-09-13T00:00:00Z',
  '+275760-09-13T00:00:00.001Z',
  '-271821-04-20T00:00:00Z',
  '-000001-01-01T00:00:00Z',
  '0000-01-01T00:00:00Z',
  '0001-01-01T00:00:00Z',
  '1899-12-31T23:59:59Z',
  '1970-01-01T00:00:00Z',
  '9999-12-31T23:59:59Z',
  '9999-12-31T23:59:59.999+00:00',
  '+010000-01-01T00:00:00Z',
  '2038-01-19T03:14:08Z',
  '2026-02-29T10:00:00Z',
  '2026-03-03T24:00:00Z',
  '2026-03-03T10:00:60Z',
  '2026-03-03T10:00:00+14:00',
  '2026-03-03T10:00:00-12:00',
  '2026-03-03T10:00:00+99:99',
  '2026-03-03T10:00:00.123456789Z',
  '2026-03-03T10:00:00',
  '2026-03-03t10:00:00z',
  '2026-03-03T10Z',
  '2026-W10-2T10:00Z',
  '2026-062T10:00Z',
  '2026-03-03',
  '2026-3-3T10:00:00Z',
  '20260303T100000Z',
  '0000-01-01',
  '9999-12-31',
  '9000-12-31',
  '1900-01-01',
  'T',
] as const;

export const extremeDate: fc.Arbitrary<string> = fc.constantFrom(...EXTREME_DATES);

/** Strings that trip encoders and databases: NUL, lone surrogates, direction marks, combining marks, line separators. */
const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff',
  'x\ud800y',
  '\udc00\ud800',
  '\ufeff',
  '\u202ebackwards',
  'e\u0301',
  '🦄',
  '\u2028\u2029',
  '\t\r\n',
  '\u007f\u0080\u009f',
  '\\',
  '"',
  "'; drop table bookings; --",
  '%00',
  '%s%n',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the literal text of a template placeholder is the probe.
  '${x}',
  '__proto__',
  'constructor',
  'null',
  'undefined',
  'true',
  'NaN',
  'Infinity',
] as const;

export const nastyString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...NASTY_STRINGS),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.string({ maxLength: 12 }),
);

/** A long string: a short unit repeated, so that even 100 kB is cheap to make and shrinks to a few characters. */
export const hugeString: fc.Arbitrary<string> = fc
  .record({ unit: fc.constantFrom('x', 'é', '🦄', '\u0000', 'a\ud800'), times: fc.integer({ min: 256, max: 200_000 }) })
  .map(({ unit, times }) => unit.repeat(times));

/** The small edits nearValid makes, each given the string, a position in it and a character. */
const EDITS = {
  insert: (v: string, i: number, c: string) => v.slice(0, i) + c + v.slice(i),
  delete: (v: string, i: number) => v.slice(0, i) + v.slice(i + 1),
  replace: (v: string, i: number, c: string) => v.slice(0, i) + c + v.slice(i + 1),
  upper: (v: string) => v.toUpperCase(),
  lower: (v: string) => v.toLowerCase(),
  suffix: (v: string, _: number, c: string) => v + c,
  prefix: (v: string, _: number, c: string) => c + v,
  truncate: (v: string, i: number) => v.slice(0, i),
  double: (v: string) => v + v,
} satisfies Record<string, (valid: string, at: number, char: string) => string>;

/** One small edit of `valid`: a character inserted, dropped or changed, the case flipped, something trailing. */
export function nearValid(valid: string): fc.Arbitrary<string> {
  return fc
    .record({
      edit: fc.constantFrom(...(Object.keys(EDITS) as (keyof typeof EDITS)[])),
      at: fc.nat(),
      char: fc.constantFrom(' ', '\u0000', '\ud800', 'Z', '-', ':', '.', '0', '9', '+', 'é', '\t', '%'),
    })
    .map(({ edit, at, char }) => EDITS[edit](valid, valid.length === 0 ? 0 : at % valid.length, char));
}

/** Valid values of the shapes the API takes, the seeds of nearValid. */
const VALID_SHAPES = [
  '2026-03-03T10:00:00Z',
  '2026-03-03T10:00:00.000+01:00',
  '2026-03-03',
  'f1000000-0000-4000-8000-000000000001',
  'f0000000-0000-4000-8000-000000000001',
  'bob@example.test',
  'Europe/Berlin',
  '10:30',
  'https://meet.test/room',
  'weekly',
  'mon',
  'start_at_asc',
  'confirmed,canceled',
] as const;

export const nearValidString: fc.Arbitrary<string> = fc.constantFrom(...VALID_SHAPES).chain(nearValid);

/** Any string the fuzzer sends: nasty, extreme dates, near-valid, valid, sometimes huge. */
export const fuzzString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: nastyString },
  { weight: 3, arbitrary: extremeDate },
  { weight: 4, arbitrary: nearValidString },
  { weight: 2, arbitrary: fc.constantFrom(...VALID_SHAPES) },
  { weight: 1, arbitrary: hugeString },
);

const fuzzKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('a', 'start', 'metadata', 'attendee', 'email', 'count', '__proto__', 'constructor', 'prototype', '', 'a.b', '\u0000'),
  nastyString,
);

const leaf: fc.Arbitrary<FuzzJson> = fc.oneof(fc.constant(null), fc.boolean(), extremeNumber, fuzzString);

/** A JSON value of any type, a few levels deep at most; objects may repeat keys. */
export const fuzzJson: fc.Arbitrary<FuzzJson> = fc.letrec<{ value: FuzzJson; array: FuzzJson[]; object: JsonEntries }>((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 4, depthIdentifier: 'fuzz-json' }),
  object: fc
    .array(fc.tuple(fuzzKey, tie('value')), { maxLength: 4, depthIdentifier: 'fuzz-json' })
    .map((entries) => new JsonEntries(entries)),
})).value;

/** A value for a field: any JSON, or nesting deep enough to overflow a recursive walker. */
export const fieldValue: fc.Arbitrary<FuzzJson> = fc.oneof(
  { weight: 8, arbitrary: fuzzJson },
  {
    weight: 1,
    arbitrary: fc
      .record({
        depth: fc.integer({ min: 1, max: 12_000 }),
        shape: fc.constantFrom('array', 'object', 'mixed') as fc.Arbitrary<'array' | 'object' | 'mixed'>,
      })
      .map(({ depth, shape }) => deepJson(depth, shape)),
  },
);
