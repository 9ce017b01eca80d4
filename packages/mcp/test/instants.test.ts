import { afterEach, expect, it } from 'vitest';
import { ET, TOKEN } from './support/mcp-workspace.js';
import { fails, ok, openSuite, type Suite } from './support/tool-calls.js';

// docs/api/overview.md "Instants, dates and zones", seen by a model: `start: "2026-03-03T14:00"`
// with `timezone: "Europe/Berlin"` used to book 14:00 UTC, an hour off, without
// a word. It is refused, naming the argument, and the model can send the offset.

let suite: Suite;
afterEach(() => suite.world.close());

it('create_booking with a start without offset is validation_error naming start; with an offset it books that instant', async () => {
  suite = await openSuite();
  const uma = await suite.client(TOKEN.uma);
  const args = { event_type_id: ET.weekly, attendee: { email: 'kim@example.com' }, timezone: 'Europe/Berlin' };
  await fails(
    uma,
    'create_booking',
    { ...args, start: '2026-03-03T15:00' },
    {
      code: 'validation_error',
      message: 'start: must name its offset: Z or ±HH:MM (2026-12-09T11:00:00Z, 2026-12-09T11:00:00+01:00)',
      details: { fields: ['start'] },
    },
  );
  const booked = await ok(uma, 'create_booking', { ...args, start: '2026-03-03T15:00:00+01:00' });
  expect(booked.start_at).toBe('2026-03-03T14:00:00.000Z');
});
