import { CalendarUnreadable, createCalendarReader, manualClock } from '@schedule/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/test-app.js';

const SECRET = 'pat_calendar_fault_0001';
const EVENT_TYPE = '7b0e4a52-2222-4c3d-9e8f-000000000001';

describe('a conflict calendar that cannot be read', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({
      clock: manualClock('2026-11-22T10:00:00.000Z'),
      workspace: {
        users: [
          { username: 'ann', email: 'ann@example.test', role: 'owner', calendars: [{ kind: 'ics', url: 'http://127.0.0.1:9/ann.ics' }] },
        ],
        event_types: [{ id: EVENT_TYPE, owner: 'ann', slug: 'chat', name: 'Chat', duration_minutes: 30 }],
        tokens: [{ name: 't', user: 'ann', secret: SECRET, scopes: ['slots:read'] }],
      },
      calendars: createCalendarReader(async (url) => {
        throw new CalendarUnreadable(`calendar ${url} is unreadable: connection refused`);
      }),
    });
  });

  afterAll(() => app.close());

  it('answers 503 availability_unavailable with Retry-After, and logs the cause for the operator only', async () => {
    const res = await fetch(`${app.server.url}/v1/slots?event_type_id=${EVENT_TYPE}&start=2026-11-23T00:00:00Z&end=2026-11-24T00:00:00Z`, {
      headers: { authorization: `Bearer ${SECRET}` },
    });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('30');
    const text = await res.text();
    expect(text).not.toContain('connection refused');
    expect(JSON.parse(text)).toEqual({
      error: {
        code: 'availability_unavailable',
        message: "The host's conflict calendar could not be read; nothing was booked. Retry with the same Idempotency-Key.",
        details: {},
        request_id: res.headers.get('x-request-id'),
      },
    });
    expect(app.logged).toContainEqual({
      request_id: res.headers.get('x-request-id'),
      code: 'availability_unavailable',
      cause: 'calendar http://127.0.0.1:9/ann.ics is unreadable: connection refused',
    });
  });
});
