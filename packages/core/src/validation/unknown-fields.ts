import { z } from 'zod';
import { ScheduleError } from '../errors.js';
import { didYouMean } from './closest-name.js';
import { bodyObject } from './parse-body.js';

// Issue 29: a body field that nothing takes is refused, not dropped. A
// misspelled `attendee.nmae` used to book a meeting with the attendee named
// after their email, and a model or client could not tell. Every write
// (POST, PATCH, DELETE) is held to the fields its declared schema lists, at
// every depth; a free-form object (`metadata`, `responses`) takes any key.

/** A JSON Schema, as zod derives one: an object of keywords. */
export type JsonSchema = { [keyword: string]: unknown };

const isSchema = (value: unknown): value is JsonSchema => typeof value === 'object' && value !== null && !Array.isArray(value);

const mapSchemas = (schemas: JsonSchema, f: (schema: JsonSchema) => JsonSchema): JsonSchema =>
  Object.fromEntries(Object.entries(schemas).map(([name, schema]) => [name, isSchema(schema) ? f(schema) : schema]));

/**
 * A body's JSON Schema as the server holds bodies to it: every object that
 * lists its properties says `additionalProperties: false`. An object that
 * says otherwise (a record's value schema, a loose object's `{}`) keeps what
 * it says. The OpenAPI document states request bodies this way, and this
 * file refuses what it closes: one rule, said and applied alike.
 */
export function closeDeclaredObjects(schema: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if ((keyword === 'properties' || keyword === '$defs') && isSchema(value)) out[keyword] = mapSchemas(value, closeDeclaredObjects);
    else if ((keyword === 'items' || keyword === 'additionalProperties') && isSchema(value)) out[keyword] = closeDeclaredObjects(value);
    else if ((keyword === 'anyOf' || keyword === 'oneOf' || keyword === 'allOf' || keyword === 'prefixItems') && Array.isArray(value)) {
      out[keyword] = value.map((branch) => (isSchema(branch) ? closeDeclaredObjects(branch) : branch));
    } else out[keyword] = value;
  }
  if (isSchema(out.properties) && out.additionalProperties === undefined) out.additionalProperties = false;
  return out;
}

const derived = new WeakMap<z.ZodType, JsonSchema>();

/** The closed JSON Schema of what a caller sends for `schema`, derived once per schema. */
export function bodyJsonSchemaOf(schema: z.ZodType): JsonSchema {
  let json = derived.get(schema);
  // Stryker disable next-line ConditionalExpression: deriving again gives the same schema; the cache only saves the time.
  if (json === undefined) {
    json = closeDeclaredObjects(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema);
    derived.set(schema, json);
  }
  return json;
}

/** A field of a body that its object does not take. */
export interface UnknownField {
  /** Where it is: `attendee.nmae`, `guests.1.nmae`, `colour`. */
  readonly path: string;
  /** The object it is in (`attendee`), or `''` for the body itself. */
  readonly parent: string;
  readonly name: string;
  /** The fields that object takes. */
  readonly known: readonly string[];
}

/** The schema a `$ref` names within the document (zod names reused schemas under `$defs`). */
function resolved(schema: JsonSchema, root: JsonSchema): JsonSchema {
  const ref = schema.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/$defs/')) return schema;
  const target = (root.$defs as JsonSchema | undefined)?.[ref.slice('#/$defs/'.length)];
  return isSchema(target) ? target : schema;
}

/** The alternatives a value may take under `schema`: itself, and each branch of a union or part of an intersection. */
function alternatives(schema: JsonSchema, root: JsonSchema): JsonSchema[] {
  const own = resolved(schema, root);
  const branches = [own.anyOf, own.oneOf, own.allOf].flat().filter(isSchema);
  return [own, ...branches.flatMap((branch) => alternatives(branch, root))];
}

function collect(schema: JsonSchema, value: unknown, path: readonly string[], root: JsonSchema, found: UnknownField[]): void {
  if (typeof value !== 'object' || value === null) return;
  const shapes = alternatives(schema, root);
  if (Array.isArray(value)) {
    const items = shapes.map((shape) => shape.items).find(isSchema);
    if (items) for (const [index, item] of value.entries()) collect(items, item, [...path, String(index)], root, found);
    return;
  }
  const objects = shapes.filter((shape) => isSchema(shape.properties) || isSchema(shape.additionalProperties));
  // Not an object where one is declared: the schema's own check names it.
  if (objects.length === 0) return;
  const closed = objects.every((shape) => shape.additionalProperties === false);
  const known = [...new Set(objects.flatMap((shape) => Object.keys(isSchema(shape.properties) ? shape.properties : {})))];
  for (const [name, child] of Object.entries(value)) {
    const declared = objects
      .map((shape) => (isSchema(shape.properties) && Object.hasOwn(shape.properties, name) ? shape.properties[name] : undefined))
      .find(isSchema);
    const taken = declared ?? objects.map((shape) => shape.additionalProperties).find(isSchema);
    if (taken) collect(taken, child, [...path, name], root, found);
    else if (closed) found.push({ path: [...path, name].join('.'), parent: path.join('.'), name, known });
  }
}

/** Every field of `value`, at any depth, that the closed JSON Schema `schema` does not take, in the order they appear. */
export function unknownFieldsOf(schema: JsonSchema, value: unknown): UnknownField[] {
  const found: UnknownField[] = [];
  collect(schema, value, [], schema, found);
  return found;
}

/** What an operation without a body takes. */
const NO_FIELDS = z.object({});

/**
 * Refuses a write's body when it holds a field the operation's body schema
 * (none: a bodiless action) does not declare, at any depth:
 * `400 validation_error` with `details.fields` naming each, and the field
 * meant where one is close. A body that is not a JSON object is refused
 * too. With `ownKeys: false` only fields nested below the body's own keys
 * are judged here: a PATCH answers a key it cannot change with its own code
 * (docs/api: `field_immutable`, `invalid_change`).
 */
export function refuseUnknownFields(schema: z.ZodType | undefined, body: unknown, options: { readonly ownKeys: boolean }): void {
  const found = unknownFieldsOf(bodyJsonSchemaOf(schema ?? NO_FIELDS), bodyObject(body)).filter(
    (field) => options.ownKeys || field.parent !== '',
  );
  if (found.length === 0) return;
  const fields = found.map((field) => field.path);
  throw new ScheduleError(
    'validation_error',
    (w) => {
      const meant = found.map((field) => didYouMean([field.name], field.known, field.parent === '' ? '' : `${field.parent}.`));
      // Where nothing is close, say what the object takes instead.
      const unhinted = new Map(found.filter((_, i) => meant[i] === '').map((field) => [field.parent, field.known]));
      const takes = [...unhinted].map(
        ([parent, known]) => ` ${parent === '' ? w.call : parent} takes ${known.length === 0 ? 'no body fields' : known.join(', ')}.`,
      );
      return `Unknown field${fields.length === 1 ? '' : 's'}: ${fields.join(', ')}.${meant.join('')}${takes.join('')}`;
    },
    { fields },
  );
}
