#!/usr/bin/env node
// Node.js 22 or later (package.json "engines"): the SQLite driver's binaries are built for
// Node-API 22+, and on an older Node it crashes the process. Say so before loading anything.
const MIN_NODE_MAJOR = 22;
if (Number(process.versions.node.split('.')[0]) < MIN_NODE_MAJOR) {
  process.stderr.write(`schedule needs Node.js ${MIN_NODE_MAJOR} or later (24 LTS recommended); this is ${process.version}.\n`);
  process.exit(2);
}

// A reader that stops early (`schedule bookings list | head`) closes the
// pipe: that is the reader's choice, not an error to report.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

const { run } = await import('./program.js');
await run(process.argv);
