import { connect } from 'node:net';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { type Authenticator, createAuthenticator, DEFAULT_LIMITS, ScheduleError } from '@schedule/core';
import { listen, type RunningServer } from '@schedule/http';
import { afterEach, describe, expect, it } from 'vitest';
import { buildServer, guardMessages, mcpHttpHandler } from '../src/index.js';
import { TOKEN } from './support/mcp-workspace.js';
import { openSuite, type Suite } from './support/tool-calls.js';

// Issue 10: /mcp is an HTTP endpoint like /v1 and meets the same bounds:
// every request counted before authentication (token guessing is limited),
// rate-limit headers, a 1 MiB body, JSON only, and a handler that answers
// every failure instead of leaving a rejected promise to end the process.

const FEW_ANONYMOUS = { ...DEFAULT_LIMITS, pat_per_minute: 5, oauth_per_minute: 120, anonymous_per_minute: 3 };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A response's JSON body, as the test reads it. */
const jsonOf = (res: Response): Promise<any> => res.json();

const TOOLS_LIST = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
const callWith = (args: unknown) => ({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'whoami', arguments: args } });

describe('/mcp over HTTP', () => {
  let suite: Suite;
  let server: RunningServer;
  afterEach(async () => {
    await server?.close();
    await suite?.world.close();
  });

  async function start(options: { authenticate?: Authenticator } = {}) {
    suite = await openSuite({ limits: FEW_ANONYMOUS });
    const authenticate = options.authenticate ?? createAuthenticator({ store: suite.world.store, clock: suite.clock });
    server = await listen(mcpHttpHandler({ ...suite.world.deps, authenticate }), { host: '127.0.0.1', port: 0 });
  }

  const post = (body: string | object, headers: Record<string, string> = {}) =>
    fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const asUma = { authorization: `Bearer ${TOKEN.uma}` };

  async function expectEnvelope(res: Response, status: number, code: string) {
    expect({ status: res.status, code: (await jsonOf(res.clone())).error?.code }).toEqual({ status, code });
    const body = await jsonOf(res);
    expect(body.error.request_id).toBe(res.headers.get('x-request-id'));
    expect(res.headers.get('x-request-id')).toMatch(UUID);
    return body.error;
  }

  it('counts requests without a valid token in the anonymous bucket: 401 until the limit, then 429, with headers', async () => {
    await start();
    const answers = [];
    for (const headers of [
      {} as Record<string, string>,
      { authorization: 'Bearer guess-1' },
      { authorization: 'Bearer guess-2' },
      { authorization: 'Bearer guess-3' },
    ]) {
      answers.push(await post(TOOLS_LIST, headers));
    }
    expect(answers.map((r) => r.status)).toEqual([401, 401, 401, 429]);
    expect(answers.map((r) => r.headers.get('x-ratelimit-remaining'))).toEqual(['2', '1', '0', '0']);
    expect(answers.map((r) => r.headers.get('x-ratelimit-limit'))).toEqual(['3', '3', '3', '3']);
    expect(answers[3]!.headers.get('retry-after')).toBe('60');
    expect(await expectEnvelope(answers[3]!, 429, 'rate_limited')).toMatchObject({
      details: { bucket: 'anonymous:127.0.0.1', limit: 3, window_seconds: 60 },
    });
    // The token's own bucket is untouched by the guesses.
    const listed = await post(TOOLS_LIST, asUma);
    expect(listed.status).toBe(200);
    expect(listed.headers.get('x-ratelimit-remaining')).toBe('4');
  });

  it("counts tools/list, tool calls and GET in the token's bucket, each request once", async () => {
    await start();
    const remaining = [];
    remaining.push((await post(TOOLS_LIST, asUma)).headers.get('x-ratelimit-remaining'));
    remaining.push((await post(callWith({}), asUma)).headers.get('x-ratelimit-remaining'));
    const get = await fetch(`${server.url}/mcp`, { headers: asUma });
    expect(get.status).toBe(405);
    remaining.push(get.headers.get('x-ratelimit-remaining'));
    expect(remaining).toEqual(['4', '3', '2']);
  });

  it('arguments that are not an object answer JSON-RPC -32602 naming the problem, not a schema dump', async () => {
    await start();
    for (const [args, what] of [
      ['now', 'a string'],
      [[1, 2], 'an array'],
      [42, 'a number'],
      [null, 'null'],
    ] as const) {
      const res = await post(callWith(args), asUma);
      expect(res.status).toBe(200);
      expect(await jsonOf(res)).toEqual({
        jsonrpc: '2.0',
        id: 7,
        error: { code: -32602, message: `Invalid params: params.arguments must be an object of whoami's arguments, not ${what}.` },
      });
    }
    const noName = await post({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: { arguments: {} } }, asUma);
    expect((await jsonOf(noName)).error).toEqual({
      code: -32602,
      message: 'Invalid params: params.name must be the name of a tool (a string).',
    });
  });

  // Issue 29 item 9: these were JSON-RPC -32603 Internal error, with the SDK's schema dump as the message.
  it.each([
    [
      'a prompt argument that is not text',
      { method: 'prompts/get', params: { name: 'book_meeting', arguments: { attendee_email: 5 } } },
      'params.arguments.attendee_email must be a string, not 5.',
    ],
    ['a cursor that is not text', { method: 'tools/list', params: { cursor: 5 } }, 'params.cursor must be a string, not 5.'],
    ['a resource without its uri', { method: 'resources/read', params: {} }, 'params.uri is required.'],
    ['a tool call without params', { method: 'tools/call' }, 'params is required.'],
  ])('%s answers JSON-RPC -32602 Invalid params naming it', async (_, request, problem) => {
    await start();
    const res = await post({ jsonrpc: '2.0', id: 9, ...request }, asUma);
    expect(await jsonOf(res)).toEqual({ jsonrpc: '2.0', id: 9, error: { code: -32602, message: `Invalid params: ${problem}` } });
  });

  // Issue 29 item 9: a client gone mid-body was reported as an unexpected fault (logged as an error, with its stack).
  it('a client that closes the connection while sending its body is no fault: nothing is logged, the status kept is 499', async () => {
    suite = await openSuite();
    const handler = mcpHttpHandler({
      ...suite.world.deps,
      authenticate: createAuthenticator({ store: suite.world.store, clock: suite.clock }),
    });
    const finished: number[] = [];
    server = await listen(
      (req, res) => {
        void handler(req, res).then(() => finished.push(res.statusCode));
      },
      { host: '127.0.0.1', port: 0 },
    );
    const { hostname, port } = new URL(server.url);
    const socket = connect(Number(port), hostname);
    socket.on('error', () => {});
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST /mcp HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKEN.uma}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"jsonrpc":`,
    );
    socket.destroy();
    await expect.poll(() => finished).toEqual([499]);
    expect(suite.world.errors).toEqual([]);
  });

  it('a body over 1 MiB is 413 payload_too_large; a body that is not JSON is 415 or 400', async () => {
    await start();
    const big = JSON.stringify({ ...callWith({ pad: 'x'.repeat(1024 * 1024) }) });
    await expectEnvelope(await post(big, asUma), 413, 'payload_too_large');
    await expectEnvelope(await post('{"jsonrpc":', asUma), 400, 'validation_error');
    await expectEnvelope(
      await post('x=1', { ...asUma, 'content-type': 'application/x-www-form-urlencoded' }),
      415,
      'unsupported_media_type',
    );
  });

  it('a database that fails under authentication answers 503 (or 500 for an unknown fault) and the handler never rejects', async () => {
    let failure: Error = new ScheduleError('database_unavailable', 'The database is unavailable.', {}, 2);
    await start({
      authenticate: async () => {
        throw failure;
      },
    });
    const down = await post(TOOLS_LIST, asUma);
    expect(down.headers.get('retry-after')).toBe('2');
    await expectEnvelope(down, 503, 'database_unavailable');
    failure = new Error('connection reset by a bug');
    await expectEnvelope(await post(TOOLS_LIST, asUma), 500, 'internal_error');
    expect(suite.world.errors).toHaveLength(1);
  });
});

describe('the message guard on any transport (stdio alike)', () => {
  it('answers malformed tools/call params itself and passes everything else to the server', async () => {
    const suite = await openSuite();
    try {
      const server = buildServer(suite.world.deps, { principal: async () => suite.principal(TOKEN.uma), address: 'test' });
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      const received: JSONRPCMessage[] = [];
      clientSide.onmessage = (message) => received.push(message);
      await server.connect(serverSide);
      guardMessages(serverSide);
      await clientSide.start();
      await clientSide.send(callWith('now') as JSONRPCMessage);
      await clientSide.send(callWith({}) as JSONRPCMessage);
      await expect.poll(() => received.length).toBe(2);
      expect(received[0]).toEqual({
        jsonrpc: '2.0',
        id: 7,
        error: { code: -32602, message: "Invalid params: params.arguments must be an object of whoami's arguments, not a string." },
      });
      expect(received[1]).toMatchObject({ jsonrpc: '2.0', id: 7, result: { structuredContent: { username: 'uma' } } });
    } finally {
      await suite.world.close();
    }
  });
});
