import { describe, expect, it, vi } from 'vitest';
import type { CallInput, CallResult } from '../src/backend/backend.js';
import type { RunContext } from '../src/command-context.js';
import { bookingUidOf, SHOWN_CANDIDATES } from '../src/input/booking-uid.js';
import type { BookingItem } from '../src/interactive/api-items.js';

// Issue 29, item 11: a short uid costs one bounded call, and only when it is one.

const booking = (i: number): BookingItem => ({
  uid: `3d6f2a10-0000-4000-8000-${String(i).padStart(12, '0')}`,
  title: `Intro call ${i}`,
  status: 'confirmed',
  start_at: `2026-12-${String(i + 1).padStart(2, '0')}T09:00:00.000Z`,
  end_at: `2026-12-${String(i + 1).padStart(2, '0')}T09:30:00.000Z`,
});

/** A context whose list_bookings answers `items`, with `hasMore`. */
function contextAnswering(items: BookingItem[], hasMore = false) {
  const call = vi.fn(
    async (_operation: string, _input: CallInput): Promise<CallResult> => ({
      data: items,
      page: { nextCursor: hasMore ? 'next' : null, hasMore },
    }),
  );
  return { ctx: { call } as unknown as RunContext, call };
}

describe('bookingUidOf', () => {
  it('a whole uid, in any case, and text that is no start of one, go as typed without a call', async () => {
    const { ctx, call } = contextAnswering([]);
    for (const typed of ['3d6f2a10-5b7c-4d8e-9f01-23456789ab01', '3D6F2A10-5B7C-4D8E-9F01-23456789AB01', 'latest', '-3d6f', '']) {
      expect(await bookingUidOf(ctx, typed)).toBe(typed);
    }
    expect(call).not.toHaveBeenCalled();
  });

  it('a start of one asks for one page of the bookings it starts, soonest first, at most ten', async () => {
    const { ctx, call } = contextAnswering([booking(1)]);
    expect(await bookingUidOf(ctx, '3d6f2a10')).toBe(booking(1).uid);
    expect(call).toHaveBeenCalledExactlyOnceWith('list_bookings', {
      query: { uid_prefix: '3d6f2a10', sort: 'start_at_asc', limit: SHOWN_CANDIDATES },
    });
    expect(SHOWN_CANDIDATES).toBe(10);
  });

  it('a page that is full with more after it lists what it has and says there are more', async () => {
    const { ctx } = contextAnswering(
      Array.from({ length: 10 }, (_, i) => booking(i)),
      true,
    );
    const error = await bookingUidOf(ctx, '3d6f').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'ambiguous_uid', details: { uid_prefix: '3d6f' } });
    const lines = (error as Error).message.split('\n');
    expect(lines[0]).toBe('short uid 3d6f is ambiguous; give more of it. It starts these bookings:');
    expect(lines[1]).toBe(`  ${booking(0).uid}  2026-12-01T09:00:00.000Z  confirmed  Intro call 0`);
    expect(lines).toHaveLength(12);
    expect(lines[11]).toBe('  and more');
  });
});
