#!/usr/bin/env node
import { run } from './program.js';

// A reader that stops early (`schedule bookings list | head`) closes the
// pipe: that is the reader's choice, not an error to report.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

await run(process.argv);
