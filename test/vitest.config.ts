import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Most files start real processes (servers, CLI runs); two at a time suits a 2-core machine.
    maxWorkers: 2,
    setupFiles: ['./vitest.setup.ts'],
    // The workspace's built packages (the in-process server) are linked, not installed, so Vite would
    // transform each of their files; loaded by Node as they are, a file imports them a second or two sooner.
    server: { deps: { external: [/\/packages\/[^/]+\/dist\//] } },
  },
});
