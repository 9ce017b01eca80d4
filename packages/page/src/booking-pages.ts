import type { IncomingMessage, ServerResponse } from 'node:http';
import { isScheduleError, manageLinkKey, ScheduleError } from '@schedule/core';
import { admitRequest, HTTP_STATUS, lingerAfterRefusal } from '@schedule/http';
import { ASSETS_PATH, loadAssets } from './assets.js';
import { bookRoute, eventTypeRoute, formRoute, holdRoute, hostRoute, releaseRoute } from './book-routes.js';
import { cancelRoute, icsRoute, manageRoute, moveRoute, rescheduleRoute } from './manage-routes.js';
import type { BookingPagesDeps, PageContext, PageRequest } from './page-deps.js';
import { pageState } from './page-state.js';
import { sendAsset, sendPage } from './respond.js';
import { messagePage } from './views/booking-page.js';
import { layout } from './views/layout.js';
import { visitorCalls } from './visitor-calls.js';

/** The booking pages as a front end beside the API: whether a path is theirs, and the handler. */
export interface BookingPages {
  handles(path: string): boolean;
  handler(req: IncomingMessage, res: ServerResponse): void;
}

/** A route: its name for the log and metrics (a template, never the raw path), the method, and what serves it. */
interface Route {
  readonly name: string;
  readonly serve: (ctx: PageContext, r: PageRequest) => Promise<number>;
}

const SEGMENT = /^[^/]{1,200}$/;

/** Which route a method and path are (`/@alice`, `/@alice/intro`, `/@alice/intro/book`, `/booking/<token>[/…]`), or undefined. */
function routeOf(method: string, path: string): Route | undefined {
  const get = method === 'GET' || method === 'HEAD';
  const post = method === 'POST';
  const parts = path.split('/').slice(1).map(decodeSegment);
  if (parts.some((p) => p === undefined || !SEGMENT.test(p))) return undefined;
  const [first = '', second, third, fourth] = parts as string[];
  if (first.startsWith('@') && first.length > 1) {
    const username = first.slice(1);
    if (second === undefined && get) return { name: 'GET /@:username', serve: (c, r) => hostRoute(c, r, username) };
    if (second !== undefined && third === undefined && get)
      return { name: 'GET /@:username/:slug', serve: (c, r) => eventTypeRoute(c, r, username, second) };
    if (second !== undefined && third === 'book' && fourth === undefined) {
      if (get) return { name: 'GET /@:username/:slug/book', serve: (c, r) => formRoute(c, r, username, second) };
      if (post) return { name: 'POST /@:username/:slug/book', serve: (c, r) => bookRoute(c, r, username, second) };
    }
    if (second !== undefined && third === 'book' && fourth === 'hold' && parts.length === 4 && post)
      return { name: 'POST /@:username/:slug/book/hold', serve: (c, r) => holdRoute(c, r, username, second) };
    if (second !== undefined && third === 'book' && fourth === 'release' && parts.length === 4 && post)
      return { name: 'POST /@:username/:slug/book/release', serve: (c, r) => releaseRoute(c, r, username, second) };
    return undefined;
  }
  if (first === 'booking' && second !== undefined && fourth === undefined) {
    const token = second;
    if (third === undefined && get) return { name: 'GET /booking/:token', serve: (c, r) => manageRoute(c, r, token) };
    if (third === 'invite.ics' && get) return { name: 'GET /booking/:token/invite.ics', serve: (c, r) => icsRoute(c, r, token) };
    if (third === 'reschedule' && get) return { name: 'GET /booking/:token/reschedule', serve: (c, r) => rescheduleRoute(c, r, token) };
    if (third === 'reschedule' && post) return { name: 'POST /booking/:token/reschedule', serve: (c, r) => moveRoute(c, r, token) };
    if (third === 'cancel' && post) return { name: 'POST /booking/:token/cancel', serve: (c, r) => cancelRoute(c, r, token) };
  }
  return undefined;
}

function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** Whether a path is the booking pages': `/@…` and `/booking/…`, which no other front end serves (docs/booking-page.md). */
export function isPagePath(path: string): boolean {
  return path.startsWith('/@') || path.startsWith('/booking/');
}

