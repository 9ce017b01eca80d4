import { z } from 'zod';

/**
 * The organization's rate limits, requests per minute (docs/api/requests.md
 * "Rate limits"): by kind of caller, then the OAuth endpoints' own buckets,
 * each per client address, and sign-in attempts on the authorization pages.
 */
export const limitsSchema = z.object({
  pat_per_minute: z.int().positive().default(120),
  oauth_per_minute: z.int().positive().default(120),
  anonymous_per_minute: z.int().positive().default(30),
  oauth_authorize_per_minute: z.int().positive().default(30),
  oauth_token_per_minute: z.int().positive().default(60),
  oauth_revoke_per_minute: z.int().positive().default(60),
  oauth_introspect_per_minute: z.int().positive().default(120),
  oauth_register_per_minute: z.int().positive().default(5),
  /** The sign-in, consent and connected-apps pages: a bucket of their own, so clients polling without a token cannot crowd a host out of signing in. */
  oauth_pages_per_minute: z.int().positive().default(60),
  /** Password tries per address, and per username from anywhere (but a browser that signed in as that user before): guessing stays slow even from many addresses. */
  sign_in_per_minute: z.int().positive().default(10),
});
export type Limits = z.infer<typeof limitsSchema>;
export const DEFAULT_LIMITS: Limits = limitsSchema.parse({});
