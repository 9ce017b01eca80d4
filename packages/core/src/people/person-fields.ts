import { z } from 'zod';
import { ROLES } from '../auth/roles.js';
import { timeZone } from '../validation/fields.js';

// The fields of a person, declared once: the workspace file's `users[]`
// (workspace/workspace-schema.ts) and the API's people bodies (person-input.ts)
// take them from here, so a file and a request are judged by the same rules.

export const username = z
  .string()
  .regex(/^[a-z0-9][a-z0-9._-]{0,62}$/i, 'must be letters, digits, dot, dash or underscore')
  .meta({ description: 'Up to 63 letters, digits, dot, dash or underscore; unique. Cannot change.', examples: ['alice'] });

export const personEmail = z.email().max(254, 'must be at most 254 characters').meta({ description: 'Where their mail goes.' });

export const personName = z.string().min(1).max(255).meta({ description: 'Their name, as attendees see it.' });

export const personTimeZone = timeZone;

export const role = z.enum(ROLES).meta({ description: 'user, manager, admin or owner: whom they may act for.' });

/** People named by username or user id (a manager's `manages`). */
export const personRefs = z.array(z.string().min(1)).meta({ description: 'Usernames or user ids of the people a manager manages.' });

/** A host's switch for every reminder of the meetings they host (docs/reminders.md). */
export const personReminders = z
  .boolean()
  .meta({ description: 'false: no reminders for the meetings they host, to them or their attendees (docs/reminders.md).' });
