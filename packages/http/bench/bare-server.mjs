// The baseline: a bare node:http server answering every request with a fixed
// JSON body of a given size, as fast as Node can.
import { createServer } from 'node:http';

const size = Number(process.argv[2] ?? 1000);
const filler = 'x'.repeat(Math.max(0, size - '{"data":""}'.length));
const body = Buffer.from(JSON.stringify({ data: filler }));

const server = createServer((_req, res) => {
  res.statusCode = 200;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', body.length);
  res.end(body);
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening on http://127.0.0.1:${server.address().port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
