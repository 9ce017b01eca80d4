import { type Executor, listGrants } from '@schedule/core';
import type Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';

// RFC 9700 section 4.11.2. Registration is open (MCP clients need it), so a
// client's redirect URI can be any site at all; were every error of the
// authorization endpoint sent straight back there (no PKCE, `prompt=none`, a
// resource this server does not serve, `response_type=token`), anyone could
// register once and then use this server to bounce browsers to their site
// with no page shown on the way: an open redirector. So an error is
// redirected only for a client the browser's user has reason to trust:
// one the operator registered (`registered_by: operator`), or one the host
// signed in on this browser has granted access before (a live grant of
// theirs for it in oauth_records). Any other client gets the error page
// (renderError, 400) and no redirect. Errors after the host answered the
// consent page (`access_denied`) are redirected as before: the host saw,
// on that page, where the answer goes.

/** Where the trust of the request's client is kept between the two halves below. */
const TRUSTED = 'scheduleErrorRedirectTrusted';

/** Whether the authorization request's client may have its errors redirected (see above). */
async function isTrustedClient(provider: Provider, db: Executor, ctx: KoaContextWithOIDC): Promise<boolean> {
  const clientId = ctx.query.client_id;
  if (typeof clientId !== 'string' || clientId === '') return false;
  const client = await provider.Client.find(clientId).catch(() => undefined);
  if (!client) return false;
  if (client.metadata().registered_by === 'operator') return true;
  // The library's own session cookie names who is signed in on this browser (a new, empty session when none).
  const session = await provider.Session.get(ctx).catch(() => undefined);
  const accountId = session?.accountId;
  if (!accountId) return false;
  return (await listGrants(db, { userId: accountId, clientId })).length > 0;
}

/**
 * Makes the authorization endpoint show the error page instead of
 * redirecting to a client it does not trust. The trust is looked up before
 * the library handles the request (it needs the database); the library's
 * synchronous `authorization.error` event then turns the redirect off.
 */
export function guardErrorRedirects(provider: Provider, deps: { db: Executor; authorizationPath: string }): void {
  provider.use(async (ctx, next) => {
    // GET only: the library serves the authorization endpoint by GET alone (`enableHttpPostMethods` is off).
    if (ctx.path === deps.authorizationPath && ctx.method === 'GET') {
      ctx.state[TRUSTED] = await isTrustedClient(provider, deps.db, ctx as KoaContextWithOIDC);
    }
    await next();
  });
  provider.on('authorization.error', (ctx, error) => {
    // `resume` is the same request coming back after the pages: the host has seen where it goes.
    if (ctx.oidc.route === 'authorization' && ctx.state[TRUSTED] !== true) error.allow_redirect = false;
  });
}
