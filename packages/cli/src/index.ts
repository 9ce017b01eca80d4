// The public surface of @schedule/cli, for embedding the command line.

export { buildProgram, run } from './program.js';
