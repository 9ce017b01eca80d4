import fc from 'fast-check';
import { oneLine } from './fuzz-case.js';
import { fuzzString, mostly } from './fuzz-values.js';
import { TOKEN } from './fuzz-workspace.js';

// The header values of an API-shaped case: the token, the content type and the
// two headers the spec gives meaning to, Idempotency-Key and If-Match. Each is
// mostly valid and otherwise empty, long, repeated, or near a valid value.
// Values never hold CR or LF here: breaking the header block is the raw cases' job.

export const tokenHeader: fc.Arbitrary<readonly string[]> = fc.oneof(
  { weight: 24, arbitrary: fc.constant([`Bearer ${TOKEN.owner}`]) },
  { weight: 2, arbitrary: fc.constant([`Bearer ${TOKEN.uma}`]) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(TOKEN.manager, TOKEN.oauth, TOKEN.readOnly, TOKEN.expired, TOKEN.revoked).map((t) => [`Bearer ${t}`]),
  },
  { weight: 1, arbitrary: fc.constant([]) },
  { weight: 1, arbitrary: fuzzString.map((s) => [`Bearer ${oneLine(s.slice(0, 2000))}`]) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(
        'Basic dXNlcjpwYXNz',
        'Bearer',
        'Bearer ',
        `bearer ${TOKEN.owner}`,
        `Bearer   ${TOKEN.owner}   `,
        `Bearer ${TOKEN.owner} extra`,
        `Bearer\t${TOKEN.owner}`,
        `Token ${TOKEN.owner}`,
        TOKEN.owner,
      )
      .map((v) => [v]),
  },
  { weight: 1, arbitrary: fc.constant([`Bearer ${TOKEN.owner}`, 'Bearer garbage']) },
  { weight: 1, arbitrary: fc.constant(['Bearer garbage', `Bearer ${TOKEN.owner}`]) },
);

export const contentType: fc.Arbitrary<string | null> = mostly(
  fc.constant('application/json'),
  12,
  fc.constant(null),
  fc.constantFrom(
    'application/json; charset=utf-8',
    'application/merge-patch+json',
    'APPLICATION/JSON',
    'application/json;charset=UTF-16',
    'text/plain',
    'text/plain; charset=utf-8',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/xml',
    '',
    '*/*',
    'application/jsonp',
    'application/json, text/plain',
  ),
  fuzzString.map((s) => oneLine(s.slice(0, 200))),
);

export const idempotencyKey: fc.Arbitrary<readonly string[]> = fc.oneof(
  { weight: 8, arbitrary: fc.uuid().map((u) => [`fz-${u}`]) },
  { weight: 3, arbitrary: fc.constant([]) },
  { weight: 1, arbitrary: fc.constantFrom('k1', 'k2').map((k) => [k]) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom('', ' ', 'a'.repeat(255), 'a'.repeat(256), 'x'.repeat(5000), 'ключ', 'é\u00ff', 'a\tb', '"quoted"', 'k, k')
      .map((k) => [k]),
  },
  { weight: 1, arbitrary: fuzzString.map((s) => [oneLine(s.slice(0, 600))]) },
  { weight: 1, arbitrary: fc.constant(['dup-1', 'dup-2']) },
);

export const ifMatch: fc.Arbitrary<readonly string[]> = fc.oneof(
  { weight: 4, arbitrary: fc.constant([]) },
  { weight: 3, arbitrary: fc.constant(['*']) },
  { weight: 2, arbitrary: fc.constantFrom('"1"', '"2"', '1').map((v) => [v]) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(
        'W/"1"',
        '"abc"',
        '',
        ' ',
        '"1", "2"',
        '*, "1"',
        '99999999999999999999',
        '"-1"',
        '"0"',
        '"1',
        '1.0',
        '"9007199254740993"',
      )
      .map((v) => [v]),
  },
  { weight: 1, arbitrary: fuzzString.map((s) => [oneLine(s.slice(0, 300))]) },
);

export const extraHeaders: fc.Arbitrary<readonly (readonly [string, string])[]> = mostly(
  fc.constant([]),
  12,
  fc.constantFrom<readonly (readonly [string, string])[]>(
    [['Expect', '100-continue']],
    [['Expect', 'foo']],
    [['Connection', 'close']],
    [
      ['Connection', 'Upgrade'],
      ['Upgrade', 'websocket'],
    ],
    [['X-Request-Id', 'chosen-by-the-client']],
    [['Accept', 'text/html']],
    [['Content-Encoding', 'gzip']],
    [['X-Forwarded-For', '203.0.113.9']],
    [['Transfer-Encoding', 'chunked']],
  ),
);
