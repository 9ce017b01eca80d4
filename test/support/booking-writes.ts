import { randomUUID } from 'node:crypto';
import { type ApiResponse, api } from './http.js';
import { queryOf } from './slot-time.js';

// The booking writes and slot reads of docs/api, as one-line calls for tests.

export interface WriteOptions {
  /** The Idempotency-Key; a fresh UUID by default, `null` sends none. */
  key?: string | null;
}

function keyHeader(options: WriteOptions): Record<string, string> {
  if (options.key === null) return {};
  return { 'idempotency-key': options.key ?? randomUUID() };
}

/** POST /v1/bookings; a string body is sent as is. */
export function createBooking(baseUrl: string, token: string, body: unknown, options: WriteOptions = {}): Promise<ApiResponse> {
  return api(baseUrl, '/v1/bookings', {
    method: 'POST',
    token,
    headers: keyHeader(options),
    ...(typeof body === 'string' ? { raw: body } : { json: body }),
  });
}

/** POST /v1/bookings/:uid/cancel. */
export function cancelBooking(baseUrl: string, token: string, uid: string, body: unknown = {}, options: WriteOptions = {}) {
  return api(baseUrl, `/v1/bookings/${uid}/cancel`, { method: 'POST', token, headers: keyHeader(options), json: body });
}

/** POST /v1/bookings/:uid/reschedule. */
export function rescheduleBooking(baseUrl: string, token: string, uid: string, body: unknown, options: WriteOptions = {}) {
  return api(baseUrl, `/v1/bookings/${uid}/reschedule`, { method: 'POST', token, headers: keyHeader(options), json: body });
}

/** PATCH /v1/bookings/:uid under If-Match: the given version, or the booking's version now (read first). */
export async function patchBooking(
  baseUrl: string,
  token: string,
  uid: string,
  body: unknown,
  options: WriteOptions & { version?: number } = {},
): Promise<ApiResponse> {
  const version = options.version ?? (await getBooking(baseUrl, token, uid)).body?.data?.version;
  return api(baseUrl, `/v1/bookings/${uid}`, {
    method: 'PATCH',
    token,
    headers: { ...keyHeader(options), 'if-match': `"${version}"` },
    json: body,
  });
}

/** GET /v1/slots with the given query parameters. */
export function listSlots(baseUrl: string, token: string, params: Record<string, string | undefined>): Promise<ApiResponse> {
  return api(baseUrl, `/v1/slots${queryOf(params)}`, { token });
}

/** GET /v1/slots/check with the given query parameters. */
export function checkSlot(baseUrl: string, token: string, params: Record<string, string | undefined>): Promise<ApiResponse> {
  return api(baseUrl, `/v1/slots/check${queryOf(params)}`, { token });
}

/** GET /v1/bookings/:uid. */
export function getBooking(baseUrl: string, token: string, uid: string): Promise<ApiResponse> {
  return api(baseUrl, `/v1/bookings/${uid}`, { token });
}

/** A minimal valid create body for an event type and start. */
export function bookingBody(eventTypeId: string, start: string, email = 'guest@example.com'): Record<string, unknown> {
  return { event_type_id: eventTypeId, start, attendee: { email } };
}
