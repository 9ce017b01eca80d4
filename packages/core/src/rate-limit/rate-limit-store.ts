/** Counts hits per bucket and window; in memory for one process, Redis for several. */
export interface RateLimitStore {
  /** Adds one hit to the bucket's window and returns the window's count including it. */
  hit(bucketKey: string, windowStartMs: number, windowMs: number): Promise<number>;
  /** Resolves true once the store can count, false if it cannot within the time given. */
  ready(timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}
