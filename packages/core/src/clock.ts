/** Where core reads the time. Passed in, so tests pin it. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

/** The wall clock of the machine. */
export const systemClock: Clock = { now: () => Date.now() };

/** A clock that only moves when told to; for tests and simulations. */
export interface ManualClock extends Clock {
  set(epochMs: number | string): void;
  advance(ms: number): void;
}

export function manualClock(start: number | string): ManualClock {
  let current = typeof start === 'string' ? Date.parse(start) : start;
  return {
    now: () => current,
    set(epochMs) {
      current = typeof epochMs === 'string' ? Date.parse(epochMs) : epochMs;
    },
    advance(ms) {
      current += ms;
    },
  };
}
