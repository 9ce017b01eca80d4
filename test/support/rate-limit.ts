import { expect } from 'vitest';
import { type ApiResponse, expectCommonHeaders, expectError } from './http.js';

/**
 * Sends requests (request `i` from `send(i)`) until one is refused with 429,
 * then checks the whole run against a fixed 60-second window of `limit`:
 * responses are grouped by `X-RateLimit-Reset`, and in each window the
 * bucket (fresh at the start of the run) answers `limit` requests with
 * `X-RateLimit-Remaining` counting down limit-1 .. 0, then refuses. A run
 * that straddles a minute boundary is checked window by window, so a
 * boundary never fails it. Returns the 429 response.
 */
export async function exhaustBucket(
  limit: number,
  send: (i: number) => Promise<ApiResponse>,
  bucket: string | RegExp,
): Promise<{ refused: ApiResponse; responses: ApiResponse[] }> {
  const responses: ApiResponse[] = [];
  for (let i = 0; i < 3 * (limit + 1); i++) {
    const res = await send(i);
    responses.push(res);
    if (res.status === 429) break;
  }
  const refused = responses.at(-1)!;
  expect(refused.status).toBe(429);

  const windows = new Map<string, ApiResponse[]>();
  for (const res of responses) {
    const reset = res.headers.get('x-ratelimit-reset')!;
    windows.set(reset, [...(windows.get(reset) ?? []), res]);
  }
  expect(windows.size).toBeLessThanOrEqual(2);
  for (const group of windows.values()) {
    group.forEach((res, j) => {
      const { remaining } = expectCommonHeaders(res, limit);
      if (j < limit) {
        expect(res.status).not.toBe(429);
        expect(remaining).toBe(limit - 1 - j);
      } else {
        expect(res.status).toBe(429);
        expect(remaining).toBe(0);
      }
    });
  }
  // The refusing window holds exactly `limit` answered requests before the 429.
  expect([...windows.values()].at(-1)).toHaveLength(limit + 1);
  expectRateLimited(refused, limit, bucket);
  return { refused, responses };
}

/** The exact 429 of docs/api/requests.md "Rate limits" item 5. */
export function expectRateLimited(res: ApiResponse, limit: number, bucket: string | RegExp): void {
  const retryAfter = res.headers.get('retry-after');
  expect(retryAfter).toMatch(/^\d+$/);
  const seconds = Number(retryAfter);
  expect(seconds).toBeGreaterThanOrEqual(1);
  expect(seconds).toBeLessThanOrEqual(60);
  const error = expectError(
    res,
    429,
    'rate_limited',
    undefined,
    `Rate limit of ${limit} requests per 60 seconds exceeded; retry in ${seconds} seconds.`,
  );
  expect(error.details).toEqual({
    bucket: typeof bucket === 'string' ? bucket : expect.stringMatching(bucket),
    limit,
    window_seconds: 60,
  });
  expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
  expect(res.headers.get('x-ratelimit-limit')).toBe(String(limit));
  // Retry-After counts the seconds to the reset the headers announce.
  const reset = Number(res.headers.get('x-ratelimit-reset'));
  expect(Math.abs(reset - (Date.now() / 1000 + seconds))).toBeLessThanOrEqual(2);
}
