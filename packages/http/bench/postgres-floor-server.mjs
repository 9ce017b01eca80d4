// The floor of a PostgreSQL-backed GET: a bare node:http server that does
// nothing but the same point read per request through pg's pool (no Kysely,
// no auth, no rate limit) and answers the row as JSON, as a first server on
// pg would. Run beside the service, it separates the database's and the
// driver's share of the time from the service's own.
import { createServer } from 'node:http';
import pg from 'pg';

const [url, schema, uid] = process.argv.slice(2);
const pool = new pg.Pool({ connectionString: url, max: 10, options: `-c search_path=${schema}` });
const read = `select bookings.*, host.username as host_username, host.email as host_email, event_types.slug as event_type_slug
   from bookings join users host on host.id = bookings.host_user_id join event_types on event_types.id = bookings.event_type_id
   where bookings.uid = $1`;

const server = createServer(async (_req, res) => {
  // Prepared once per connection, as the service's own driver does: a floor must not pay what the service does not.
  const { rows } = await pool.query({ name: 'read-booking', text: read, values: [uid] });
  const body = JSON.stringify({ data: rows[0] });
  res.statusCode = 200;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening on http://127.0.0.1:${server.address().port}\n`);
});
process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
