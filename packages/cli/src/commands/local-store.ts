import { CliError } from '../backend/backend.js';
import type { EmbeddedBackend } from '../backend/embedded.js';
import type { RunContext } from '../command-context.js';

/**
 * The database of the commands that work on the server's own records
 * (tokens, passwords, OAuth clients): no API makes those, so they need the
 * database, not a token. `what` starts the refusal: "Tokens are made".
 */
export function localStore(ctx: RunContext, what: string) {
  if (ctx.backend.mode !== 'embedded')
    throw new CliError('usage', `${what} on the server's database: use --db (or $DATABASE_URL), not --api-url.`);
  return (ctx.backend as EmbeddedBackend).store;
}
