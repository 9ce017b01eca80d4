import { z } from 'zod';
import { SCOPES } from '../auth/scopes.js';
import { instant } from '../validation/fields.js';
import { parseBody } from '../validation/parse-body.js';

/** The body of `POST /v1/tokens`. */
export const createTokenBodySchema = z.object({
  name: z.string().min(1).max(100).meta({ description: 'A label for people, at most 100 characters.' }),
  scopes: z
    .array(z.enum(SCOPES))
    .min(1, 'must name at least one scope')
    .meta({ description: 'Some of the scopes the calling token holds.' }),
  expires_at: instant.optional().meta({ description: 'When it stops working; never if omitted. Must be in the future.' }),
  user_id: z
    .string()
    .min(1)
    .optional()
    .meta({ description: "Whose token (id or username): admins and owners only; the caller's own if omitted." }),
});
export type CreateTokenBody = z.output<typeof createTokenBodySchema>;

export function parseCreateTokenBody(body: unknown): CreateTokenBody {
  return parseBody(createTokenBodySchema, body);
}
