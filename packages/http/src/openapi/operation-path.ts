import { MAX_KEY_LENGTH, type Operation, type OperationName } from '@schedule/core';
import { z } from 'zod';
import type { ZodOpenApiOperationObject } from 'zod-openapi';
import { errorResponses } from './error-responses.js';
import { successHeaders } from './headers.js';
import { httpErrorsOf } from './http-errors.js';
import type { OperationDoc } from './operation-doc.js';
import { OPERATION_DOCS } from './operation-docs.js';

/** `/v1/bookings/:uid` as OpenAPI writes a path template: `/v1/bookings/{uid}`. */
export function templateOf(path: string): string {
  return path.replace(/:([a-z_]+)/g, '{$1}');
}

/** `create_booking` as a component name: `CreateBooking`. */
export function pascalCase(name: string): string {
  return name.replace(/(?:^|_)([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

/** The doc of an operation; one the registry does not name (a test's own) gets a bare one. */
export function docOf(operation: Operation): OperationDoc {
  return (
    OPERATION_DOCS[operation.name as OperationName] ?? {
      tag: 'Meta',
      summary: operation.name,
      description: operation.name,
      resource: `${pascalCase(operation.name)}Result`,
      responseExample: undefined,
    }
  );
}

const requestId = z.string().meta({ format: 'uuid', description: 'Equal to the `X-Request-Id` header.' });

/** `meta` of one resource's answer. */
export const itemMeta = z.strictObject({ request_id: requestId });

/** `meta` of a page of a list (requests.md "Pagination"). */
export const pageMeta = z.strictObject({
  request_id: requestId,
  next_cursor: z.string().nullable().meta({ description: 'Send it as `cursor` for the next page; null on the last page.' }),
  has_more: z.boolean().meta({ description: 'Whether more items follow.' }),
});

const uid = z.string().meta({
  param: { id: 'Uid' },
  description: 'The resource’s uid. One that is not a UUID, is unknown or is outside the caller’s set answers 404 alike.',
  examples: ['cd2ad973-6c01-42f0-94c4-d76cb4fe6343'],
});

// `id` names a webhook, an event type or a range of time off, as the path around it says.
const resourceId = z.string().meta({
  param: { id: 'Id' },
  description:
    'The id of the webhook, event type or range of time off the path names. One that is not a UUID, is unknown or is outside the caller’s set answers 404 alike.',
  examples: ['5b1e9c1a-7d2f-4c3b-9a8e-2f4d6b8c0e11'],
});

const userId = z.string().meta({
  param: { id: 'UserId' },
  description:
    'Whose: a user id, a username, or `me` for the caller. Someone the caller may not act for answers like someone unknown (docs/api/overview.md "Roles").',
  examples: ['me'],
});

const overrideDate = z.string().meta({
  param: { id: 'OverrideDate' },
  description: 'The date of a working-hours override, `YYYY-MM-DD`.',
  examples: ['2026-12-24'],
});

const tokenId = z.string().meta({
  param: { id: 'TokenId' },
  description: 'The id of one of the caller’s own tokens. Another person’s, or an unknown one, answers 404 alike.',
  examples: ['5c8e2f1a-9b3d-4c7e-8a1f-2d3e4f5a6b7c'],
});

const deliveryId = z.string().meta({
  param: { id: 'DeliveryId' },
  description: 'The delivery’s id, as the deliveries list shows it and the `webhook-id` header carried it.',
  examples: ['0d4c2b8e-1f3a-4e5b-8c7d-9a0b1c2d3e4f'],
});

const calendarId = z.string().meta({
  param: { id: 'CalendarId' },
  description: 'The calendar account’s id, `cal_…`. One that is unknown or whose user is outside the caller’s set answers 404 alike.',
  examples: ['cal_3f2a9c0e8b7d4e61a5c2f0d9b8e7a6c5'],
});

/** Each path parameter's schema by its name: one component each, shared by every path that takes it. */
const PATH_PARAMS: Readonly<Record<string, z.ZodType>> = {
  uid,
  id: resourceId,
  delivery_id: deliveryId,
  calendar_id: calendarId,
  user_id: userId,
  date: overrideDate,
  token_id: tokenId,
};

/** The schema of a path parameter; one no operation of the registry takes (a test's own) reads like a uid. */
function pathParamOf(name: string): z.ZodType {
  return PATH_PARAMS[name] ?? uid;
}

const idempotencyKey = z
  .string()
  .min(1)
  .max(MAX_KEY_LENGTH)
  .meta({
    description:
      'Makes the write safe to retry: the same key with the same request answers the stored result once it has run (`Idempotent-Replayed: true`). Keys are per user and kept 24 hours.',
    examples: ['4b1d7c2e-first-try'],
  });

const ifMatch = z.string().meta({
  description: 'The version you read: the `ETag` as sent (`"3"`), the bare number (`3`), or `*` for whatever is current.',
  examples: ['"1"'],
});

// Each declared once: a parameter component is one zod schema, referred to from every operation that reads it.
const KEY_HEADER = {
  required: idempotencyKey.meta({ param: { id: 'IdempotencyKey' } }),
  optional: idempotencyKey.optional().meta({ param: { id: 'OptionalIdempotencyKey' } }),
};
const IF_MATCH_HEADER = {
  required: ifMatch.meta({ param: { id: 'IfMatch' } }),
  optional: ifMatch.optional().meta({ param: { id: 'OptionalIfMatch' } }),
};

/** The headers an operation reads, required or optional as it declares them. */
function headerParams(operation: Operation) {
  const shape: Record<string, z.ZodType> = {};
  if (operation.idempotencyKey !== 'none') shape['Idempotency-Key'] = KEY_HEADER[operation.idempotencyKey];
  if (operation.ifMatch !== 'none') shape['If-Match'] = IF_MATCH_HEADER[operation.ifMatch];
  return Object.keys(shape).length > 0 ? z.object(shape) : undefined;
}

/** The request id an example answer shows. */
const EXAMPLE_REQUEST_ID = '0c1b4f2b-77af-4996-b25c-86cac3ab1b62';

/** The success envelope of an operation: `data` (a page of items for a list) and `meta`. */
function successOf(operation: Operation, doc: OperationDoc) {
  const output = operation.schemas.output;
  const schema = operation.schemas.list
    ? z.strictObject({ data: z.array(output), meta: pageMeta })
    : z.strictObject({ data: output, meta: itemMeta });
  const meta = operation.schemas.list
    ? { request_id: EXAMPLE_REQUEST_ID, next_cursor: null, has_more: false }
    : { request_id: EXAMPLE_REQUEST_ID };
  const data = operation.schemas.list ? [doc.responseExample] : doc.responseExample;
  return {
    description: doc.created ? 'Created.' : doc.accepted ? 'Accepted: queued, to be done shortly.' : 'Done.',
    headers: successHeaders({
      counting: 'counted',
      etag: doc.etag,
      location: doc.created,
      replayable: operation.idempotencyKey !== 'none',
    }),
    content: {
      'application/json': {
        schema,
        ...(doc.responseExample === undefined ? {} : { examples: { [operation.name]: { value: { data, meta } } } }),
      },
    },
  };
}

/** One operation of the registry as an OpenAPI operation: its inputs, its scope, its success and every error it can answer. */
export function operationObject(operation: Operation): ZodOpenApiOperationObject {
  const doc = docOf(operation);
  const input = operation.schemas.input;
  const headers = headerParams(operation);
  const path =
    operation.schemas.params.length > 0
      ? z.object(Object.fromEntries(operation.schemas.params.map((name) => [name, pathParamOf(name)])))
      : undefined;
  const scope = operation.scope === null ? 'Any valid token; no scope is needed.' : `Needs the scope \`${operation.scope}\`.`;
  return {
    operationId: operation.name,
    tags: [doc.tag],
    summary: doc.summary,
    description: `${doc.description}\n\n${scope} MCP tool: \`${operation.name}\`.`,
    security: operation.scope === null ? [{ bearerToken: [] }] : [{ bearerToken: [operation.scope] }, { oauth2: [operation.scope] }],
    requestParams: {
      ...(path ? { path } : {}),
      ...(input && operation.method === 'GET' ? { query: input } : {}),
      ...(headers ? { header: headers } : {}),
    },
    ...(input && operation.method !== 'GET'
      ? {
          requestBody: {
            required: !doc.optionalBody,
            content: {
              'application/json': {
                schema: input,
                ...(doc.requestExample === undefined ? {} : { examples: { [operation.name]: { value: doc.requestExample } } }),
              },
            },
          },
        }
      : {}),
    responses: {
      [doc.created ? '201' : doc.accepted ? '202' : '200']: successOf(operation, doc),
      ...errorResponses(httpErrorsOf(operation), 'counted'),
    },
  };
}
