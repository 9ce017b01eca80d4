import type { SlotPolicy } from '../../src/availability/slot-rules.js';

/** A plain event type's rules: 30 minutes, every 30 minutes, no notice, no buffers, 60 days ahead. Tests vary it by spreading. */
export const POLICY: SlotPolicy = {
  status: 'on',
  durationMinutes: 30,
  slotIntervalMinutes: 30,
  minimumNoticeMinutes: 0,
  futureLimitDays: 60,
  bufferBeforeMinutes: 0,
  bufferAfterMinutes: 0,
};
