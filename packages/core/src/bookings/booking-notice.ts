import type { Principal } from '../auth/principal.js';
import { ScheduleError } from '../errors.js';
import { toTimestamp } from '../time.js';

const MINUTE_MS = 60_000;

/** Which change a notice holds back, and the code its refusal answers. */
const REFUSAL = {
  cancel: { code: 'cancel_notice', words: 'canceled' },
  reschedule: { code: 'reschedule_notice', words: 'rescheduled' },
} as const;

/**
 * Refuses a cancel or reschedule of a booking that starts sooner than its
 * event type's notice from now (docs/api/event-types.md "Notice for cancel
 * and reschedule"): `409 cancel_notice` or `409 reschedule_notice`, naming
 * the deadline. Starting exactly `notice` from now is still in time, as a
 * start exactly at the minimum notice is bookable (slot-rules.ts).
 *
 * Who may pass it (docs/api/choices.md "Notice for cancel and reschedule"):
 * a token caller that sends `override_notice: true`; the booking page's
 * visitor never, whatever it sends, since the notice is the host's rule
 * about the attendee, and the visitor is the attendee.
 */
export function assertNotice(
  kind: keyof typeof REFUSAL,
  principal: Principal,
  booking: { readonly start_at: string },
  noticeMinutes: number,
  nowMs: number,
  override: boolean | undefined,
): void {
  if (noticeMinutes === 0) return;
  if (override === true && principal.credential.kind !== 'visitor') return;
  const deadlineMs = Date.parse(booking.start_at) - noticeMinutes * MINUTE_MS;
  if (nowMs <= deadlineMs) return;
  const { code, words } = REFUSAL[kind];
  throw new ScheduleError(code, `This booking can no longer be ${words}: its event type asks for ${noticeMinutes} minutes' notice.`, {
    start_at: booking.start_at,
    notice_minutes: noticeMinutes,
    deadline: toTimestamp(deadlineMs),
  });
}
