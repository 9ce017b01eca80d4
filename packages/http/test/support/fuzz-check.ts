import type { Store } from '@schedule/core';
import { changedTables, type DatabaseDigest, digestDatabase } from './db-snapshot.js';
import type { FuzzCase } from './fuzz-case.js';
import { exchange, type RawAnswer, type RawResponse } from './raw-http.js';

// The properties every request must keep, whatever it is:
//   no-5xx           the database is healthy, so nothing the client sends is a fault of the server;
//   envelope         the answer is the JSON envelope (docs/api/overview.md "The envelope") with
//                    X-Request-Id equal to its request_id (docs/api/requests.md "Request limits");
//   refusal-unchanged a request that is not a success leaves every table as it was;
//   media-type       a body not labelled JSON is never acted on by a method that reads one (415);
//                    GET and HEAD ignore a body, so they may succeed with one.

export type PropertyName = 'no-5xx' | 'envelope' | 'refusal-unchanged' | 'media-type';

export interface Violation {
  readonly property: PropertyName;
  readonly detail: string;
}

/** What one case answered, and what it broke. */
export interface Verdict {
  readonly answer: RawAnswer;
  /** The error code of an error envelope, if the answer had one. */
  readonly code: string | undefined;
  readonly violations: readonly Violation[];
}

/** The app under test, and the digest of its database after the last case (undefined: not taken yet). */
export interface FuzzTarget {
  baseUrl: string;
  store: Store;
  digest?: DatabaseDigest | undefined;
}

/** Longer than any answer takes in process; a server that has not answered by then never will. */
const ANSWER_TIMEOUT_MS = 3000;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const sameKeys = (value: Record<string, unknown>, keys: readonly string[]) => Object.keys(value).sort().join() === [...keys].sort().join();

/** Why a response is not the envelope, or undefined when it is. */
function envelopeProblem(response: RawResponse, bodiless: boolean): string | undefined {
  const requestId = response.headers.get('x-request-id');
  if (!requestId) return 'no X-Request-Id header';
  // A HEAD answer has no content (RFC 9110 section 9.3.2), so only the header can be checked.
  if (bodiless) return response.body.length === 0 ? undefined : 'a HEAD answer with content';
  if (!/^application\/json\b/.test(response.headers.get('content-type') ?? '')) {
    return `Content-Type ${response.headers.get('content-type')} is not JSON`;
  }
  let body: unknown;
  try {
    body = JSON.parse(response.body.toString('utf8'));
  } catch {
    return `body is not JSON: ${JSON.stringify(response.body.toString('utf8').slice(0, 120))}`;
  }
  if (!isRecord(body)) return 'body is not an object';
  if (sameKeys(body, ['error'])) {
    const { error } = body;
    if (!isRecord(error) || !sameKeys(error, ['code', 'message', 'details', 'request_id']))
      return 'error is not { code, message, details, request_id }';
    if (typeof error.code !== 'string' || typeof error.message !== 'string' || !isRecord(error.details))
      return 'error fields of the wrong type';
    return error.request_id === requestId
      ? undefined
      : `X-Request-Id ${requestId} differs from error.request_id ${String(error.request_id)}`;
  }
  if (sameKeys(body, ['data', 'meta'])) {
    if (!isRecord(body.meta)) return 'meta is not an object';
    return body.meta.request_id === requestId
      ? undefined
      : `X-Request-Id ${requestId} differs from meta.request_id ${String(body.meta.request_id)}`;
  }
  return `body keys ${JSON.stringify(Object.keys(body))} are neither [error] nor [data, meta]`;
}

function errorCode(response: RawResponse | undefined): string | undefined {
  try {
    const code = JSON.parse(response?.body.toString('utf8') ?? '')?.error?.code;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
}

/** Sends one case to the target and checks every property against its answer. */
export async function checkCase(target: FuzzTarget, fuzzCase: FuzzCase): Promise<Verdict> {
  target.digest ??= await digestDatabase(target.store);
  const bodiless = fuzzCase.method === 'HEAD';
  const answer = await exchange(target.baseUrl, fuzzCase.bytes(), { bodiless, timeoutMs: ANSWER_TIMEOUT_MS });
  const violations: Violation[] = [];
  const { response } = answer;

  if (!response) {
    // A reset may have thrown away an answer the server did send (it closed with our bytes unread); a
    // clean close or silence means it chose not to answer a request it could have answered.
    if (answer.ending !== 'reset') {
      const detail = answer.received.length === 0 ? `no answer (${answer.ending})` : `an incomplete answer (${answer.ending})`;
      violations.push({ property: 'envelope', detail: `${detail}: ${JSON.stringify(answer.received.toString('latin1').slice(0, 120))}` });
    }
  } else {
    if (response.status >= 500) violations.push({ property: 'no-5xx', detail: `status ${response.status} ${errorCode(response) ?? ''}` });
    const problem = envelopeProblem(response, bodiless);
    if (problem) violations.push({ property: 'envelope', detail: `status ${response.status}: ${problem}` });
  }

  const success = response !== undefined && response.status >= 200 && response.status < 300;
  if (success && fuzzCase.nonJsonBody && fuzzCase.method !== 'GET' && fuzzCase.method !== 'HEAD') {
    violations.push({ property: 'media-type', detail: `status ${response.status} for a body not labelled JSON` });
  }

  // The app writes nothing after it answers (no dispatch loop runs here), so the digest now is
  // the database this request left, and the "before" of the next case.
  const before = target.digest;
  target.digest = await digestDatabase(target.store);
  if (!success) {
    const changed = changedTables(before, target.digest);
    if (changed.length > 0) {
      violations.push({ property: 'refusal-unchanged', detail: `status ${response?.status ?? 'none'} changed ${changed.join(', ')}` });
    }
  }
  return { answer, code: errorCode(response), violations };
}
