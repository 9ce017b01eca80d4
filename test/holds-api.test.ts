import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliModes, MODE_NAMES, startCliModes } from './support/cli-modes.js';
import { api, expectData, expectError } from './support/http.js';
import { SERIES_SECRETS, SYNC, seriesWorkspace, tokyoAt, tokyoEnd } from './support/series-workspace.js';

// Issue 34 part 1 over HTTP and the CLI: POST /v1/holds, DELETE
// /v1/holds/:id and POST /v1/bookings with hold_id, answered as
// docs/openapi.json says (every answer is checked against it), and
// `schedule holds create|release` with `bookings create --hold`.

const ORA = SERIES_SECRETS.ora;
const HAL = SERIES_SECRETS.hal;
let modes: CliModes;

beforeAll(async () => {
  modes = await startCliModes(seriesWorkspace(), ORA);
});
afterAll(async () => {
  await modes?.stop();
});

let keys = 0;
const post = (path: string, token: string, json: unknown) =>
  api(modes.remote.api, path, { method: 'POST', token, json, headers: { 'idempotency-key': `holds-api-${++keys}` } });
const release = (id: string, token: string) => api(modes.remote.api, `/v1/holds/${id}`, { method: 'DELETE', token });
const check = async (token: string, start: string) =>
  expectData(await api(modes.remote.api, `/v1/slots/check?event_type_id=${SYNC.id}&start=${encodeURIComponent(start)}`, { token }))
    .available;

describe('holds over HTTP', () => {
  it('POST /v1/holds answers 201 with Location, busy for another token and free for the holder until released', async () => {
    const start = tokyoAt(2, '10:00');
    const res = await post('/v1/holds', HAL, { event_type_id: SYNC.id, start, ttl_seconds: 120 });
    const hold = expectData(res, 201);
    expect(res.headers.get('location')).toBe(`/v1/holds/${hold.id}`);
    expect(hold).toMatchObject({ event_type_id: SYNC.id, start, end: tokyoEnd(2, '10:00') });
    expect(Date.parse(hold.expires_at) - Date.parse(hold.created_at)).toBe(120_000);
    expect(await check(HAL, start)).toBe(true);
    expect(await check(ORA, start)).toBe(false);
    expectError(
      await post('/v1/bookings', ORA, { event_type_id: SYNC.id, start, attendee: { email: 'kim@example.com' } }),
      409,
      'slot_unavailable',
      {
        reason: 'slot_busy',
      },
    );
    expectError(await release(hold.id, ORA), 404, 'hold_not_found', { hold_id: hold.id });
    expect(expectData(await release(hold.id, HAL)).id).toBe(hold.id);
    expect(await check(ORA, start)).toBe(true);
  });

  it('books with hold_id once; a mismatching start is 409 hold_mismatch and another token’s hold 404', async () => {
    const start = tokyoAt(2, '11:00');
    const hold = expectData(await post('/v1/holds', HAL, { event_type_id: SYNC.id, start }), 201);
    const body = { event_type_id: SYNC.id, start, hold_id: hold.id, attendee: { email: 'kim@example.com' } };
    expectError(await post('/v1/bookings', HAL, { ...body, start: tokyoAt(2, '11:30') }), 409, 'hold_mismatch', {
      hold_id: hold.id,
      event_type_id: SYNC.id,
      start,
    });
    expectError(await post('/v1/bookings', ORA, body), 404, 'hold_not_found', { hold_id: hold.id });
    const booking = expectData(await post('/v1/bookings', HAL, body), 201);
    expect(booking).toMatchObject({ status: 'confirmed', start_at: start });
    expectError(await post('/v1/bookings', HAL, body), 404, 'hold_not_found', { hold_id: hold.id });
  });

  it('refuses bad input with the documented envelope', async () => {
    expectError(
      await post('/v1/holds', HAL, { event_type_id: SYNC.id, start: tokyoAt(2, '12:00'), ttl_seconds: 5 }),
      400,
      'validation_error',
      { fields: ['ttl_seconds'] },
    );
    expectError(await post('/v1/holds', HAL, { event_type_id: SYNC.id, start: tokyoAt(2, '10:10') }), 409, 'slot_unavailable', {
      reason: 'slot_busy',
    });
    expectError(await release('not-a-hold', HAL), 404, 'hold_not_found', { hold_id: 'not-a-hold' });
    expectError(
      await api(modes.remote.api, '/v1/holds', {
        method: 'POST',
        token: HAL,
        json: { event_type_id: SYNC.id, start: tokyoAt(2, '12:00') },
      }),
      400,
      'missing_idempotency_key',
    );
  });
});

describe('schedule holds', () => {
  it('holds a start, books it with --hold, and releases another, alike embedded and remote', async () => {
    for (const name of MODE_NAMES) {
      const mode = modes[name];
      const held = await mode.run(['holds', 'create', '--event-type', SYNC.id, '--start', tokyoAt(2, '14:00'), '--ttl', '300', '--json']);
      expect({ code: held.code, stderr: held.stderr }).toEqual({ code: 0, stderr: '' });
      const hold = JSON.parse(held.stdout) as { id: string; start: string };
      expect(hold.start).toBe(tokyoAt(2, '14:00'));
      const booked = await mode.run([
        'bookings',
        'create',
        '--event-type',
        SYNC.id,
        '--start',
        tokyoAt(2, '14:00'),
        '--hold',
        hold.id,
        '--attendee-email',
        'kim@example.com',
        '--json',
      ]);
      expect(booked.code).toBe(0);
      expect(JSON.parse(booked.stdout)).toMatchObject({ start_at: tokyoAt(2, '14:00'), status: 'confirmed' });
      const other = JSON.parse(
        (await mode.run(['holds', 'create', '--event-type', SYNC.id, '--start', tokyoAt(2, '15:00'), '--json'])).stdout,
      ) as { id: string };
      const released = await mode.run(['holds', 'release', other.id, '--json']);
      expect(released.code).toBe(0);
      expect(JSON.parse(released.stdout)).toMatchObject({ id: other.id });
      const again = await mode.run(['holds', 'release', other.id]);
      expect({ code: again.code, stderr: again.stderr }).toEqual({ code: 3, stderr: expect.stringContaining('hold_not_found') });
      const badTtl = await mode.run(['holds', 'create', '--event-type', SYNC.id, '--start', tokyoAt(2, '16:00'), '--ttl', 'soon']);
      expect(badTtl.stderr).toContain('ttl_seconds');
    }
  });
});
