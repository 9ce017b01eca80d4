// A mail dispatcher that dies midway through a pass of due reminders: runs
// the built core's dispatcher, as `schedule serve` would, with a mailer that
// writes each reminder it hands over to a file (synchronously, so the line
// survives) and kills its own process with SIGKILL at the Nth: a crash after
// a send and before its batch is recorded, with no chance to clean up.
//
// Usage: node crash-remind.mjs <db> <clock ISO> <N> <sent file>
//   <db> is a SQLite file path or a postgres:// URL with ?schema=.
// Exit codes when it does not crash: 3 the pass ended before the Nth send, 2 bad usage.

import { appendFileSync } from 'node:fs';
import { dispatchNotifications, manualClock, openStore, randomIds } from '@schedule/core';

const [db, at, crashAt, sentFile] = process.argv.slice(2);
if (sentFile === undefined) {
  process.stderr.write('usage: crash-remind.mjs <db> <clock ISO> <N> <sent file>\n');
  process.exit(2);
}
const store = await openStore(db);
let sends = 0;
const mailer = {
  async send(mail) {
    appendFileSync(sentFile, `${mail.id}\n`);
    if (++sends === Number(crashAt)) process.kill(process.pid, 'SIGKILL');
    return undefined;
  },
};
await dispatchNotifications({ store, clock: manualClock(at), ids: randomIds, mailer }, { limit: 1000, concurrency: 4 });
process.exitCode = 3;
await store.close();
