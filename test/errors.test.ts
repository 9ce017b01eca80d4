import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiRequest, type ApiResponse, api, bearerChallenge, expectCommonHeaders, expectData, expectError } from './support/http.js';
import { startInProcess } from './support/in-process.js';
import { exhaustBucket } from './support/rate-limit.js';
import { openSocket, parseResponse, readUntil, requestHead } from './support/raw-http.js';
import { type TestServer, writeWorkspace } from './support/serve.js';
import { buildWorkspace, OAUTH_CLIENT_ID, SECRETS, USER_IDS } from './support/workspace.js';

// Every error the bookings endpoints, auth, routing, idempotency and rate
// limits can produce, with exact status, code, details and headers.

const fx = buildWorkspace();
const b = fx.bookings;
const TIGHT = { pat_per_minute: 3, oauth_per_minute: 2, anonymous_per_minute: 4 };
const tightFx = buildWorkspace({ limits: TIGHT });

let server: TestServer;
let tight: TestServer;

beforeAll(async () => {
  [server, tight] = await Promise.all([
    startInProcess({ workspace: writeWorkspace(fx.workspace), db: ':memory:' }),
    startInProcess({ workspace: writeWorkspace(tightFx.workspace), db: ':memory:' }),
  ]);
});

afterAll(async () => {
  await Promise.all([server?.stop(), tight?.stop()]);
});

const call = (path: string, request: ApiRequest = {}) => api(server.url, path, request);
const get = (path: string, token: string = SECRETS.owner) => call(path, { token });

/** A PATCH with every header it needs, unless a test overrides or drops one (value undefined). */
const patch = (uid: string, body: unknown, headers: Record<string, string | undefined> = {}, token: string = SECRETS.owner) => {
  const merged: Record<string, string | undefined> = { 'idempotency-key': randomUUID(), 'if-match': '*', ...headers };
  const sent = Object.fromEntries(Object.entries(merged).filter((e): e is [string, string] => e[1] !== undefined));
  return call(`/v1/bookings/${uid}`, {
    method: 'PATCH',
    token,
    headers: sent,
    ...(typeof body === 'string' ? { raw: body } : { json: body }),
  });
};

const versionOf = async (uid: string) => expectData(await get(`/v1/bookings/${uid}`)).version as number;

/** Two error bodies that must not differ except in their request ids. */
const withoutRequestId = (res: ApiResponse) => ({ ...res.body.error, request_id: undefined });

