import { openStore, setPassword, systemClock } from '@schedule/core';

// A user agent for the authorization pages that is not a browser: it keeps
// cookies, follows redirects on this server, and fills in the sign-in and
// consent forms as a host would. The Chromium test drives the same pages in
// a real browser; this one is for the many flows the other tests run.

/** Sets a user's sign-in password straight on the server's database (what `schedule passwords set` does). */
export async function setUserPassword(db: string, user: string, password: string): Promise<void> {
  const store = await openStore(db);
  try {
    await setPassword(store.db, { clock: systemClock }, user, password);
  } finally {
    await store.close();
  }
}

export interface PageResponse {
  readonly status: number;
  readonly url: string;
  readonly headers: Headers;
  readonly body: string;
}

/** The hidden anti-forgery token and the action of the page's first form. */
export function formOf(page: PageResponse): { action: string; csrf: string } {
  const action = /<form method="post" action="([^"]+)"/.exec(page.body)?.[1];
  const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)?.[1];
  if (!action || !csrf) throw new Error(`no form on ${page.url} (${page.status}): ${page.body.slice(0, 300)}`);
  return { action: action.replace(/&#38;/g, '&'), csrf };
}

export class TestBrowser {
  private readonly jar = new Map<string, string>();

  /** `headers` go with every request: what a proxy in front of the server adds for this browser (`X-Forwarded-For`), say. */
  constructor(
    private readonly origin: string,
    private readonly headers: Record<string, string> = {},
  ) {}

  private remember(headers: Headers): void {
    for (const line of headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=Thu, 01 Jan 1970/i.test(a));
      if (expired || value === '') this.jar.delete(name);
      else this.jar.set(name, value);
    }
  }

  private cookieHeader(): string {
    return [...this.jar].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  hasCookie(name: string): boolean {
    return this.jar.has(name);
  }

  /** A cookie's value as this browser holds it. */
  cookie(name: string): string | undefined {
    return this.jar.get(name);
  }

  /** One request, no redirect followed; `headers` add to (or override) the browser's own. */
  async request(
    url: string,
    init: { method?: string; form?: Record<string, string | string[]>; headers?: Record<string, string> } = {},
  ): Promise<PageResponse> {
    const absolute = new URL(url, this.origin).toString();
    const headers: Record<string, string> = { ...this.headers, cookie: this.cookieHeader(), ...init.headers };
    let body: string | undefined;
    if (init.form) {
      const params = new URLSearchParams();
      for (const [name, value] of Object.entries(init.form)) for (const v of [value].flat()) params.append(name, v);
      body = params.toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    }
    const res = await fetch(absolute, { method: init.method ?? (body ? 'POST' : 'GET'), headers, body, redirect: 'manual' });
    this.remember(res.headers);
    return { status: res.status, url: absolute, headers: res.headers, body: await res.text() };
  }

  /** Follows redirects while they stay on this server; a redirect elsewhere (the app's redirect URI) is returned as `url` with status 302/303. */
  async follow(first: PageResponse): Promise<PageResponse> {
    let page = first;
    for (let hops = 0; hops < 10; hops++) {
      const location = page.headers.get('location');
      if (page.status < 300 || page.status >= 400 || !location) return page;
      const next = new URL(location, page.url);
      if (next.origin !== new URL(this.origin).origin) return { ...page, url: next.toString() };
      page = await this.request(next.toString());
    }
    throw new Error('too many redirects');
  }

  async open(url: string): Promise<PageResponse> {
    return this.follow(await this.request(url));
  }

  async submit(page: PageResponse, fields: Record<string, string | string[]>): Promise<PageResponse> {
    const { action, csrf } = formOf(page);
    return this.follow(await this.request(action, { form: { csrf, ...fields } }));
  }
}

export interface Authorization {
  /** Where the app was sent back to: its redirect URI with `code`, `state` and `iss` (or `error`). */
  readonly redirectedTo: URL;
}

/**
 * Opens an authorization URL as a host: signs in if asked, then on the
 * consent page keeps every scope but `untick` and allows (or denies).
 */
export async function authorizeAsHost(
  browser: TestBrowser,
  authorizationUrl: string,
  host: { username: string; password: string },
  choice: { untick?: readonly string[]; deny?: boolean } = {},
): Promise<Authorization> {
  let page = await browser.open(authorizationUrl);
  if (page.body.includes('name="password"')) page = await browser.submit(page, { username: host.username, password: host.password });
  if (page.body.includes('name="decision"')) {
    const offered = [...page.body.matchAll(/name="scope" value="([^"]+)"/g)].map((m) => m[1] as string);
    const kept = offered.filter((s) => !choice.untick?.includes(s));
    page = await browser.submit(page, { scope: kept, decision: choice.deny ? 'deny' : 'allow' });
  }
  if (page.status < 300 || page.status >= 400)
    throw new Error(`authorization ended on a page (${page.status}): ${page.body.slice(0, 400)}`);
  return { redirectedTo: new URL(page.url) };
}
