// Bundles the `schedule` binary into dist/bin.js plus lazily loaded chunks.
// Why: a Node CLI spends most of its start-up resolving, reading and
// compiling modules one file at a time (kysely, zod and the rest are
// hundreds of files). One bundle, with the servers, MCP SDK and interactive
// UI split into chunks loaded only by the commands that need them, starts
// about 4x faster (see bench/cold-start.bench.mjs).
import { rmSync } from 'node:fs';
import { build } from 'esbuild';

// Chunk names carry a content hash: old ones would pile up.
rmSync('dist/chunks', { recursive: true, force: true });
// The package's entry (run, startServing) is bundled too, over what tsc wrote
// (its .d.ts stay): it shares the binary's chunks, so code that embeds it,
// such as the tests that start the server in process, runs the binary's very
// code and loads it about as fast (a quarter of the unbundled files' time).
rmSync('dist/index.js.map', { force: true });

await build({
  entryPoints: ['src/bin.ts', 'src/index.ts'],
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  // Loaded from node_modules as they are: native or optional modules, and
  // drivers that only some commands use. undici must stay one copy: it
  // shares the global dispatcher with Node's own fetch, and a bundled copy's
  // handlers do not fit that dispatcher.
  external: ['better-sqlite3', 'pg', 'pg-native', 'ioredis', 'undici', 'react-devtools-core'],
  // CommonJS dependencies inside an ES module bundle still call require().
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
});
