// A series create that dies midway: runs `create_series` through the built
// core, as `schedule serve` would, and kills its own process with SIGKILL
// when the create reaches occurrence N inside its one transaction: a crash
// with no chance to roll back or release anything.
//
// Usage: node crash-create.mjs <db> <token secret> <idempotency key> <N> <body JSON>
//   <db> is a SQLite file path or a postgres:// URL with ?schema=.
// Exit codes when it does not crash: 3 the create finished (occurrence N never
// came), 4 the create failed (the error is printed to stderr), 2 bad usage.

import {
  conferenceLinksAt,
  createAuthenticator,
  createCalendarReader,
  execute,
  icsFeedReader,
  openStore,
  operations,
  randomIds,
  systemClock,
} from '@schedule/core';

const [db, secret, idempotencyKey, crashAt, bodyJson] = process.argv.slice(2);
if (bodyJson === undefined) {
  process.stderr.write('usage: crash-create.mjs <db> <secret> <idempotency key> <N> <body JSON>\n');
  process.exit(2);
}
const crashIndex = Number(crashAt);

const store = await openStore(db);
const principal = await createAuthenticator({ store, clock: systemClock })(secret);
if (principal === undefined) {
  process.stderr.write('the token is not valid\n');
  process.exit(2);
}

const deps = {
  store,
  clock: systemClock,
  ids: randomIds,
  // Expires at once: the reservation this process leaves behind counts as abandoned for the retry.
  idempotencyLeaseMs: 1,
  calendars: createCalendarReader(icsFeedReader({ clock: systemClock })),
  conferenceLinks: conferenceLinksAt('https://meet.test'),
  steps: (step) => {
    if (step.action === 'create' && step.phase === 'occurrence' && step.index === crashIndex) process.kill(process.pid, 'SIGKILL');
  },
};

const operation = operations.find((o) => o.name === 'create_series');
try {
  const executed = await execute(
    deps,
    operation,
    principal,
    { params: {}, query: {}, body: JSON.parse(bodyJson), idempotencyKey },
    'crash',
  );
  process.stdout.write(`${JSON.stringify(executed)}\n`);
  process.exitCode = 3;
} catch (error) {
  process.stderr.write(`${error?.stack ?? String(error)}\n`);
  process.exitCode = 4;
} finally {
  await store.close();
}
