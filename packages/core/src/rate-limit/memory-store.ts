import type { RateLimitStore } from './rate-limit-store.js';

/** Counts in this process's memory: the default, and the fallback when Redis fails. */
export function memoryRateLimitStore(): RateLimitStore {
  const windows = new Map<string, { windowStartMs: number; count: number }>();
  let oldestKept = 0;
  return {
    async hit(bucketKey, windowStartMs) {
      // Buckets of past windows are dead weight; sweep them once per new window.
      if (windowStartMs > oldestKept) {
        for (const [key, entry] of windows) if (entry.windowStartMs < windowStartMs) windows.delete(key);
        oldestKept = windowStartMs;
      }
      const entry = windows.get(bucketKey);
      if (entry && entry.windowStartMs === windowStartMs) {
        entry.count += 1;
        return entry.count;
      }
      windows.set(bucketKey, { windowStartMs, count: 1 });
      return 1;
    },
    ready: async () => true,
    async close() {
      windows.clear();
    },
  };
}
