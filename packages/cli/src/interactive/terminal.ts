// What decides whether the CLI may draw a terminal UI. Kept free of ink and
// React so that every command can ask it at no cost (issue 6, "Fast start").

/** The streams a decision is made on; the process's by default, fakes in tests. */
export interface Streams {
  readonly stdin: { readonly isTTY?: boolean };
  readonly stdout: { readonly isTTY?: boolean };
  readonly stderr: { readonly isTTY?: boolean; readonly columns?: number };
}

/** Whether this looks like a CI run, where nothing may prompt or animate (the `CI` convention most CI services set). */
export function inCi(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env.CI;
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}

/** Someone at a terminal: stdin and stdout are both TTYs, and not in CI (issue 6: never in CI or when piped). */
export function isInteractive(streams: Streams = process, env: NodeJS.ProcessEnv = process.env): boolean {
  return streams.stdin.isTTY === true && streams.stdout.isTTY === true && !inCi(env);
}

/**
 * A spinner may be drawn on stderr: a person is watching it (stdin and
 * stderr are terminals), and it is neither CI, a dumb terminal, nor one
 * that reports no width (where ink cannot lay a line out).
 */
export function wantsSpinner(streams: Streams = process, env: NodeJS.ProcessEnv = process.env): boolean {
  const sized = (streams.stderr.columns ?? 0) > 0;
  return streams.stderr.isTTY === true && streams.stdin.isTTY === true && sized && !inCi(env) && env.TERM !== 'dumb';
}
