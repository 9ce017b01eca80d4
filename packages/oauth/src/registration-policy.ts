import type { ClientMetadata, errors as LibraryErrors } from 'oidc-provider';
import { isLoopbackRedirect } from './redirect-destination.js';

type Errors = typeof LibraryErrors;

/**
 * What a client may say about itself when it registers (RFC 7591), run by
 * the library as its `extraClientMetadata.validator` on each registration.
 * Operator-registered clients are written by core (the CLI, the workspace
 * file) and are never checked here: the library calls this without a
 * request for clients it reads back from the database.
 */
export function registrationPolicy(errors: Errors) {
  return (ctx: unknown, key: string, value: unknown, metadata: ClientMetadata): void => {
    if (ctx === undefined || key !== 'registered_by') return;
    // Only core writes this, for the operator's clients; a self-registered client claiming it would pass for trusted (error-redirects.ts).
    if (value !== undefined) throw new errors.InvalidClientMetadata('registered_by is not client metadata; it is set by this server');
    const uris = Array.isArray(metadata.redirect_uris) ? metadata.redirect_uris.filter((uri) => typeof uri === 'string') : [];
    // OAuth 2.1 section 2.3.1 and the MCP authorization spec: plain http is for loopback only; anywhere else the code would travel in clear.
    for (const uri of uris) {
      if (URL.parse(uri)?.protocol === 'http:' && !isLoopbackRedirect(uri)) {
        throw new errors.InvalidClientMetadata('redirect_uris may use http only on this machine (127.0.0.1, [::1], localhost); use https');
      }
    }
    // A desktop app (most MCP clients) picks a free port each time and rarely says `application_type: native`; an app whose
    // redirects all come back to this machine is one (RFC 8252 section 7.3), so any loopback port is accepted, as for the
    // operator's clients (core's clientMetadata).
    if (uris.length > 0 && uris.every(isLoopbackRedirect)) metadata.application_type = 'native';
  };
}
