import type { oas31 } from 'zod-openapi';

// The response headers of the API (overview.md "Headers that come with
// answers"), declared once as components and referred to from each answer
// that carries them. A header's `required` belongs to its declaration, so a
// header that an answer only sometimes carries is declared a second time,
// inline, as not required.

type Header = oas31.HeaderObject;
type Headers = Record<string, Header | oas31.ReferenceObject>;

const requestId: Header = {
  description: 'The id of the request, equal to `meta.request_id` or `error.request_id`; on a replay, the first request’s.',
  required: true,
  schema: { type: 'string', format: 'uuid' },
};

const rateLimit = {
  'X-RateLimit-Limit': {
    description: 'Requests the caller’s bucket allows per 60-second window.',
    schema: { type: 'integer', minimum: 1 },
  },
  'X-RateLimit-Remaining': { description: 'Requests left in this window after this one.', schema: { type: 'integer', minimum: 0 } },
  'X-RateLimit-Reset': { description: 'When the window ends, in Unix seconds.', schema: { type: 'integer', minimum: 0 } },
} satisfies Record<string, Header>;

const retryAfter: Header = {
  description: 'Seconds to wait before sending the same request again.',
  required: true,
  schema: { type: 'integer', minimum: 1 },
};

/** The header components, by the name answers refer to them with. */
export const HEADER_COMPONENTS: Record<string, Header> = {
  RequestId: requestId,
  RateLimitLimit: { ...rateLimit['X-RateLimit-Limit'], required: true },
  RateLimitRemaining: { ...rateLimit['X-RateLimit-Remaining'], required: true },
  RateLimitReset: { ...rateLimit['X-RateLimit-Reset'], required: true },
  ETag: {
    description: 'The resource’s `version` as an entity tag; send it back in If-Match.',
    required: true,
    // Working hours never written are at version 0 (docs/api/availability.md).
    schema: { type: 'string', pattern: '^"(0|[1-9][0-9]*)"$' },
    example: '"1"',
  },
  Location: { description: 'The path of the new resource.', required: true, schema: { type: 'string' } },
  IdempotentReplayed: {
    description: 'Present on the stored answer of an earlier request with the same Idempotency-Key; nothing ran again.',
    schema: { type: 'string', enum: ['true'] },
  },
  RetryAfter: retryAfter,
  WWWAuthenticate: {
    description:
      'The bearer challenge (RFC 6750): `resource_metadata` names where this resource is described (RFC 9728), so a client can find the authorization server; `error` is `invalid_token` when a token was sent, `insufficient_scope` with `scope` on a 403.',
    required: true,
    schema: { type: 'string', pattern: '^Bearer realm="schedule"' },
  },
};

const ref = (name: keyof typeof HEADER_COMPONENTS): oas31.ReferenceObject => ({ $ref: `#/components/headers/${name}` });

/** Whether an answer went through admission, which counts it and sets the `X-RateLimit-*` headers. */
export type Counting = 'counted' | 'sometimes' | 'uncounted';

function rateLimitHeaders(counting: Counting): Headers {
  if (counting === 'uncounted') return {};
  if (counting === 'counted') {
    return {
      'X-RateLimit-Limit': ref('RateLimitLimit'),
      'X-RateLimit-Remaining': ref('RateLimitRemaining'),
      'X-RateLimit-Reset': ref('RateLimitReset'),
    };
  }
  return Object.fromEntries(
    Object.entries(rateLimit).map(([name, header]) => [
      name,
      { ...header, description: `${header.description} Absent when Node’s HTTP parser refused the request.` },
    ]),
  );
}

/** The headers of a success: the request id, the rate limit, and what the operation's answer carries. */
export function successHeaders(options: { counting: Counting; etag?: boolean; location?: boolean; replayable?: boolean }): Headers {
  return {
    'X-Request-Id': ref('RequestId'),
    ...rateLimitHeaders(options.counting),
    ...(options.etag ? { ETag: ref('ETag') } : {}),
    ...(options.location ? { Location: ref('Location') } : {}),
    ...(options.replayable ? { 'Idempotent-Replayed': ref('IdempotentReplayed') } : {}),
  };
}

/**
 * The headers of an error answer of one status. Node's parser answers
 * `400 bad_request`, `408` and `431` before admission, so those carry no
 * rate-limit headers; of the 409s, only `idempotency_in_progress` says when
 * to retry.
 */
export function errorHeaders(status: number, options: { counting: Counting; retryOn409: boolean }): Headers {
  const counting =
    options.counting === 'uncounted' || status === 408 || status === 431 ? 'uncounted' : status === 400 ? 'sometimes' : options.counting;
  const headers: Headers = { 'X-Request-Id': ref('RequestId'), ...rateLimitHeaders(counting) };
  if (status === 401) headers['WWW-Authenticate'] = ref('WWWAuthenticate');
  if (status === 403)
    headers['WWW-Authenticate'] = {
      description:
        'Sent with `insufficient_scope`: `Bearer realm="schedule", resource_metadata="…", error="insufficient_scope", scope="…"`.',
      required: false,
      schema: { type: 'string', pattern: '^Bearer realm="schedule"' },
    };
  if (status === 405)
    headers.Allow = { description: 'The methods this path takes.', required: true, schema: { type: 'string' }, example: 'GET, POST' };
  if (status === 429 || status === 503) headers['Retry-After'] = ref('RetryAfter');
  if (status === 409 && options.retryOn409)
    headers['Retry-After'] = {
      ...retryAfter,
      required: false,
      description: `${retryAfter.description} Sent with \`idempotency_in_progress\`.`,
    };
  return headers;
}
