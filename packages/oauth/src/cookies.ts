import type { IncomingMessage, ServerResponse } from 'node:http';

// The pages' own cookies (the host session, the sign-in form's pre-session,
// the known-browser mark), read and written in one way. None is ever read
// by script (HttpOnly), and each is sent back only along its path.

/** A cookie's value as the browser sent it, or undefined. */
export function readCookie(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}

export interface CookieOptions {
  readonly path: string;
  /** Lax lets a link from another site arrive signed in; Strict is for cookies only our own pages' forms need. */
  readonly sameSite: 'Lax' | 'Strict';
  /** 0 deletes the cookie. */
  readonly maxAgeSeconds: number;
  /** Whether the request came over https (host-session.ts `isSecure`): then the cookie never travels over plain http. */
  readonly secure: boolean;
}

/** Adds a Set-Cookie line to the answer, keeping those already there. */
export function appendCookie(res: ServerResponse, name: string, value: string, options: CookieOptions): void {
  const attributes = [
    `${name}=${value}`,
    `Path=${options.path}`,
    'HttpOnly',
    `SameSite=${options.sameSite}`,
    `Max-Age=${options.maxAgeSeconds}`,
  ];
  if (options.secure) attributes.push('Secure');
  const existing = res.getHeader('Set-Cookie');
  const list = Array.isArray(existing) ? existing : existing === undefined ? [] : [String(existing)];
  res.setHeader('Set-Cookie', [...list, attributes.join('; ')]);
}
