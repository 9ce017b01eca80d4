// What zod derives from core's schemas, reshaped for what MCP clients and
// the models behind them handle well. Nothing here adds meaning; it removes
// noise and says the same thing in the forms clients understand:
//
// - nullable as `"type": ["string", "null"]` (some clients drop a property
//   whose schema is an `anyOf` with a null branch);
// - no `$schema` (MCP's default dialect applies), no `propertyNames` of
//   plain strings (every JSON key is one), no integer bounds that only say
//   "a safe integer", no regex beside a named `format` (zod's email regex
//   alone is 100 bytes), no `type` beside an enum, no string length bounds;
// - inputs: every object with properties says `additionalProperties: false`
//   (core's closeDeclaredObjects, by tool-schemas.ts), as the server refuses
//   unknown arguments (unknown-arguments.ts) and unknown body fields (core);
// - outputs: the answer's fields (a list's: its items' fields) with their
//   JSON types and enum values, one level deep: a nested object or array of
//   objects is typed, not spelled out. A model learns what a field means
//   from the input descriptions and the tool's text; the output schema lets
//   clients check results, and every byte of it is spent from a model's
//   context on every `tools/list` (issue 11 budgets the whole list; 48 KB since issue 16 added webhooks, 56 KB since issue 17 added calendar accounts).

export type JsonSchema = { [key: string]: unknown };

const SAFE_INTEGER_BOUNDS = new Set([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]);

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `anyOf: [X, {type: null}]` with a single-typed X, as X with `null` among its types (and its enum). */
function collapseNullable(schema: JsonSchema): JsonSchema {
  const branches = schema.anyOf;
  if (!Array.isArray(branches) || branches.length !== 2) return schema;
  const nullIndex = branches.findIndex((b) => isSchema(b) && b.type === 'null' && Object.keys(b).length === 1);
  const other = branches[1 - nullIndex];
  if (nullIndex === -1 || !isSchema(other) || typeof other.type !== 'string') return schema;
  const { anyOf: _, ...rest } = schema;
  const merged: JsonSchema = { ...other, ...rest, type: [other.type, 'null'] };
  if (Array.isArray(other.enum)) merged.enum = [...other.enum, null];
  return merged;
}

/** A tool's input schema (or one argument's), as clients are shown it. */
export function inputForClients(schema: JsonSchema): JsonSchema {
  const collapsed = collapseNullable(schema);
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(collapsed)) {
    if (key === '$schema' || (key === 'propertyNames' && isSchema(value) && value.type === 'string')) continue;
    if ((key === 'minimum' || key === 'maximum') && SAFE_INTEGER_BOUNDS.has(value as number)) continue;
    if (key === 'pattern' && typeof collapsed.format === 'string') continue;
    if (key === 'required' && Array.isArray(value) && value.length === 0) continue;
    // A string's length bounds are far from anything a model sends, and the
    // server names a string out of bounds in its validation_error; an enum's
    // values say their own type.
    if (key === 'minLength' || key === 'maxLength' || (key === 'type' && Array.isArray(collapsed.enum))) continue;
    if (key === 'properties' && isSchema(value)) {
      out.properties = Object.fromEntries(Object.entries(value).map(([name, p]) => [name, inputForClients(p as JsonSchema)]));
    } else if ((key === 'items' || key === 'additionalProperties') && isSchema(value)) {
      out[key] = inputForClients(value);
    } else if (key === 'anyOf' && Array.isArray(value)) {
      out.anyOf = value.map((branch) => inputForClients(branch as JsonSchema));
    } else {
      out[key] = value;
    }
  }
  return out;
}

/**
 * Past this many values an output's enum is stated as its type. A model
 * reads such a field's value, never chooses it from the list: the list
 * belongs to the input that sets it (create_webhook's `events`, a token's
 * `scopes`), and repeated in every output it cost each connection bytes per
 * value per tool (the webhook tools listed 22 event names seven times).
 */
const LONGEST_OUTPUT_ENUM = 8;

/** A field as an output schema states it: its type, or its enum or const values; nothing nested beyond scalar items. */
function typeOnly(schema: JsonSchema): JsonSchema {
  const field = collapseNullable(schema);
  if (Array.isArray(field.anyOf)) return { anyOf: field.anyOf.map((branch) => typeOnly(branch as JsonSchema)) };
  if (Array.isArray(field.enum) && field.enum.length > LONGEST_OUTPUT_ENUM) return { type: typeof field.enum[0] };
  if (Array.isArray(field.enum)) return { enum: field.enum };
  if (field.const !== undefined) return { const: field.const };
  const out: JsonSchema = { type: field.type };
  if (field.type === 'array' && isSchema(field.items) && field.items.type !== 'object') out.items = typeOnly(field.items);
  return out;
}

/**
 * An object's fields, each as `typeOnly` states it, and which are always
 * there. A field that is always there and is a plain string is named only
 * in `required`: `additionalProperties: {"type": "string"}` types every
 * field not listed in `properties`. That says exactly the same as listing
 * it, in a third of the bytes (most fields of a Booking or a Series are
 * plain strings).
 */
function fieldsOf(schema: JsonSchema): JsonSchema {
  const properties = Object.entries(isSchema(schema.properties) ? schema.properties : {});
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const typed = properties.map(([name, p]) => [name, typeOnly(p as JsonSchema)] as const);
  const plain = (name: string, type: JsonSchema) => required.includes(name) && Object.keys(type).length === 1 && type.type === 'string';
  const listed = typed.filter(([name, type]) => !plain(name, type));
  const out: JsonSchema = {};
  if (required.length > 0) out.required = required;
  if (listed.length > 0) out.properties = Object.fromEntries(listed);
  if (listed.length < typed.length) out.additionalProperties = { type: 'string' };
  return out;
}

/**
 * A branch of a tool's output schema (whose root says `type: object`): the
 * answer's fields, or for a list, the page (`data`, `next_cursor`,
 * `has_more`) with its items' fields.
 */
export function outputForClients(schema: JsonSchema, list: boolean): JsonSchema {
  if (!list) return fieldsOf(schema);
  const page = fieldsOf(schema);
  const data = (schema.properties as Record<string, JsonSchema>).data!;
  const items = { type: 'object', ...fieldsOf(data.items as JsonSchema) };
  return { ...page, properties: { ...(page.properties as JsonSchema), data: { type: 'array', items } } };
}
