import fc from 'fast-check';
import type { FuzzContext } from './fuzz-api-cases.js';
import { assembleCase, type FuzzCase } from './fuzz-case.js';
import { TOKEN } from './fuzz-workspace.js';

// Requests that are wrong as HTTP before they are wrong as API calls: request
// lines no client library would send, methods Node's parser does not know,
// headers past its 16 KiB limit or of broken syntax, contradictory framing,
// and the headers Node answers by itself (Expect, Upgrade, a missing Host).
// Each is aimed at a real route with a valid token, so that only the oddity
// stands between it and the API.

/** An oddity: how it changes the request line, the headers and the body of an otherwise valid call. */
interface Oddity {
  readonly kind: string;
  readonly method?: string;
  /** Replaces the request line; `PATH` stands for the route's path. */
  readonly requestLine?: string;
  readonly headers?: readonly (readonly [string, string])[];
  readonly omitHost?: boolean;
  readonly body?: string;
}

const REQUEST_LINES = [
  'GET http://[::1 HTTP/1.1',
  'GET http://[::1]PATH HTTP/1.1',
  'GET http://localhostPATH HTTP/1.1',
  'GET http:// HTTP/1.1',
  'GET http://%zzPATH HTTP/1.1',
  'GET https://x:99999PATH HTTP/1.1',
  'GET http://user:pass@localhostPATH HTTP/1.1',
  'GET //PATH HTTP/1.1',
  'GET * HTTP/1.1',
  'OPTIONS * HTTP/1.1',
  'GET v1/me HTTP/1.1',
  'GET ?limit=1 HTTP/1.1',
  'GET PATH?%zz=%zz HTTP/1.1',
  'GET PATH?a=%E0%A4%A HTTP/1.1',
  'GET /v1/bookings/%E0%A4%A HTTP/1.1',
  'GET /v1/bookings/%00 HTTP/1.1',
  'GET /v1/series/%FF%FE HTTP/1.1',
  'GET PATH HTTP/1.1 extra',
  'GET  PATH HTTP/1.1',
  'GET PATH  HTTP/1.1',
  'GET PATH',
  'GET PATH HTTP/1.0',
  'GET PATH HTTP/2.0',
  'GET PATH HTTP/1.2',
  'GET PATH HTTP/0.9',
  'GET PATH HTTP/10.1',
  'GET PATH http/1.1',
  'GET /v1/m e HTTP/1.1',
  'GET /v1/\u00e9 HTTP/1.1',
  'GET PATH\u0000 HTTP/1.1',
  'GET PATH\t HTTP/1.1',
  ' GET PATH HTTP/1.1',
  `GET /${'a'.repeat(17_000)} HTTP/1.1`,
  `GET PATH?q=${'a'.repeat(17_000)} HTTP/1.1`,
] as const;

const METHODS = [
  'FOO',
  'get',
  'Get',
  'BREW',
  'G ET',
  'CONNECT',
  'TRACE',
  'PRI',
  'M-SEARCH',
  'SEARCH',
  'MKCOL',
  'SOURCE',
  'G\u00c9T',
  'GET\u0000',
];