/**
 * Builds the booking pages (docs/booking-page.md). Each request: assets
 * straight away (cached, never counted); else the anonymous rate limit of
 * the client address, the route, and its page. A refusal is a page in the
 * visitor's language with the API's status, never a server error.
 */
export function buildBookingPages(deps: BookingPagesDeps): BookingPages {
  const assets = loadAssets();
  // A page is for people without a token: a bearer header sent here counts in the address's bucket all the same.
  const admission = { ...deps, authenticate: async () => undefined };
  let key: Promise<string> | undefined;
  const ctx: PageContext = {
    deps,
    assets,
    call: visitorCalls(deps.core, deps.operations),
    key() {
      key ??= manageLinkKey(deps.core.store.db, { clock: deps.core.clock }).catch((error: unknown) => {
        // Not kept: the next request asks again once the database answers.
        key = undefined;
        throw error;
      });
      return key;
    },
  };

  /**
   * A refusal as a page: the status the API's one table gives its code
   * (@schedule/http HTTP_STATUS), and words for it in the visitor's language.
   * Anything but a refusal is logged and answered 500, never shown.
   */
  function refused(r: PageRequest, error: unknown, route: string): number {
    const state = pageState(r.url.searchParams, r.req.headers['accept-language'], 'UTC');
    const m = state.messages;
    const status = isScheduleError(error) ? HTTP_STATUS[error.code] : 500;
    if (!isScheduleError(error)) deps.logger.error({ request_id: r.requestId, route, err: error }, 'unexpected fault');
    const wait = isScheduleError(error) ? error.retryAfterSeconds : undefined;
    if (wait !== undefined) r.res.setHeader('Retry-After', String(wait));
    const [title, text] =
      status === 404
        ? [m.notFoundTitle, m.notFound]
        : status === 429
          ? [m.tooMany(wait ?? 60), m.tooMany(wait ?? 60)]
          : status === 403
            ? [m.notFromHere, m.notFromHere]
            : status < 500
              ? [m.fieldInvalid, m.fieldInvalid]
              : [m.unavailable, m.unavailable];
    // A refused body may still be arriving (a form over the limit): let it drain briefly, then drop the connection, as the API does.
    if (!r.req.complete) lingerAfterRefusal(r.req);
    if (r.res.headersSent) return status;
    sendPage(r.req, r.res, status, layout(state, assets, { title, path: r.url.pathname, main: messagePage(title, text) }), state);
    return status;
  }

  async function handle(req: IncomingMessage, res: ServerResponse, url: URL, requestId: string, seen: { route: string }) {
    const method = req.method ?? 'GET';
    if (url.pathname.startsWith(ASSETS_PATH) && (method === 'GET' || method === 'HEAD')) {
      const asset = assets.byName.get(url.pathname.slice(ASSETS_PATH.length));
      seen.route = 'GET /booking/assets/:name';
      if (asset) {
        sendAsset(req, res, asset);
        return 200;
      }
    }
    const r: PageRequest = { req, res, url, requestId, nowMs: deps.core.clock.now() };
    const route = routeOf(method, url.pathname);
    try {
      // Every page request but the assets is counted in the client address's anonymous bucket (30 a minute).
      await admitRequest(admission, req, res);
      if (!route) throw new ScheduleError('not_found', 'No such page.', {});
      seen.route = route.name;
      return await route.serve(ctx, r);
    } catch (error) {
      return refused(r, error, seen.route);
    }
  }

  return {
    handles: isPagePath,
    handler(req, res) {
      const started = performance.now();
      const requestId = deps.core.ids.uuid();
      res.setHeader('X-Request-Id', requestId);
      const url = new URL(req.url ?? '/', 'http://localhost');
      const seen = { route: 'unmatched page' };
      void handle(req, res, url, requestId, seen).then((status) => {
        const seconds = (performance.now() - started) / 1000;
        deps.observe?.(seen.route, status, seconds);
        deps.logger.info(
          { request_id: requestId, method: req.method, route: seen.route, status, duration_ms: Math.round(seconds * 100_000) / 100 },
          'request',
        );
      });
    },
  };
}
