import { z } from 'zod';
import { ROLES } from '../auth/roles.js';
import { SCOPES } from '../auth/scopes.js';
import { questionSchema } from '../event-types/questions.js';
import { ON_OFF } from '../storage/schema.js';

// What a caller can learn about its own organization. docs/api has no endpoint
// for it, yet an assistant or a script needs these ids before it can book:
// the MCP server shows them as resources and tools, the CLI as commands.

export const personSchema = z.object({
  user_id: z.string(),
  username: z.string(),
  name: z.string(),
  email: z.string(),
  timezone: z.string(),
  role: z.enum(ROLES),
});
export type Person = z.infer<typeof personSchema>;

/** The caller: who the token acts as, what it may do, and for whom. */
export const callerSchema = personSchema.extend({
  credential: z.enum(['pat', 'oauth']),
  scopes: z.array(z.enum(SCOPES)),
  /** `organization` for owners and admins; else the user ids the caller may act for. */
  acts_for: z.union([z.literal('organization'), z.array(z.string())]),
});
export type Caller = z.infer<typeof callerSchema>;

export const eventTypeSummarySchema = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  owner: z.object({ user_id: z.string(), username: z.string() }),
  duration_minutes: z.int(),
  status: z.enum(ON_OFF),
  recurring: z.enum(ON_OFF),
  allow_reschedule: z.boolean(),
  minimum_notice_minutes: z.int(),
  cancel_notice_minutes: z.int(),
  reschedule_notice_minutes: z.int(),
  future_limit_days: z.int(),
  /** The zone the owner's working hours are read in. */
  timezone: z.string(),
  /** The booking form: answers go in a booking's `responses`, keyed by question id. */
  questions: z.array(questionSchema),
  booking_url: z.string().nullable().meta({
    description: 'Its booking page, where anyone with the link books it; null when it is private or deleted, or no server serves pages.',
  }),
});
export type EventTypeSummary = z.infer<typeof eventTypeSummarySchema>;
