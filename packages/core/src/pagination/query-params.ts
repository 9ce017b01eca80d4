import { z } from 'zod';
import { ScheduleError } from '../errors.js';
import { FIRST_DATE, LAST_DATE, namesItsOffset, parseInstant } from '../time.js';
import { OFFSET_RULE } from '../validation/fields.js';
import { inPlainWords } from '../validation/issue-words.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './cursor.js';

// Query parameters arrive as text (HTTP) or as JSON values (MCP); each schema
// takes both and yields one typed value.

/** A whole number sent as text (HTTP) becomes a number; anything else is left for the integer check to refuse. */
const numberFromText = (value: unknown) => (typeof value === 'string' && /^\d{1,4}$/.test(value) ? Number(value) : value);

/** What `limit` must be, said alike for text, a fraction and a number past any bound (`abc`, `1.5`, `99999999999999999999`). */
const LIMIT_RULE = `must be an integer from 1 to ${MAX_PAGE_SIZE}`;

/** `limit`: 1 to 100, default 20 (the directory lists default to 100). */
export function limitParam(pageSize: number = DEFAULT_PAGE_SIZE) {
  return (
    z
      .preprocess(numberFromText, z.int({ error: LIMIT_RULE }).min(1, LIMIT_RULE).max(MAX_PAGE_SIZE, LIMIT_RULE))
      // A prefault is parsed like a sent value, and unlike a default it stays in the derived JSON Schema.
      .prefault(pageSize)
      .meta({ description: `Page size, 1 to ${MAX_PAGE_SIZE}; default ${pageSize}.` })
  );
}

/** `cursor`: where the next page starts. */
export const cursorParam = z.string().optional().meta({ description: "The last page's next_cursor." });

/** What an instant-or-date parameter accepts, said in its description. */
export const DATE_OR_INSTANT = 'ISO 8601 date (UTC), or date-time with Z or an offset (zone-less is refused).';

/** An ISO 8601 instant or date, as epoch ms plus whether only a date was given. */
export const instantParam = z
  .string()
  .transform((text, ctx) => {
    const parsed = parseInstant(text);
    if (!parsed) {
      // Stryker disable next-line StringLiteral: an issue's code is not shown; its message is the answer.
      ctx.addIssue({ code: 'custom', message: `must be an ISO 8601 timestamp or date between ${FIRST_DATE} and ${LAST_DATE}` });
      return z.NEVER;
    }
    if (!parsed.dateOnly && !namesItsOffset(text)) {
      // Stryker disable next-line StringLiteral: an issue's code is not shown; its message is the answer.
      ctx.addIssue({ code: 'custom', message: OFFSET_RULE });
      return z.NEVER;
    }
    return parsed;
  })
  .meta({ description: DATE_OR_INSTANT, examples: ['2026-03-09T09:00:00Z'] });

/** `true`/`false` as text (HTTP) or a JSON boolean. */
export const booleanParam = z.preprocess(
  (value) => (value === 'true' ? true : value === 'false' ? false : value),
  z.boolean({ error: 'must be true or false' }),
);

/** Comma-separated text as its items; a parameter given more than once (HTTP: an array of texts) is all their items. */
function itemsOf(value: unknown): unknown {
  const split = (text: string) => text.split(',').map((item) => item.trim());
  if (typeof value === 'string') return split(value);
  if (Array.isArray(value)) return value.flatMap((item) => (typeof item === 'string' ? split(item) : [item]));
  return value;
}

/**
 * A list of allowed values: comma-separated text (`status=active,paused`,
 * as HTTP sends it), the same parameter given more than once, or a JSON
 * array of them. Declared as the array, which is also how OpenAPI
 * describes a comma-separated query parameter.
 */
export function csvParam<const T extends readonly [string, ...string[]]>(values: T) {
  const error = `must be a comma-separated list of ${values.join(', ')}`;
  return z
    .preprocess(itemsOf, z.array(z.enum(values, { error }), { error }).min(1, error))
    .meta({ description: `Any of ${values.join(', ')} (array or comma-separated).` });
}

/** "twice", "3 times". */
const times = (count: number) => (count === 2 ? 'twice' : `${count} times`);

/**
 * Validates a query against its schema. The first bad parameter answers
 * `400 invalid_query_param` with `details.param` naming it (docs/api/choices.md)
 * and a `param: rule` message in plain words (validation/issue-words.ts),
 * the same for a query string and for a tool's arguments. A parameter that
 * takes one value but was given several (HTTP: repeated in the query
 * string) is said to be given more than once.
 */
export function parseQuery<S extends z.ZodType>(schema: S, query: Record<string, unknown>): z.output<S> {
  const result = schema.safeParse(query, { error: inPlainWords });
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  // Stryker disable next-line StringLiteral: a query is an object of parameters, so every issue is about one of them.
  const param = String(issue.path[0] ?? '');
  const sent = query[param];
  if (Array.isArray(sent) && sent.length > 1 && issue.path.length === 1) {
    throw new ScheduleError('invalid_query_param', `${param} is given ${times(sent.length)}; send it once.`, { param });
  }
  throw new ScheduleError('invalid_query_param', `${param}: ${issue.message}.`, { param });
}
