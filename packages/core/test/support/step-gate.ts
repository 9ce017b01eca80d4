import type { SeriesStep, StepHook } from '../../src/series/series-steps.js';

/** A step a test is holding: it has been reached, and goes on when released. */
export interface HeldStep {
  /** Resolves when an action reaches the step (and waits there). */
  readonly reached: Promise<SeriesStep>;
  /** Lets the held action go on. */
  release(): void;
}

/**
 * A step hook tests steer: `holdAt(match)` makes the next step that matches
 * wait until released, so two actions interleave exactly as the test says,
 * with no sleeps. Every step seen is recorded in `seen`.
 */
export function stepGate(): { hook: StepHook; holdAt(match: (step: SeriesStep) => boolean): HeldStep; seen: SeriesStep[] } {
  const seen: SeriesStep[] = [];
  const waiting: { match: (step: SeriesStep) => boolean; arrive: (step: SeriesStep) => void; gate: Promise<void> }[] = [];
  return {
    seen,
    hook: async (step) => {
      seen.push(step);
      const index = waiting.findIndex((w) => w.match(step));
      if (index < 0) return;
      const [w] = waiting.splice(index, 1);
      w!.arrive(step);
      await w!.gate;
    },
    holdAt(match) {
      let arrive!: (step: SeriesStep) => void;
      let release!: () => void;
      const reached = new Promise<SeriesStep>((resolve) => {
        arrive = resolve;
      });
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      waiting.push({ match, arrive, gate });
      return { reached, release };
    },
  };
}

/** Matches the step of `action` at `phase` (and, for an item, at `index`). */
export const stepAt =
  (action: SeriesStep['action'], phase: SeriesStep['phase'], index?: number) =>
  (step: SeriesStep): boolean =>
    step.action === action && step.phase === phase && (index === undefined || ('index' in step && step.index === index));

/** Waits until `running` is held at the step; fails at once if it finished (or failed) without getting there. */
export async function reachStep(held: HeldStep, running: Promise<unknown>): Promise<void> {
  const first = await Promise.race([
    held.reached.then(() => 'reached' as const),
    running.then(
      () => 'finished' as const,
      () => 'failed' as const,
    ),
  ]);
  if (first === 'reached') return;
  await running;
  throw new Error('the action finished without reaching the held step');
}
