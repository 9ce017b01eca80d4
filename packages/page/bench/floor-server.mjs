// The floor of the page benches: a bare node:http server answering each path
// it was given with the very status, headers and body bytes the page
// answered there (read from a JSON file: { "<path>": { headers, body_base64 } }),
// as fast as Node can. What the page costs over it is the page's own work.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const answers = new Map(
  Object.entries(JSON.parse(readFileSync(process.argv[2], 'utf8'))).map(([path, { headers, body_base64 }]) => [
    path,
    { headers, body: Buffer.from(body_base64, 'base64') },
  ]),
);

const server = createServer((req, res) => {
  const answer = answers.get(req.url ?? '/');
  if (!answer) {
    res.statusCode = 404;
    res.end();
    return;
  }
  res.statusCode = 200;
  for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
  res.end(answer.body);
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening on http://127.0.0.1:${server.address().port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
