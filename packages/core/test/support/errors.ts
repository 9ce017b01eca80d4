import { ScheduleError } from '../../src/errors.js';

/** What a caller sees of a ScheduleError; tests compare all of it exactly. */
export interface SeenError {
  readonly code: string;
  /** In core's words (CORE_WORDS); a changed message is a changed answer. */
  readonly message: string;
  readonly details: Record<string, unknown>;
  readonly retryAfterSeconds: number | undefined;
}

/**
 * Runs `work` (a promise, or a function that may throw synchronously) and
 * returns the ScheduleError it failed with. Success, or any other error,
 * fails the test.
 */
export async function scheduleErrorOf(work: Promise<unknown> | (() => unknown)): Promise<SeenError> {
  try {
    await (typeof work === 'function' ? work() : work);
  } catch (error) {
    if (error instanceof ScheduleError) {
      return { code: error.code, message: error.message, details: error.details, retryAfterSeconds: error.retryAfterSeconds };
    }
    throw error;
  }
  throw new Error('expected a ScheduleError, but the call succeeded');
}
