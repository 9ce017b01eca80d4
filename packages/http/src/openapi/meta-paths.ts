import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { errorResponses } from './error-responses.js';
import { successHeaders } from './headers.js';
import { itemMeta } from './operation-path.js';

/** Where the server serves this document. */
export const OPENAPI_PATH = '/v1/openapi.json';

const noToken: never[] = [];

/** What Node's HTTP parser refuses on any path, before the app sees a request (client-error.ts). */
const parserRefusals = errorResponses(['bad_request', 'request_timeout', 'headers_too_large'], 'uncounted');

/**
 * The paths the server answers besides the operations: this document, and
 * the two probes. None needs a token or is rate limited (build-app.ts
 * answers them before admission). `/metrics` (Prometheus text), `/mcp`
 * (JSON-RPC, described by its own tool list) and `/docs` (this document
 * rendered as an HTML page) are not part of this API.
 */
export const META_PATHS: ZodOpenApiPathsObject = {
  [OPENAPI_PATH]: {
    get: {
      operationId: 'get_openapi_document',
      tags: ['Meta'],
      summary: 'This document',
      description:
        'The OpenAPI document of this server, generated from its operations. No token, no rate limit; `HEAD` answers the same headers. Unlike the API, it is not wrapped in the envelope.',
      security: noToken,
      responses: {
        '200': {
          description: 'The OpenAPI 3.1 document.',
          headers: successHeaders({ counting: 'uncounted' }),
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: { openapi: { type: 'string', const: '3.1.0' }, info: { type: 'object' }, paths: { type: 'object' } },
                required: ['openapi', 'info', 'paths'],
              },
            },
          },
        },
        ...parserRefusals,
      },
    },
  },
  '/healthz': {
    get: {
      operationId: 'liveness',
      tags: ['Meta'],
      summary: 'Liveness probe',
      description: 'Answers while the process serves; it asks nothing of the database.',
      security: noToken,
      responses: {
        '200': {
          description: 'The process serves.',
          headers: successHeaders({ counting: 'uncounted' }),
          content: {
            'application/json': { schema: z.strictObject({ data: z.strictObject({ status: z.literal('ok') }), meta: itemMeta }) },
          },
        },
        ...parserRefusals,
      },
    },
  },
  '/readyz': {
    get: {
      operationId: 'readiness',
      tags: ['Meta'],
      summary: 'Readiness probe',
      description: [
        'Whether this process can serve requests that need the database, which must answer within 2 s.',
        '`rate_limits` is `degraded` while the shared rate-limit store (Redis) fails; requests are then counted in',
        'process memory and the probe still answers 200. A 503 carries both checks in `details`.',
      ].join(' '),
      security: noToken,
      responses: {
        '200': {
          description: 'Ready.',
          headers: successHeaders({ counting: 'uncounted' }),
          content: {
            'application/json': {
              schema: z.strictObject({
                data: z.strictObject({ status: z.literal('ready'), database: z.literal('ok'), rate_limits: z.enum(['ok', 'degraded']) }),
                meta: itemMeta,
              }),
            },
          },
        },
        ...parserRefusals,
        ...errorResponses(['database_unavailable'], 'uncounted'),
      },
    },
  },
};