describe('401 unauthorized', () => {
  const expect401 = (res: ApiResponse, message: string) => {
    expectError(res, 401, 'unauthorized', {}, message);
    // The challenge names where a client finds out how to get a token (RFC 9728).
    expect(res.headers.get('www-authenticate')).toBe(bearerChallenge({ origin: server.url, sentToken: message === INVALID }));
    // Counted in the anonymous bucket (default 30 per minute).
    expect(res.headers.get('x-ratelimit-limit')).toBe('30');
  };
  const INVALID = 'The bearer token is not valid.';

  it('no Authorization header', async () => {
    expect401(await call('/v1/bookings'), 'Authentication required: send Authorization: Bearer <token>.');
    expect401(await call(`/v1/bookings/${b.ownerSoon.uid}`), 'Authentication required: send Authorization: Bearer <token>.');
  });

  it('an unknown, a revoked and an expired token answer identically', async () => {
    const garbage = await get('/v1/bookings', 'no-such-token-0000000000');
    const revoked = await get('/v1/bookings', SECRETS.revoked);
    const expired = await get('/v1/bookings', SECRETS.expired);
    for (const res of [garbage, revoked, expired]) expect401(res, INVALID);
    expect(withoutRequestId(revoked)).toEqual(withoutRequestId(garbage));
    expect(withoutRequestId(expired)).toEqual(withoutRequestId(garbage));
  });

  it('a header that is not a bearer credential', async () => {
    expect401(await call('/v1/bookings', { headers: { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` } }), INVALID);
    expect401(await call('/v1/bookings', { headers: { authorization: 'Bearer' } }), INVALID);
  });

  it('on PATCH too, and the booking is untouched', async () => {
    const res = await call(`/v1/bookings/${b.scratch1.uid}`, {
      method: 'PATCH',
      token: SECRETS.revoked,
      json: { metadata: { no: true } },
      headers: { 'idempotency-key': randomUUID(), 'if-match': '*' },
    });
    expect401(res, INVALID);
    expect(await versionOf(b.scratch1.uid)).toBe(1);
  });

  it('the auth scheme is case-insensitive (RFC 7235)', async () => {
    const res = await call('/v1/bookings?limit=1', { headers: { authorization: `bearer ${SECRETS.owner}` } });
    expect(expectData(res)).toHaveLength(1);
  });
});

describe('403 insufficient_scope', () => {
  it('names the required scope, counts in the token bucket, and changes nothing', async () => {
    const res = await patch(b.scratch1.uid, { metadata: { no: true } }, {}, SECRETS.noUpdate);
    expectError(res, 403, 'insufficient_scope', { required_scope: 'bookings:update' }, 'This token lacks the scope bookings:update.');
    expect(res.headers.get('x-ratelimit-limit')).toBe('120');
    expect(res.headers.get('www-authenticate')).toBe(bearerChallenge({ origin: server.url, scope: 'bookings:update' }));
    expect(await versionOf(b.scratch1.uid)).toBe(1);
  });

  it('scope is checked before the Idempotency-Key and If-Match headers', async () => {
    const res = await patch(b.scratch1.uid, { metadata: {} }, { 'idempotency-key': undefined, 'if-match': undefined }, SECRETS.noUpdate);
    expectError(res, 403, 'insufficient_scope', { required_scope: 'bookings:update' });
  });

  it('the same token still reads', async () => {
    expect(expectData(await get(`/v1/bookings/${b.scratch1.uid}`, SECRETS.noUpdate)).uid).toBe(b.scratch1.uid);
  });
});

describe('404 booking_not_found', () => {
  it('a non-UUID, an unknown and an invisible uid answer alike', async () => {
    const cases = ['not-a-uuid', randomUUID(), b.ownerSoon.uid];
    const responses = await Promise.all(cases.map((uid) => get(`/v1/bookings/${uid}`, SECRETS.member)));
    responses.forEach((res, i) => {
      expectError(res, 404, 'booking_not_found', { uid: cases[i] }, 'No booking with this uid.');
      expect(res.headers.get('etag')).toBeNull();
    });
    // Bodies differ only in the request id and the echoed uid.
    const normalized = responses.map((res) => ({ ...withoutRequestId(res), details: undefined }));
    expect(normalized[1]).toEqual(normalized[0]);
    expect(normalized[2]).toEqual(normalized[0]);
  });

  it('a manager cannot see the owner’s or an unrelated user’s bookings', async () => {
    for (const uid of [b.ownerSoon.uid, b.otherSoon.uid]) {
      expectError(await get(`/v1/bookings/${uid}`, SECRETS.manager), 404, 'booking_not_found', { uid });
    }
  });

  it('PATCH of an invisible, unknown or malformed uid is 404 and changes nothing', async () => {
    for (const uid of [b.ownerLater.uid, randomUUID(), 'zzz']) {
      expectError(await patch(uid, { metadata: { x: 1 } }, {}, SECRETS.member), 404, 'booking_not_found', { uid });
    }
    expect(await versionOf(b.ownerLater.uid)).toBe(1);
  });
});

describe('routing', () => {
  it('404 not_found for an unknown path', async () => {
    for (const path of ['/v1/nope', '/v2/bookings', '/']) {
      const res = await get(path);
      expectError(res, 404, 'not_found', {});
      expect(res.body.error.message).toBe(`No route ${path}.`);
    }
  });

  it('405 method_not_allowed with an Allow header', async () => {
    const list = await call('/v1/bookings', { method: 'DELETE', token: SECRETS.owner });
    expectError(list, 405, 'method_not_allowed', { allow: ['GET', 'POST'] }, 'DELETE is not allowed here; use GET or POST.');
    expect(list.headers.get('allow')).toBe('GET, POST');

    const one = await call(`/v1/bookings/${b.ownerSoon.uid}`, { method: 'PUT', token: SECRETS.owner, json: {} });
    expectError(one, 405, 'method_not_allowed', { allow: ['GET', 'PATCH'] }, 'PUT is not allowed here; use GET or PATCH.');
    expect(one.headers.get('allow')).toBe('GET, PATCH');

    const patchList = await call('/v1/bookings', { method: 'PATCH', token: SECRETS.owner, json: {} });
    expectError(patchList, 405, 'method_not_allowed', { allow: ['GET', 'POST'] });
    expect(patchList.headers.get('allow')).toBe('GET, POST');

    const cancel = await call(`/v1/bookings/${b.ownerSoon.uid}/cancel`, { method: 'GET', token: SECRETS.owner });
    expectError(cancel, 405, 'method_not_allowed', { allow: ['POST'] }, 'GET is not allowed here; use POST.');
  });
});

describe('request bodies', () => {
  const MIB = 1024 * 1024;
  /** `{"metadata":{"pad":"xxx…"}}` of exactly `size` bytes. */
  const bodyOfSize = (size: number) => {
    const shell = JSON.stringify({ metadata: { pad: '' } });
    return JSON.stringify({ metadata: { pad: 'x'.repeat(size - shell.length) } });
  };

  // Sent over a plain socket, so that the client never writes more after the
  // server has answered and closed (which would make the answer a race to read).
  const patchHead = (extra: Record<string, string>) =>
    requestHead('PATCH', `/v1/bookings/${b.scratch2.uid}`, {
      Host: new URL(server.url).host,
      Authorization: `Bearer ${SECRETS.owner}`,
      'Content-Type': 'application/json',
      'Idempotency-Key': randomUUID(),
      'If-Match': '*',
      ...extra,
    });

  it('413 payload_too_large for a declared Content-Length over 1 MiB, and nothing changes', async () => {
    const socket = await openSocket(server.url);
    // `Expect: 100-continue`: the body is only sent if the server asks for it; it refuses first.
    socket.write(patchHead({ 'Content-Length': String(MIB + 1), Expect: '100-continue' }));
    const res = parseResponse(await readUntil(socket, () => false));
    expectError(res, 413, 'payload_too_large', { max_bytes: MIB }, 'The request body exceeds 1048576 bytes.');
    expect(res.headers.get('connection')).toBe('close');
    expect(await versionOf(b.scratch2.uid)).toBe(1);
  });

  it('413 payload_too_large once a chunked body passes 1 MiB, and nothing changes', async () => {
    const socket = await openSocket(server.url);
    socket.write(patchHead({ 'Transfer-Encoding': 'chunked' }));
    const prefix = '{"metadata":{"pad":"';
    const content = Buffer.from(prefix + 'x'.repeat(MIB + 1 - prefix.length));
    // One byte over the limit, and no final chunk: the server must refuse without the rest.
    for (let offset = 0; offset < content.length; offset += 64 * 1024) {
      const piece = content.subarray(offset, offset + 64 * 1024);
      socket.write(`${piece.length.toString(16)}\r\n`);
      socket.write(piece);
      socket.write('\r\n');
    }
    const res = parseResponse(await readUntil(socket, () => false));
    expectError(res, 413, 'payload_too_large', { max_bytes: MIB }, 'The request body exceeds 1048576 bytes.');
    expect(await versionOf(b.scratch2.uid)).toBe(1);
  });

  // Regression: the 413 used to close the connection while the client was
  // still uploading, which a client could see as EPIPE instead of the answer.
  it('413 payload_too_large reaches a client that sends its whole oversized body, every time', async () => {
    const body = bodyOfSize(2 * MIB);
    for (let i = 0; i < 10; i++) {
      const res = await patch(b.scratch2.uid, body);
      expectError(res, 413, 'payload_too_large', { max_bytes: MIB }, 'The request body exceeds 1048576 bytes.');
    }
    expect(await versionOf(b.scratch2.uid)).toBe(1);
  });

  it('a body of exactly 1 MiB is accepted', async () => {
    const body = bodyOfSize(MIB);
    expect(Buffer.byteLength(body)).toBe(MIB);
    const data = expectData(await patch(b.scratch2.uid, body, { 'if-match': '"1"' }));
    expect(data.version).toBe(2);
    expect((data.metadata.pad as string).length).toBe(MIB - JSON.stringify({ metadata: { pad: '' } }).length);
  });

  it('400 validation_error for a body that is not JSON', async () => {
    for (const raw of ['{"metadata": ', 'metadata=1']) {
      const res = await patch(b.scratch3.uid, raw);
      expectError(res, 400, 'validation_error', { fields: [] }, 'The request body is not valid JSON.');
    }
    expect(await versionOf(b.scratch3.uid)).toBe(1);
  });

  it('400 validation_error for a patchable field of the wrong shape', async () => {
    const cases: [unknown, string[]][] = [
      [{ metadata: [] }, ['metadata']],
      [{ metadata: null }, ['metadata']],
      [{ metadata: 'text' }, ['metadata']],
      [{ responses: 5 }, ['responses']],
      [{ attendee_name: 'n'.repeat(256) }, ['attendee_name']],
      [{ attendee_name: 42 }, ['attendee_name']],
      [{ metadata: [], responses: [] }, ['metadata', 'responses']],
    ];
    for (const [body, fields] of cases) {
      const res = await patch(b.scratch3.uid, body);
      expectError(res, 400, 'validation_error', { fields });
    }
    expect(await versionOf(b.scratch3.uid)).toBe(1);
  });

  it('400 validation_error for a body that is not an object or names nothing to change', async () => {
    for (const body of [[1], '"text"', 'null', {}]) {
      expectError(await patch(b.scratch3.uid, body), 400, 'validation_error', { fields: [] });
    }
    expectError(await patch(b.scratch3.uid, undefined), 400, 'validation_error', { fields: [] });
    expect(await versionOf(b.scratch3.uid)).toBe(1);
  });

  it('attendee_name of exactly 255 characters is accepted', async () => {
    const data = expectData(await patch(b.scratch3.uid, { attendee_name: 'n'.repeat(255) }, { 'if-match': '1' }));
    expect(data.attendees[0].name).toBe('n'.repeat(255));
  });

  it('422 field_immutable names every rejected key, and nothing changes', async () => {
    const res = await patch(b.scratch4.uid, { start: '2030-01-01T00:00:00Z', status: 'canceled', metadata: { ok: 1 }, uid: 'x' });
    const error = expectError(res, 422, 'field_immutable', { fields: ['start', 'status', 'uid'] });
    expect(error.message).toContain('start, status, uid');
    expect(await versionOf(b.scratch4.uid)).toBe(1);
  });
});

describe('required headers and versions', () => {
  it('400 missing_idempotency_key', async () => {
    const res = await patch(b.scratch5.uid, { metadata: { x: 1 } }, { 'idempotency-key': undefined });
    expectError(res, 400, 'missing_idempotency_key', {}, 'This endpoint requires an Idempotency-Key header.');
    expect(await versionOf(b.scratch5.uid)).toBe(1);
  });

  it('400 validation_error for an Idempotency-Key of 256 characters or an empty one; 255 is accepted', async () => {
    for (const key of ['k'.repeat(256), '']) {
      const res = await patch(b.scratch5.uid, { metadata: { x: 1 } }, { 'idempotency-key': key });
      expectError(res, 400, 'validation_error', { fields: ['Idempotency-Key'] }, 'Idempotency-Key must be 1 to 255 characters.');
    }
    expect(await versionOf(b.scratch5.uid)).toBe(1);
    const ok = expectData(await patch(b.scratch5.uid, { metadata: { x: 1 } }, { 'idempotency-key': 'k'.repeat(255), 'if-match': '"1"' }));
    expect(ok.version).toBe(2);
  });

  it('428 missing_if_match, and nothing changes', async () => {
    const res = await patch(b.scratch6.uid, { metadata: { x: 1 } }, { 'if-match': undefined });
    expectError(res, 428, 'missing_if_match', {}, 'This endpoint requires an If-Match header with the current version.');
    expect(await versionOf(b.scratch6.uid)).toBe(1);
  });

  it('409 version_conflict with details.current_version for a stale or unparseable If-Match', async () => {
    for (const ifMatch of ['"2"', '0', '"0"', 'abc', 'W/"1"', '"1", "2"']) {
      const res = await patch(b.scratch6.uid, { metadata: { x: 1 } }, { 'if-match': ifMatch });
      expectError(res, 409, 'version_conflict', { current_version: 1 }, 'The booking is at version 1.');
      expect(res.headers.get('etag')).toBeNull();
    }
    expect(await versionOf(b.scratch6.uid)).toBe(1);
    expect(expectData(await patch(b.scratch6.uid, { metadata: { x: 1 } }, { 'if-match': '"1"' })).version).toBe(2);
    expectError(await patch(b.scratch6.uid, { metadata: { x: 2 } }, { 'if-match': '"1"' }), 409, 'version_conflict', {
      current_version: 2,
    });
  });
});

describe('400 invalid_query_param', () => {
  const otherQueryCursor = async () => {
    const res = await get('/v1/bookings?limit=1&sort=start_at_asc');
    expectData(res);
    return res.body.meta.next_cursor as string;
  };

  it.each([
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=abc', 'limit'],
    ['limit=-1', 'limit'],
    ['limit=1.5', 'limit'],
    ['limit=', 'limit'],
    ['cursor=not-a-cursor', 'cursor'],
    ['cursor=e30', 'cursor'],
    ['sort=start_at', 'sort'],
    ['sort=START_AT_ASC', 'sort'],
    ['status=tentative', 'status'],
    ['status=confirmed,bogus', 'status'],
    ['start_date=tomorrow', 'start_date'],
    ['end_date=2026-13-45', 'end_date'],
    ['updated_since=yesterday', 'updated_since'],
    ['host_user_id=123', 'host_user_id'],
    ['event_type_id=owner-call', 'event_type_id'],
    ['include_cancelled=maybe', 'include_cancelled'],
  ])('%s → details.param %s', async (query, param) => {
    const res = await get(`/v1/bookings?${query}`);
    const error = expectError(res, 400, 'invalid_query_param', { param });
    expect(error.message).toContain(param);
  });

  it('a cursor is only valid for the query it came from', async () => {
    const cursor = await otherQueryCursor();
    expect(typeof cursor).toBe('string');
    // Same filters, same sort: fine.
    expectData(await get(`/v1/bookings?limit=1&sort=start_at_asc&cursor=${cursor}`));
    // Another sort or another filter: refused.
    for (const query of ['sort=start_at_desc', 'sort=start_at_asc&status=confirmed', `sort=start_at_asc&host_user_id=${USER_IDS.owner}`]) {
      expectError(await get(`/v1/bookings?${query}&cursor=${cursor}`), 400, 'invalid_query_param', { param: 'cursor' });
    }
  });
});

describe('idempotency', () => {
  it('a replay answers the same status, body and ETag with Idempotent-Replayed: true, and runs once', async () => {
    const key = randomUUID();
    const first = await patch(b.scratch7.uid, { metadata: { n: 1, m: 'two' } }, { 'idempotency-key': key, 'if-match': '"1"' });
    expect(expectData(first).version).toBe(2);
    expect(first.headers.get('idempotent-replayed')).toBeNull();

    // Same body with other key order and white space: the same fingerprint.
    const replay = await patch(b.scratch7.uid, '{ "metadata" : { "m":"two",  "n":1 } }', { 'idempotency-key': key, 'if-match': '"1"' });
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect(replay.headers.get('etag')).toBe('"2"');
    expect(replay.headers.get('x-request-id')).toBe(first.body.meta.request_id);
    // Rate-limit headers are fresh, not replayed.
    const before = expectCommonHeaders(first);
    const after = expectCommonHeaders(replay);
    expect(after.reset > before.reset || after.remaining < before.remaining).toBe(true);

    expect(await versionOf(b.scratch7.uid)).toBe(2);
  });

  it('409 idempotency_key_conflict: same key, other body or other booking; nothing runs', async () => {
    const key = randomUUID();
    expect(expectData(await patch(b.scratch8.uid, { metadata: { v: 1 } }, { 'idempotency-key': key })).version).toBe(2);

    const otherBody = await patch(b.scratch8.uid, { metadata: { v: 2 } }, { 'idempotency-key': key });
    const otherRoute = await patch(b.ownerLater.uid, { metadata: { v: 1 } }, { 'idempotency-key': key });
    for (const res of [otherBody, otherRoute]) {
      expectError(
        res,
        409,
        'idempotency_key_conflict',
        {},
        'This Idempotency-Key was used within the last 24 hours with a different request.',
      );
      expect(res.headers.get('idempotent-replayed')).toBeNull();
    }
    expect(await versionOf(b.scratch8.uid)).toBe(2);
    expect(await versionOf(b.ownerLater.uid)).toBe(1);
  });

  it('an errored attempt is not remembered: a retry with the same key runs', async () => {
    const key = randomUUID();
    const failed = await patch(b.ownerPast.uid, { metadata: { retried: true } }, { 'idempotency-key': key, 'if-match': '"7"' });
    expectError(failed, 409, 'version_conflict', { current_version: 1 });
    const retry = await patch(b.ownerPast.uid, { metadata: { retried: true } }, { 'idempotency-key': key, 'if-match': '"1"' });
    expect(expectData(retry).version).toBe(2);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
  });

  it('keys are per account: another account may use the same key', async () => {
    const key = randomUUID();
    expect(expectData(await patch(b.ownerCanceled.uid, { metadata: { who: 'owner' } }, { 'idempotency-key': key })).version).toBe(2);
    const member = await patch(b.memberPast.uid, { metadata: { who: 'member' } }, { 'idempotency-key': key }, SECRETS.member);
    expect(expectData(member).metadata).toEqual({ who: 'member' });
    expect(member.headers.get('idempotent-replayed')).toBeNull();
  });
});

describe('429 rate_limited (limits from the workspace)', () => {
  const tightGet = (token: string | undefined, path = '/v1/bookings?limit=1') => api(tight.url, path, token === undefined ? {} : { token });

  it('a PAT gets its limit per window, then 429 with Retry-After and details; every path counts', async () => {
    const paths = ['/v1/bookings?limit=1', '/v1/nope', `/v1/bookings/${tightFx.bookings.otherSoon.uid}`];
    await exhaustBucket(TIGHT.pat_per_minute, (i) => tightGet(SECRETS.other, paths[i % paths.length]), /^pat:\S+$/);
  });

  it('two PATs of one account have a bucket each', async () => {
    const first = await exhaustBucket(TIGHT.pat_per_minute, () => tightGet(SECRETS.owner), /^pat:\S+$/);
    // Right after, the account's second PAT starts its own countdown at limit - 1.
    const second = await exhaustBucket(TIGHT.pat_per_minute, () => tightGet(SECRETS.ownerSecond), /^pat:\S+$/);
    expect(second.refused.body.error.details.bucket).not.toBe(first.refused.body.error.details.bucket);
  });

  it('403 insufficient_scope counts in the token bucket', async () => {
    await exhaustBucket(
      TIGHT.pat_per_minute,
      (i) =>
        i % 2 === 0
          ? api(tight.url, `/v1/bookings/${tightFx.bookings.scratch1.uid}`, {
              method: 'PATCH',
              token: SECRETS.noUpdate,
              json: { metadata: {} },
              headers: { 'idempotency-key': randomUUID(), 'if-match': '*' },
            })
          : tightGet(SECRETS.noUpdate),
      /^pat:\S+$/,
    );
  });

  it('an OAuth token counts per client and account', async () => {
    await exhaustBucket(TIGHT.oauth_per_minute, () => tightGet(SECRETS.oauth), `oauth:${OAUTH_CLIENT_ID}:${USER_IDS.member}`);
  });

  it('unauthenticated requests, and bad tokens, share the anonymous bucket by client IP', async () => {
    const kinds = [undefined, 'no-such-token-0000000000', SECRETS.revoked, SECRETS.expired];
    const { responses } = await exhaustBucket(TIGHT.anonymous_per_minute, (i) => tightGet(kinds[i % kinds.length]), 'anonymous:127.0.0.1');
    for (const res of responses.slice(0, -1)) {
      if (res.status !== 429) {
        expectError(res, 401, 'unauthorized', {});
        expect(res.headers.get('www-authenticate')).toMatch(
          /^Bearer realm="schedule", resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource"/,
        );
      }
    }
    // A valid token is not in that bucket.
    const member = await tightGet(SECRETS.member);
    expect(member.status).toBe(200);
    expect(member.headers.get('x-ratelimit-limit')).toBe(String(TIGHT.pat_per_minute));
  });
});
