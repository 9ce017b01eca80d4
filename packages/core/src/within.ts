/** How a piece of work ended when it was given a deadline. */
export type Settled<T> =
  | { readonly kind: 'done'; readonly value: T }
  | { readonly kind: 'failed'; readonly error: unknown }
  | { readonly kind: 'timed_out' };

/**
 * Waits for `work` at most `timeoutMs`. The work itself is not stopped (a
 * promise cannot be), only no longer waited for: callers bound what a slow
 * dependency (a database probe, Redis, a metrics count) may cost a request.
 */
export async function within<T>(work: Promise<T>, timeoutMs: number): Promise<Settled<T>> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<Settled<T>>((resolve) => {
    timer = setTimeout(() => resolve({ kind: 'timed_out' }), timeoutMs);
  });
  try {
    return await Promise.race([work.then((value): Settled<T> => ({ kind: 'done', value })), timedOut]);
  } catch (error) {
    return { kind: 'failed', error };
  } finally {
    clearTimeout(timer);
  }
}
