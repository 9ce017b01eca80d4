import { closeDeclaredObjects, type JsonSchema, type Operation, SCOPES } from '@schedule/core';
import type { z } from 'zod';
import { createDocument, type oas31, type ZodOpenApiObject, type ZodOpenApiPathsObject } from 'zod-openapi';
import { ERROR_SCHEMA, errorResponses } from './error-responses.js';
import { HEADER_COMPONENTS } from './headers.js';
import { UNROUTED_ERRORS } from './http-errors.js';
import { META_PATHS } from './meta-paths.js';
import { OAUTH_PATHS } from './oauth-paths.js';
import { TAGS } from './operation-doc.js';
import { docOf, itemMeta, operationObject, pageMeta, pascalCase, templateOf } from './operation-path.js';
import { type Responses, shareRepeatedResponses } from './shared-responses.js';

const DESCRIPTION = `The HTTP API of schedule, a self-hostable scheduling service: bookings, recurring series, free slots and webhooks.
This document is generated from the operations the server runs (the same ones its MCP server and CLI run);
docs/api/ in the repository explains the rules behind it in full.

- **Envelope.** A success is \`{ "data", "meta": { "request_id" } }\`; a list adds \`meta.next_cursor\` and \`meta.has_more\`.
  A refusal is \`{ "error": { "code", "message", "details", "request_id" } }\`: branch on \`code\`, show \`message\` to people.
- **Tokens.** Every \`/v1\` operation needs \`Authorization: Bearer <token>\`; each lists the scope it needs.
  A token acts for its user's acts-for set: a resource outside it answers exactly like one that does not exist.
- **Retries.** Writes take an \`Idempotency-Key\`: the same key with the same request runs once and answers the stored result again.
- **Versions.** Bookings and series carry \`version\`, shown as \`ETag\`; the \`PATCH\`es need it back in \`If-Match\`.
- **Rate limits.** Every \`/v1\` request is counted in its token's bucket (else its address's) per 60-second window,
  and every counted answer carries \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\`.
- **Time.** Instants you send must name their offset (\`Z\` or \`+01:00\`); instants you receive are UTC with milliseconds.
- **Other paths.** A path or method not listed here is answered \`404 not_found\` or \`405 method_not_allowed\` with \`Allow\`,
  after the checks that come before routing; \`x-unrouted-responses\` lists those answers.`;

/** Drops the bounds zod gives every integer, which only say "a safe integer". */
function withoutSafeIntegerBounds({ jsonSchema }: { jsonSchema: { minimum?: unknown; maximum?: unknown } }): void {
  if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
  if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
}

/**
 * zod-openapi names the output rendering of a component nested in another
 * `XOutput` when its input rendering differs (output objects are closed),
 * and keeps the input rendering, unused here, as `X`: every schema of this
 * document is an answer's or a body's, never both, so `X` is the name.
 */
function withOutputNames(document: oas31.OpenAPIObject): oas31.OpenAPIObject {
  const ref = (name: string) => `"#/components/schemas/${name}"`;
  const before = JSON.stringify(document);
  const names = Object.keys(document.components?.schemas ?? {});
  const renamed = names.filter((name) => names.includes(`${name}Output`) && !before.includes(ref(name)));
  const after = JSON.parse(renamed.reduce((text, name) => text.replaceAll(ref(`${name}Output`), ref(name)), before)) as oas31.OpenAPIObject;
  const schemas = after.components!.schemas!;
  for (const name of renamed) {
    schemas[name] = schemas[`${name}Output`]!;
    delete schemas[`${name}Output`];
  }
  return after;
}

/**
 * Request bodies as the server holds them (core's validation/unknown-fields.ts):
 * a field a body object does not list is refused, so each such object says
 * `additionalProperties: false`; `metadata` and `responses` stay open.
 */
function withClosedBodies(document: oas31.OpenAPIObject, operations: readonly Operation[]): oas31.OpenAPIObject {
  const schemas = { ...document.components?.schemas };
  for (const operation of operations) {
    const name = `${pascalCase(operation.name)}Body`;
    const body = schemas[name];
    if (body !== undefined) schemas[name] = closeDeclaredObjects(body as JsonSchema) as oas31.SchemaObject;
  }
  return { ...document, components: { ...document.components, schemas } };
}

/**
 * The components: each operation's resource and request body by name (two
 * operations naming one resource must show the same schema), the error
 * envelope, the two `meta` shapes and the response headers.
 */
