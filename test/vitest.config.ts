import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Each file starts real server processes; two at a time suits a 2-core machine.
    maxWorkers: 2,
    setupFiles: ['./vitest.setup.ts'],
  },
});
