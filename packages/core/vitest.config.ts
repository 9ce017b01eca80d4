import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    testTimeout: 20_000,
    // A cleanup drops a suite's PostgreSQL schemas; on a machine busy with other work that outlasts vitest's 10 s.
    hookTimeout: 30_000,
  },
});