function componentsOf(operations: readonly Operation[]): NonNullable<ZodOpenApiObject['components']> {
  const schemas: Record<string, z.ZodType | oas31.SchemaObject> = {};
  const name = (id: string, schema: z.ZodType) => {
    if (schemas[id] !== undefined && schemas[id] !== schema) throw new Error(`Two schemas are named ${id} in the OpenAPI document.`);
    schemas[id] = schema;
  };
  for (const operation of operations) {
    name(docOf(operation).resource, operation.schemas.output);
    if (operation.method !== 'GET' && operation.schemas.input) {
      name(docOf(operation).body ?? `${pascalCase(operation.name)}Body`, operation.schemas.input);
    }
  }
  return {
    schemas: { ...schemas, Error: ERROR_SCHEMA, Meta: itemMeta, PageMeta: pageMeta },
    headers: HEADER_COMPONENTS,
    securitySchemes: {
      bearerToken: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'pat_<32 base64url characters>, or an OAuth access token',
        description: [
          'A personal access token (`schedule tokens create`), a token the workspace file declares',
          "(one with `oauth_client_id` acts as an OAuth client for its user), or an access token from this server's",
          'OAuth authorization server (see `oauth2`). Unknown, revoked and expired tokens answer `401` alike;',
          'an OAuth token issued for `/mcp` is not valid here. Each operation lists the scope it needs among:',
          `${SCOPES.map((scope) => `\`${scope}\``).join(', ')}.`,
        ].join(' '),
      },
      oauth2: {
        type: 'oauth2',
        description: [
          'Authorization code with PKCE (S256), for apps acting for a host who signs in and consents in the browser.',
          'Discovery: `/.well-known/oauth-authorization-server`; clients register at `/v1/oauth/register` (RFC 7591)',
          "or use a client ID metadata document URL. Send `resource` = this server's origin for an API token.",
        ].join(' '),
        flows: {
          authorizationCode: {
            authorizationUrl: '/v1/oauth/authorize',
            tokenUrl: '/v1/oauth/token',
            refreshUrl: '/v1/oauth/token',
            scopes: Object.fromEntries(SCOPES.map((scope) => [scope, SCOPE_MEANINGS[scope]])),
          },
        },
      },
    },
  };
}

/** What each scope grants (docs/api/overview.md "Authentication"). */
const SCOPE_MEANINGS: Record<(typeof SCOPES)[number], string> = {
  'series:read': 'List and read series',
  'series:write': 'Create, pause, resume, end, change host of and patch series',
  'bookings:read': 'List and read bookings',
  'bookings:create': 'Create bookings',
  'bookings:cancel': 'Cancel bookings',
  'bookings:reschedule': 'Reschedule bookings',
  'bookings:update': 'Patch bookings',
  'slots:read': 'List and check slots',
  'webhooks:read': 'List and read your webhooks and their deliveries',
  'webhooks:write': 'Create, change, pause, delete and test your webhooks, rotate their secrets, redeliver events',
  'calendars:read': 'List, read and test the CalDAV accounts of the people you act for',
  'calendars:write': 'Add and remove CalDAV accounts of the people you act for',
  'event_types:write': 'Create, change and archive the event types of the people you act for',
  'availability:read': 'Read the working hours, overrides and time off of the people you act for',
  'availability:write': 'Change the working hours, overrides and time off of the people you act for',
  'people:write': 'Edit profiles; admins and owners also add, change and deactivate people',
  'tokens:read': 'List your own access tokens (never their secrets)',
  'tokens:write': 'Create and revoke your own access tokens',
};

/** The OpenAPI 3.1 document of an HTTP app that serves `operations`. Deterministic: the same operations give the same document. */
export function openApiDocument(operations: readonly Operation[]): oas31.OpenAPIObject {
  const paths: ZodOpenApiPathsObject = {};
  for (const operation of operations) {
    const template = templateOf(operation.path);
    paths[template] = { ...paths[template], [operation.method.toLowerCase()]: operationObject(operation) };
  }
  const document = createDocument(
    {
      openapi: '3.1.0',
      info: {
        title: 'schedule',
        // The API's version is its path prefix; additions keep it.
        version: '1',
        description: DESCRIPTION,
      },
      servers: [{ url: 'http://127.0.0.1:3000', description: 'A local `schedule serve`; use your deployment’s origin.' }],
      tags: Object.entries(TAGS).map(([tag, description]) => ({ name: tag, description })),
      paths: { ...paths, ...META_PATHS, ...OAUTH_PATHS },
      components: componentsOf(operations),
    },
    { override: withoutSafeIntegerBounds },
  );
  const unrouted: Responses = errorResponses(UNROUTED_ERRORS, 'counted');
  const named = withClosedBodies(withOutputNames(document), operations);
  const responses = Object.values(named.paths ?? {}).flatMap((item) =>
    Object.values(item as Record<string, oas31.OperationObject>).map((operation) => operation.responses as Responses),
  );
  const shared = shareRepeatedResponses([...responses, unrouted]);
  return { ...named, components: { ...named.components, responses: shared }, 'x-unrouted-responses': unrouted };
}

/** The document as the server serves it and the repository keeps it: two-space JSON with a final newline. */
export function openApiText(operations: readonly Operation[]): string {
  return `${JSON.stringify(openApiDocument(operations), null, 2)}\n`;
}
