import { defineConfig } from 'vitest/config';

/**
 * The tests mutation testing runs (stryker.config.mjs): those that exercise
 * the rule files it mutates. Each mutant reruns only the tests that covered
 * it, but the first, instrumented run and every static mutant run all of
 * these, so tests of unrelated code (mail, webhooks, CalDAV, Redis) stay out.
 */
export default defineConfig({
  test: {
    include: [
      'test/expand-pattern.test.ts',
      'test/wall-clock.test.ts',
      'test/time.test.ts',
      'test/working-hours.test.ts',
      'test/busy.test.ts',
      'test/calendar-reader.test.ts',
      'test/load-host-time.test.ts',
      'test/slot-rules.test.ts',
      'test/availability-truth*.test.ts',
      'test/slots.test.ts',
      // The feed reader: its unit, corpus, interop and property suites.
      'test/ics-*.test.ts',
      'test/idempotency.test.ts',
      'test/execute.test.ts',
      'test/rate-limiter.test.ts',
      'test/admit.test.ts',
      'test/series-*.test.ts',
      'test/create-booking*.test.ts',
      'test/reschedule-booking.test.ts',
      'test/cancel-booking.test.ts',
      'test/booking-model.property.test.ts',
      // The pure rules of webhook delivery (slots, back-off); the suites with a receiver stay out.
      'test/webhook-rules.test.ts',
      'test/unknown-fields.test.ts',
      'test/closest-name.test.ts',
      'test/issue-words.test.ts',
      'test/list-bookings.test.ts',
      'test/instants.test.ts',
    ],
    exclude: ['test/series-notifications.test.ts'],
    testTimeout: 20_000,
  },
});
