// What zod derives from core's schemas, reshaped for what MCP clients and
// the models behind them handle well. Nothing here adds meaning; it removes
// noise and says the same thing in the forms every client reads:
//
// - a field that may be null is `anyOf: [X, {"type": "null"}]`, and a value
//   of several types is `anyOf` one branch per type: a `type` written as an
//   array is legal JSON Schema, but clients that translate schemas into a
//   single-type dialect (Gemini's function declarations among them) drop or
//   refuse it, and the MCP Inspector's portability check warns about it;
// - an array always says its `items`; no schema is a bare `true`;
// - no `$schema` (MCP's default dialect applies), no `propertyNames` of
//   plain strings (every JSON key is one), no integer bounds that only say
//   "a safe integer", no regex beside a named `format` (zod's email regex
//   alone is 100 bytes), no string length bounds (the server names a string
//   out of bounds in its validation_error);
// - inputs: every object with properties says `additionalProperties: false`
//   (core's closeDeclaredObjects, by tool-schemas.ts), as the server refuses
//   unknown arguments (unknown-arguments.ts) and unknown body fields (core);
// - outputs: the whole answer, every level of it, with JSON types and enum
//   values, but without descriptions or formats: a model learns what a field
//   means from the input descriptions and the tool's text, and every byte of
//   an output schema is spent from a model's context on every `tools/list`
//   (issue 36 budgets each toolset at 12 KB).

export type JsonSchema = { [key: string]: unknown };

const SAFE_INTEGER_BOUNDS = new Set([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]);

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Keywords an input keeps only where they say more than the server's own refusal would. */
function droppedFromInput(key: string, value: unknown, schema: JsonSchema): boolean {
  if (key === '$schema' || key === 'minLength' || key === 'maxLength') return true;
  if (key === 'propertyNames' && isSchema(value) && value.type === 'string') return true;
  if ((key === 'minimum' || key === 'maximum') && SAFE_INTEGER_BOUNDS.has(value as number)) return true;
  if (key === 'pattern' && typeof schema.format === 'string') return true;
  return key === 'required' && Array.isArray(value) && value.length === 0;
}

/** Keywords an output leaves out: it states the shape, not what the fields mean. */
const OUTPUT_NOISE = new Set([
  '$schema',
  'description',
  'format',
  'examples',
  'default',
  'pattern',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'minLength',
  'maxLength',
  'propertyNames',
]);

/**
 * `type: ["string", "null"]` as `anyOf` one branch per type; an enum that
 * lists null keeps its other values in the branch of their type.
 */
function splitTypes(schema: JsonSchema): JsonSchema {
  const types = schema.type;
  if (!Array.isArray(types)) return schema;
  const { type: _, enum: values, ...rest } = schema;
  const branches = (types as string[]).map((type) => {
    if (type === 'null') return { type };
    // A JSON value's array holds JSON values: its items are said as the list's other types, one level deep
    // (an array without `items`, or with `{}`, is what strict clients refuse).
    if (type === 'array') return { type, items: { anyOf: (types as string[]).filter((t) => t !== 'array').map((t) => ({ type: t })) } };
    const ofType = Array.isArray(values) ? values.filter((v) => v !== null) : undefined;
    return ofType ? { type, enum: ofType } : { type };
  });
  return { ...rest, anyOf: branches };
}

/**
 * A tuple (zod's `prefixItems` with `items: false`) as an array of its one
 * item type and its length: `prefixItems` is 2020-12 only, and `false` is a
 * bare boolean schema, both refused by strict clients. Core's tuples (the
 * [from, to] pairs of working hours) have items of one type.
 */
function tupleAsArray(schema: JsonSchema): JsonSchema {
  if (!Array.isArray(schema.prefixItems)) return schema;
  const { prefixItems, items: _, ...rest } = schema;
  const distinct = [...new Map((prefixItems as JsonSchema[]).map((item) => [JSON.stringify(item), item])).values()];
  return { ...rest, items: distinct.length === 1 ? distinct[0] : { anyOf: distinct } };
}

