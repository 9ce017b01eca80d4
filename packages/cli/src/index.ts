// The public surface of @schedule/cli, for embedding the command line.

export { type ServeOptions, type Serving, startServing } from './commands/serve.js';
export { buildProgram, run } from './program.js';
export { processHost, type Service, type ServiceHost, startService } from './service.js';
