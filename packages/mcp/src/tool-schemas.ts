import { closeDeclaredObjects, ERROR_CODES, type Operation } from '@schedule/core';
import { z } from 'zod';
import { inputForClients, type JsonSchema, outputForClients } from './client-json-schema.js';
import { CONFIRM_ARGUMENT } from './confirm.js';
import { argumentNames } from './unknown-arguments.js';

/** A failed call's `structuredContent` (docs/workspace.md): the API's error, without the request id. */
export const toolErrorSchema = z.object({
  error: z.object({ code: z.enum(ERROR_CODES), message: z.string(), details: z.record(z.string(), z.unknown()) }),
});

/** A list tool's `structuredContent`: one page and how to get the next (docs/workspace.md). */
export function pageSchema(item: z.ZodType) {
  return z.object({ data: z.array(item), next_cursor: z.string().nullable(), has_more: z.boolean() });
}

/** What a successful call of the operation carries as `structuredContent`. */
export function successSchema(operation: Operation): z.ZodType {
  return operation.schemas.list ? pageSchema(operation.schemas.output) : operation.schemas.output;
}

/** The JSON Schema zod derives from a core schema, as is. */
export function derivedJsonOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  return z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
}

/**
 * A zod object the SDK can list and validate with, whose JSON Schema is
 * `json` but which accepts any value. Keys zod would add on its own
 * (`$schema`, a loose object's `additionalProperties: {}`) are set to
 * undefined, which its JSON Schema output leaves out, unless `json` says
 * them (inputs say `additionalProperties: false`).
 *
 * Why: the SDK validates arguments before a tool runs, and a failure there
 * is a bare text error. Core's `parse` answers the spec's codes instead
 * (`validation_error` naming the fields, `attendee_email_invalid`,
 * `count_out_of_range`, `invalid_change`, `field_immutable`), and the MCP
 * server must answer exactly as HTTP does; unknown arguments get their
 * `validation_error` from unknown-arguments.ts and core, so they must reach them. So
 * core stays the one validator, and clients still see the real schema,
 * derived from core's zod schemas.
 */
export function describedOnly(json: JsonSchema): z.ZodObject {
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const shape = Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, z.unknown().optional().meta(property)]));
  const { properties: _, ...rest } = json;
  return z.looseObject(shape).meta({ $schema: undefined, additionalProperties: undefined, ...rest });
}

const IDEMPOTENCY_KEY: JsonSchema = {
  type: 'string',
  description: 'Reuse to retry safely.',
};
// minimum 0: working hours never written are at version 0, and their first replace names it.
const IF_MATCH: JsonSchema = {
  anyOf: [{ type: 'integer', minimum: 0 }, { type: 'string' }],
  description: 'The version you read (3, "3" or *); version_conflict if it changed.',
};
const UID: JsonSchema = { type: 'string', format: 'uuid', description: 'The uid of the resource.' };
/** What an `id` path parameter names, by the resource in the tool's name. */
const ID_OF: readonly (readonly [RegExp, string])[] = [
  [/event_type/, "The event type's id."],
  [/time_off/, "The time-off range's id."],
  [/webhook/, "The webhook's id."],
  [/hold/, "The hold's id (create_hold)."],
];

/** The `id` argument of an operation's tool, said for what it names: a model must not pass one resource's id for another's. */
function idParam(operation: Operation): JsonSchema {
  const description = ID_OF.find(([resource]) => resource.test(operation.name))?.[1] ?? "The resource's id.";
  return { type: 'string', format: 'uuid', description };
}

/** Path parameters by name; `id` is said per tool (idParam); any other (`uid`) is a resource's uid. */
const PATH_PARAMS: Record<string, JsonSchema> = {
  delivery_id: { type: 'string', description: 'The delivery id, from list_webhook_deliveries.' },
  user_id: { type: 'string', description: 'A user id, a username, or me.' },
  token_id: { type: 'string', format: 'uuid', description: "The token's id." },
};

/** The tool arguments of an operation: path parameters, query or body fields, idempotency_key and if_match. */
export function inputJsonOf(operation: Operation): JsonSchema {
  const input = operation.schemas.input ? derivedJsonOf(operation.schemas.input, 'input') : { type: 'object', properties: {} };
  const fields = (input.properties ?? {}) as Record<string, JsonSchema>;
  const headers: Record<string, JsonSchema> = { idempotency_key: IDEMPOTENCY_KEY, if_match: IF_MATCH, confirm: CONFIRM_ARGUMENT };
  const properties = Object.fromEntries(
    argumentNames(operation).map((name) => [
      name,
      fields[name] ?? headers[name] ?? (name === 'id' ? idParam(operation) : PATH_PARAMS[name]) ?? UID,
    ]),
  );
  const required = [...operation.schemas.params, ...((input.required ?? []) as string[])];
  if (operation.ifMatch === 'required') required.push('if_match');
  return inputForClients(closeDeclaredObjects({ type: 'object', properties, required }));
}

/**
 * The error branch only tells a failure from a success. Its shape is
 * `toolErrorSchema` (docs/workspace.md), said once in the server's instructions
 * rather than in each output schema: with the enum of its
 * codes, it cost about 1 KB a tool (issue 11).
 */
const ERROR_JSON: JsonSchema = { type: 'object', required: Object.keys(toolErrorSchema.shape) };

/**
 * The output JSON Schema of a tool: the success shape or the error shape. A
 * failed call also carries `structuredContent` (docs/workspace.md), and SDK
 * clients check whatever structured content comes back against the
 * declared schema, so the error shape must be part of it.
 */
export function outputJsonOf(operation: Operation): JsonSchema {
  return withErrorBranch(outputForClients(derivedJsonOf(successSchema(operation), 'output')));
}

/** A tool's whole output schema: its success, or the error every tool may answer. */
export function withErrorBranch(success: JsonSchema): JsonSchema {
  return { type: 'object', anyOf: [success, ERROR_JSON] };
}

/** An output JSON Schema as `registerTool` takes it: said as is, any value accepted (core's schemas already shaped it). */
export function declaredOutput(json: JsonSchema): z.ZodObject {
  const { type: _, ...rest } = json;
  return z.looseObject({}).meta({ $schema: undefined, properties: undefined, additionalProperties: undefined, ...rest });
}

/** What a tool is registered with (zod, for the SDK to call it) and listed with (JSON Schema, as is). */
export interface ToolSchemas {
  readonly input: z.ZodObject;
  readonly output: z.ZodObject;
  readonly inputJson: JsonSchema;
  readonly outputJson: JsonSchema;
}

const registered = new WeakMap<Operation, ToolSchemas>();

/**
 * The schemas `registerTool` takes for an operation, derived once per
 * operation: Streamable HTTP builds a server per request, and deriving the
 * JSON Schemas of every tool each time cost about 5 ms a request.
 */
export function toolSchemasOf(operation: Operation): ToolSchemas {
  let schemas = registered.get(operation);
  if (!schemas) {
    const inputJson = inputJsonOf(operation);
    const outputJson = outputJsonOf(operation);
    schemas = { input: describedOnly(inputJson), output: declaredOutput(outputJson), inputJson, outputJson };
    registered.set(operation, schemas);
  }
  return schemas;
}