const oddity: fc.Arbitrary<Oddity> = fc.oneof(
  fc.constantFrom(...REQUEST_LINES).map((requestLine) => ({ kind: 'request-line', requestLine })),
  fc.constantFrom(...METHODS).map((method) => ({ kind: 'method', method, requestLine: `${method} PATH HTTP/1.1` })),
  fc.oneof(
    fc.integer({ min: 15_000, max: 40_000 }).map((n) => ({ kind: 'headers-large', headers: [['X-Big', 'a'.repeat(n)] as const] })),
    fc
      .integer({ min: 200, max: 2500 })
      .map((n) => ({ kind: 'headers-many', headers: Array.from({ length: n }, (_, i) => [`X-H${i}`, 'v'.repeat(10)] as const) })),
    fc.integer({ min: 17_000, max: 30_000 }).map((n) => ({ kind: 'headers-large', headers: [['Cookie', `a=${'b'.repeat(n)}`] as const] })),
  ),
  fc
    .constantFrom<readonly (readonly [string, string])[]>(
      [['X-No-Colon\r\nX-After', '1']],
      [[' X-Leading-Space', '1']],
      [['X-Folded', '1\r\n  continued']],
      [['X Bad', '1']],
      [['X-Nul', 'a\u0000b']],
      [['X-Cr', 'a\rb']],
      [['', 'empty-name']],
      [['X-\u00e9', '1']],
      [['X-Latin1', '\u00ff\u00e9']],
      [['Content-Type ', 'application/json']],
      [['Authorization', `Bearer ${TOKEN.owner}\u0000`]],
    )
    .map((headers) => ({ kind: 'header-syntax', headers })),
  fc.constantFrom<Oddity>(
    { kind: 'host', omitHost: true },
    { kind: 'host', omitHost: true, requestLine: 'GET PATH HTTP/1.0' },
    {
      kind: 'host',
      omitHost: true,
      headers: [
        ['Host', 'a'],
        ['Host', 'b'],
      ],
    },
    { kind: 'host', omitHost: true, headers: [['Host', '[::1']] },
    { kind: 'host', omitHost: true, headers: [['Host', '']] },
  ),
  fc.constantFrom<Oddity>(
    {
      kind: 'framing',
      method: 'POST',
      headers: [
        ['Content-Length', '2'],
        ['Transfer-Encoding', 'chunked'],
      ],
      body: '2\r\n{}\r\n0\r\n\r\n',
    },
    { kind: 'framing', method: 'POST', headers: [['Content-Length', '-1']], body: '{}' },
    { kind: 'framing', method: 'POST', headers: [['Content-Length', '2, 2']], body: '{}' },
    {
      kind: 'framing',
      method: 'POST',
      headers: [
        ['Content-Length', '2'],
        ['Content-Length', '3'],
      ],
      body: '{} ',
    },
    { kind: 'framing', method: 'POST', headers: [['Content-Length', '+2']], body: '{}' },
    { kind: 'framing', method: 'POST', headers: [['Content-Length', '0x2']], body: '{}' },
    { kind: 'framing', method: 'POST', headers: [['Transfer-Encoding', 'chunked']], body: 'zz\r\n{}\r\n0\r\n\r\n' },
    { kind: 'framing', method: 'POST', headers: [['Transfer-Encoding', 'chunked, gzip']], body: '2\r\n{}\r\n0\r\n\r\n' },
    { kind: 'framing', method: 'POST', headers: [['Transfer-Encoding', 'gzip, chunked']], body: '2\r\n{}\r\n0\r\n\r\n' },
    { kind: 'framing', method: 'POST', headers: [['Transfer-Encoding', 'chunked']], body: `2;${'x'.repeat(20_000)}\r\n{}\r\n0\r\n\r\n` },
    { kind: 'framing', method: 'POST', headers: [['Transfer-Encoding', 'chunked']], body: '2\r\n{}\r\n0\r\nX-Trailer: 1\r\n\r\n' },
  ),
  fc
    .constantFrom('foo', '100-continue', '100-Continue', '', '100-continue, foo')
    .map((value) => ({ kind: 'expect', method: 'POST', headers: [['Expect', value] as const], body: '{}' })),
  fc.constantFrom<Oddity>(
    {
      kind: 'upgrade',
      headers: [
        ['Connection', 'Upgrade'],
        ['Upgrade', 'websocket'],
      ],
    },
    {
      kind: 'upgrade',
      headers: [
        ['Connection', 'Upgrade, HTTP2-Settings'],
        ['Upgrade', 'h2c'],
        ['HTTP2-Settings', 'AAMAAABkAARAAAAAAAIAAAAA'],
      ],
    },
    { kind: 'upgrade', requestLine: 'PRI * HTTP/2.0', omitHost: true, body: 'SM\r\n\r\n' },
  ),
);

/** Oddities of HTTP itself, each on a route of `context.operations` that a valid call would reach. */
export function rawCases(context: FuzzContext): fc.Arbitrary<FuzzCase> {
  return fc.record({ oddity, operation: fc.nat(context.operations.length - 1) }).map(({ oddity, operation }) => {
    const route = context.operations[operation]!;
    const path = route.path.replace(/:[a-z_]+/g, () => context.bookings[0] ?? 'x');
    const method = oddity.method ?? route.method;
    const requestLine = (oddity.requestLine ?? `${method} PATH HTTP/1.1`).replace('PATH', path);
    const headers: (readonly [string, string])[] = oddity.omitHost ? [] : [['Host', 'localhost']];
    headers.push(['Authorization', `Bearer ${TOKEN.owner}`], ['Content-Type', 'application/json'], ['Idempotency-Key', `raw-${operation}`]);
    headers.push(...(oddity.headers ?? []));
    return assembleCase({
      label: `raw ${oddity.kind}`,
      method: requestLine.split(' ')[0] ?? '',
      requestLine,
      headers,
      body: oddity.body === undefined ? undefined : Buffer.from(oddity.body),
    });
  });
}
