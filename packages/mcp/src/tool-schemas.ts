import { ERROR_CODES, type Operation } from '@schedule/core';
import { z } from 'zod';

type JsonSchema = Record<string, unknown>;

/** A failed call's `structuredContent` (workspace.md): the API's error, without the request id. */
export const toolErrorSchema = z.object({
  error: z.object({ code: z.enum(ERROR_CODES), message: z.string(), details: z.record(z.string(), z.unknown()) }),
});

/** A list tool's `structuredContent`: one page and how to get the next (workspace.md). */
export function pageSchema(item: z.ZodType) {
  return z.object({ data: z.array(item), next_cursor: z.string().nullable(), has_more: z.boolean() });
}

/** What a successful call of the operation carries as `structuredContent`. */
export function successSchema(operation: Operation): z.ZodType {
  return operation.schemas.list ? pageSchema(operation.schemas.output) : operation.schemas.output;
}

function jsonOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _, ...json } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return json;
}

/**
 * A zod object the SDK can list and validate with, whose JSON Schema is
 * `json` but which accepts any value.
 *
 * Why: the SDK validates arguments before a tool runs, and a failure there
 * is a bare text error. Core's `parse` answers the spec's codes instead
 * (`validation_error` naming the fields, `attendee_email_invalid`,
 * `count_out_of_range`, `invalid_change`, `field_immutable`), and the MCP
 * server must answer exactly as HTTP does. So core stays the one validator,
 * and clients still see the real schema, derived from core's zod schemas.
 */
export function describedOnly(json: JsonSchema): z.ZodObject {
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const shape = Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, z.unknown().optional().meta(property)]));
  const { properties: _, ...rest } = json;
  return z.looseObject(shape).meta(rest);
}

const IDEMPOTENCY_KEY: JsonSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 255,
  description: 'Makes a retry safe: the same key with the same arguments is done once. Generated when omitted.',
};
const IF_MATCH: JsonSchema = {
  anyOf: [{ type: 'integer', minimum: 1 }, { type: 'string' }],
  description: 'The version you read (get_booking / get_series `version`); the call fails with version_conflict if it changed.',
};
const UID: JsonSchema = { type: 'string', format: 'uuid', description: 'The uid of the resource.' };

/** The tool arguments of an operation: path parameters, query or body fields, idempotency_key and if_match. */
export function inputJsonOf(operation: Operation): JsonSchema {
  const input = operation.schemas.input ? jsonOf(operation.schemas.input, 'input') : { type: 'object', properties: {} };
  const properties: Record<string, JsonSchema> = {
    ...Object.fromEntries(operation.schemas.params.map((param) => [param, UID])),
    ...((input.properties ?? {}) as Record<string, JsonSchema>),
  };
  const required = [...operation.schemas.params, ...((input.required ?? []) as string[])];
  if (operation.idempotencyKey !== 'none') properties.idempotency_key = IDEMPOTENCY_KEY;
  if (operation.ifMatch !== 'none') properties.if_match = IF_MATCH;
  if (operation.ifMatch === 'required') required.push('if_match');
  return { type: 'object', properties, required };
}

/** The input schema handed to `registerTool`. */
export function inputSchemaOf(operation: Operation): z.ZodObject {
  return describedOnly(inputJsonOf(operation));
}

/**
 * The output schema handed to `registerTool`: the success shape or the error
 * shape. A failed call also carries `structuredContent` (workspace.md), and
 * SDK clients check whatever structured content comes back against the
 * declared schema, so the error shape must be part of it.
 */
export function outputSchemaOf(success: z.ZodType): z.ZodObject {
  return z.looseObject({}).meta({ anyOf: [jsonOf(success, 'output'), jsonOf(toolErrorSchema, 'output')] });
}

const registered = new WeakMap<Operation, { input: z.ZodObject; output: z.ZodObject }>();

/**
 * The schemas `registerTool` takes for an operation, derived once per
 * operation: Streamable HTTP builds a server per request, and deriving the
 * JSON Schemas of every tool each time cost about 5 ms a request.
 */
export function toolSchemasOf(operation: Operation): { input: z.ZodObject; output: z.ZodObject } {
  let schemas = registered.get(operation);
  if (!schemas) {
    schemas = { input: inputSchemaOf(operation), output: outputSchemaOf(successSchema(operation)) };
    registered.set(operation, schemas);
  }
  return schemas;
}
