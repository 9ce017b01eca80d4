import { wantsSpinner } from './terminal.js';

// A call that may take a while gets a spinner on stderr, only for a person
// at a terminal (never piped, never in CI), and only once it has run for a
// moment: a quick call neither flickers nor pays for loading ink.

const SHOW_AFTER_MS = 150;

/** Runs `work`; while it runs past a moment on a terminal, a spinner with `label` turns on stderr. */
export async function withProgress<T>(label: string, work: () => Promise<T>): Promise<T> {
  if (!wantsSpinner()) return work();
  let settled = false;
  let stop: (() => void) | undefined;
  const timer = setTimeout(() => {
    import('./spinner.js')
      .then(({ showSpinner }) => {
        if (!settled) stop = showSpinner(label);
      })
      // The spinner is a courtesy: failing to draw it must not fail the call.
      .catch(() => {});
  }, SHOW_AFTER_MS);
  try {
    return await work();
  } finally {
    settled = true;
    clearTimeout(timer);
    stop?.();
  }
}
