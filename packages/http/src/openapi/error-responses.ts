import type { ErrorCode } from '@schedule/core';
import type { oas31 } from 'zod-openapi';
import { HTTP_STATUS } from '../status-codes.js';
import { ERROR_MEANINGS } from './error-meanings.js';
import { type Counting, errorHeaders } from './headers.js';

/** The error envelope every refusal shares (errors.md); each answer narrows `code` to its own. */
export const ERROR_SCHEMA: oas31.SchemaObject = {
  type: 'object',
  description: 'A refusal: a stable `code` for programs, a `message` for people, `details` that depend on the code.',
  properties: {
    error: {
      type: 'object',
      properties: {
        code: { type: 'string', description: 'Stable; branch on it.' },
        message: { type: 'string', minLength: 1, description: 'An English sentence for people; its wording may change.' },
        details: { type: 'object', description: 'Always an object, often empty; errors.md says what each code puts in it.' },
        request_id: { type: 'string', format: 'uuid', description: 'Equal to the `X-Request-Id` header.' },
      },
      required: ['code', 'message', 'details', 'request_id'],
      additionalProperties: false,
    },
  },
  required: ['error'],
  additionalProperties: false,
};

// Written out rather than taken from node:http, whose wording changes with
// Node versions (422 was renamed): the document must not.
const REASONS: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  417: 'Expectation Failed',
  422: 'Unprocessable Content',
  428: 'Precondition Required',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

/** The envelope with `code` one of `codes`. */
function envelopeOf(codes: readonly ErrorCode[]): oas31.SchemaObject {
  return {
    allOf: [{ $ref: '#/components/schemas/Error' }],
    properties: { error: { properties: { code: { enum: [...codes] } } } },
  };
}

/**
 * The error answers of a set of codes, one per HTTP status (status-codes.ts
 * decides each code's), each listing what its codes mean.
 */
export function errorResponses(codes: readonly ErrorCode[], counting: Counting): Record<string, oas31.ResponseObject> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(HTTP_STATUS[code], [...(byStatus.get(HTTP_STATUS[code]) ?? []), code]);
  const responses: Record<string, oas31.ResponseObject> = {};
  for (const status of [...byStatus.keys()].sort((a, b) => a - b)) {
    const sameStatus = byStatus.get(status)!;
    const lines = sameStatus.map((code) => `- \`${code}\`: ${ERROR_MEANINGS[code]}`);
    responses[String(status)] = {
      description: [`${REASONS[status] ?? 'Error'}.`, '', ...lines].join('\n'),
      headers: errorHeaders(status, { counting, retryOn409: sameStatus.includes('idempotency_in_progress') }),
      content: { 'application/json': { schema: envelopeOf(sameStatus) } },
    };
  }
  return responses;
}
