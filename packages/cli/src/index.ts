// The public surface of @schedule/cli: the command line, and the server `schedule serve` runs, to embed.

export { type ServeOptions, type Serving, startServing } from './commands/serve.js';
export { buildProgram, run } from './program.js';
export { processHost, type Service, type ServiceHost, startService } from './service.js';