function reshape(schema: JsonSchema, io: 'input' | 'output'): JsonSchema {
  const split = tupleAsArray(splitTypes(schema));
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(split)) {
    if (io === 'input' ? droppedFromInput(key, value, split) : OUTPUT_NOISE.has(key)) continue;
    if (key === 'properties' && isSchema(value)) {
      out.properties = Object.fromEntries(Object.entries(value).map(([name, p]) => [name, reshape(p as JsonSchema, io)]));
    } else if ((key === 'items' || key === 'additionalProperties') && isSchema(value)) {
      // `{}` (anything) says nothing an absent keyword does not.
      if (Object.keys(value).length > 0) out[key] = reshape(value, io);
    } else if ((key === 'anyOf' || key === 'oneOf') && Array.isArray(value)) {
      out[key] = value.map((branch) => reshape(branch as JsonSchema, io));
    } else {
      out[key] = value;
    }
  }
  // An array of anything still says so: `items: {}` is what strict clients want to see.
  if (out.type === 'array' && out.items === undefined) out.items = {};
  return out;
}

/** A tool's input schema (or one argument's), as clients are shown it. */
export function inputForClients(schema: JsonSchema): JsonSchema {
  return reshape(schema, 'input');
}

/**
 * Past this many values an output's enum is stated as its type. A model
 * reads such a field's value, never chooses it from the list: the list
 * belongs to the input that sets it (create_webhook's `events`, a token's
 * `scopes`), and repeated in every output it cost each connection bytes per
 * value per tool (the webhook tools listed 22 event names seven times).
 */
const LONGEST_OUTPUT_ENUM = 8;

/**
 * An object's fields, each stated in full, and which are always there. A
 * field that is always there and is a plain string is named only in
 * `required`: `additionalProperties: {"type": "string"}` types every field
 * not listed in `properties`. That says exactly the same as listing it, in
 * a third of the bytes (most fields of a Booking or a Series are plain
 * strings).
 */
function objectOf(schema: JsonSchema): JsonSchema {
  const properties = Object.entries(isSchema(schema.properties) ? schema.properties : {});
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const typed = properties.map(([name, p]) => [name, fullOutput(p as JsonSchema)] as const);
  const plain = (name: string, type: JsonSchema) => required.includes(name) && Object.keys(type).length === 1 && type.type === 'string';
  const listed = typed.filter(([name, type]) => !plain(name, type));
  const out: JsonSchema = { type: 'object' };
  if (required.length > 0) out.required = required;
  if (listed.length > 0) out.properties = Object.fromEntries(listed);
  if (listed.length < typed.length) out.additionalProperties = { type: 'string' };
  else if (isSchema(schema.additionalProperties) && Object.keys(schema.additionalProperties).length > 0) {
    out.additionalProperties = fullOutput(schema.additionalProperties);
  }
  return out;
}

/** One output value, every level of it. */
function fullOutput(schema: JsonSchema): JsonSchema {
  const field = reshape(schema, 'output');
  if (Array.isArray(field.anyOf)) {
    return { anyOf: field.anyOf.map((branch) => fullOutput(branch as JsonSchema)) };
  }
  if (Array.isArray(field.enum) && field.enum.length > LONGEST_OUTPUT_ENUM) return { type: typeof field.enum[0] };
  if (Array.isArray(field.enum)) return { type: typeof field.enum[0], enum: field.enum };
  if (field.const !== undefined) return { type: typeof field.const, const: field.const };
  if (field.type === 'object') return objectOf(field);
  if (field.type === 'array') return { type: 'array', items: isSchema(field.items) ? fullOutput(field.items) : {} };
  return field;
}

/**
 * A branch of a tool's output schema: the answer, or for a list, the page
 * (`data`, `next_cursor`, `has_more`) with its items in full.
 */
export function outputForClients(schema: JsonSchema): JsonSchema {
  return fullOutput(schema);
}
