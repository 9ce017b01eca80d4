// A second reference: a bare node:http server that does nothing but the same
// SQLite point read per request (better-sqlite3, no Kysely, no auth, no rate
// limit) and answers the row as JSON. It is the floor any SQLite-backed
// server pays on this machine, so it separates the database's share of the
// gap from the service's own.
import { createServer } from 'node:http';
import BetterSqlite3 from 'better-sqlite3';

const [file, uid] = process.argv.slice(2);
const db = new BetterSqlite3(file, { readonly: true });
const read = db.prepare(
  `select bookings.*, host.username as host_username, host.email as host_email, event_types.slug as event_type_slug
   from bookings join users host on host.id = bookings.host_user_id join event_types on event_types.id = bookings.event_type_id
   where bookings.uid = ?`,
);

const server = createServer((_req, res) => {
  const body = JSON.stringify({ data: read.get(uid) });
  res.statusCode = 200;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening on http://127.0.0.1:${server.address().port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
