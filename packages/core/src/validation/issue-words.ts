import type { z } from 'zod';

// zod words a failed check for a programmer ("Invalid input: expected
// number, received string", "Too big: expected int to be
// <=9007199254740991"). A caller of the API, an MCP model or a CLI user
// needs it said in their terms (issue 29 item 13). The rules a schema words
// itself (`must be a UUID`) keep their words; this says every other one.

type Issue = z.core.$ZodRawIssue;

/** A JSON type as a rule names it: "must be an integer". */
const TYPE_NAMES: Readonly<Record<string, string>> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  bigint: 'an integer',
  boolean: 'true or false',
  object: 'an object',
  record: 'an object',
  array: 'an array',
  null: 'null',
};

/** The type a refusal expected; zod's integers (`z.int()`) expect a "number" whose format is an integer one. */
function expectedOf(issue: Extract<Issue, { code: 'invalid_type' }>): string {
  // Stryker disable next-line OptionalChaining: zod gives every raw issue the schema that raised it, and every schema its def.
  const format = (issue.inst as { _zod?: { def?: { format?: unknown } } } | undefined)?._zod?.def?.format;
  return typeof format === 'string' && format.includes('int') ? 'int' : issue.expected;
}

/** What a value sent is, as the rule it broke says it: "not a string", "not 2.5". */
function sentAs(input: unknown): string {
  if (input === null) return 'null';
  if (Array.isArray(input)) return 'an array';
  // A number JSON cannot carry never gets here: the bounds of the input refuse it first (raw-call-bounds.ts).
  if (typeof input === 'number' || typeof input === 'boolean') return String(input);
  if (typeof input === 'object') return 'an object';
  return `a ${typeof input}`;
}

/** The safe-integer bounds zod gives every integer: past them a number is only "too large" in the caller's terms. */
const SAFE_BOUNDS = new Set<unknown>([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]);

/** What each string format is, in words. */
const FORMATS: Readonly<Record<string, string>> = {
  email: 'an email address',
  url: 'a URL',
  uuid: 'a UUID',
  guid: 'a UUID',
  datetime: 'an ISO 8601 date-time',
  date: 'a date YYYY-MM-DD',
  time: 'a time HH:MM',
};

function tooBig(issue: Extract<Issue, { code: 'too_big' }>): string | undefined {
  const max = String(issue.maximum);
  switch (issue.origin) {
    case 'number':
    case 'int':
      if (SAFE_BOUNDS.has(issue.maximum)) return 'is too large';
      return issue.inclusive === false ? `must be less than ${max}` : `must be at most ${max}`;
    case 'string':
      return `must be at most ${max} characters`;
    case 'array':
      return `must have at most ${max} item${issue.maximum === 1 ? '' : 's'}`;
    // Stryker disable next-line ConditionalExpression: without it the switch ends the function, which answers undefined alike.
    default:
      return undefined;
  }
}

function tooSmall(issue: Extract<Issue, { code: 'too_small' }>): string | undefined {
  const min = String(issue.minimum);
  switch (issue.origin) {
    case 'number':
    case 'int':
      if (SAFE_BOUNDS.has(issue.minimum)) return 'is too small';
      return issue.inclusive === false ? `must be more than ${min}` : `must be at least ${min}`;
    case 'string':
      return issue.minimum === 1 ? 'must not be empty' : `must be at least ${min} characters`;
    case 'array':
      return issue.minimum === 1 ? 'must not be empty' : `must have at least ${min} items`;
    // Stryker disable next-line ConditionalExpression: without it the switch ends the function, which answers undefined alike.
    default:
      return undefined;
  }
}

/** The types a union takes, from its branches' type refusals: "a string or an object". */
function unionTypes(issue: Extract<Issue, { code: 'invalid_union' }>): string | undefined {
  const expected = issue.errors.map((branch) => {
    const first = branch[0];
    // Stryker disable next-line ConditionalExpression,OptionalChaining: a failed branch has an issue, and one not about its type has no expected type to name.
    return first?.code === 'invalid_type' ? TYPE_NAMES[first.expected] : undefined;
  });
  if (expected.some((name) => name === undefined)) return undefined;
  return [...new Set(expected)].join(' or ');
}

/**
 * A zod error map (passed per parse) that says a failed check as a rule in
 * plain words, to follow the field's name: "is required", "must be an
 * integer, not a string", "must be at most 64 characters", "must be one of
 * weekly, monthly_same_day". Undefined leaves zod's own words.
 */
export function inPlainWords(issue: Issue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'is required';
      return `must be ${TYPE_NAMES[expectedOf(issue)] ?? issue.expected}, not ${sentAs(issue.input)}`;
    case 'too_big':
      return tooBig(issue);
    case 'too_small':
      return tooSmall(issue);
    case 'invalid_value':
      return issue.values.length === 1
        ? `must be ${JSON.stringify(issue.values[0])}`
        : `must be one of ${issue.values.map((value) => String(value)).join(', ')}`;
    case 'invalid_format':
      return `must be ${FORMATS[issue.format] ?? `a valid ${issue.format}`}`;
    case 'invalid_union': {
      const types = unionTypes(issue);
      return types === undefined ? 'is not in any form this field takes' : `must be ${types}, not ${sentAs(issue.input)}`;
    }
    case 'not_multiple_of':
      return `must be a multiple of ${String(issue.divisor)}`;
    case 'invalid_key':
      return 'has a key that is not valid';
    // Stryker disable next-line ConditionalExpression: without it the switch ends the function, which answers undefined alike.
    default:
      return undefined;
  }
}
