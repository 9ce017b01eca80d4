import { z } from 'zod';

/** The organization's rate limits, requests per minute by kind of caller (docs/api/requests.md "Rate limits"). */
export const limitsSchema = z.object({
  pat_per_minute: z.int().positive().default(120),
  oauth_per_minute: z.int().positive().default(120),
  anonymous_per_minute: z.int().positive().default(30),
});
export type Limits = z.infer<typeof limitsSchema>;
export const DEFAULT_LIMITS: Limits = { pat_per_minute: 120, oauth_per_minute: 120, anonymous_per_minute: 30 };
