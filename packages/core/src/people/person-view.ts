import type { Selectable } from 'kysely';
import { z } from 'zod';
import { personSchema } from '../directory/directory-view.js';
import type { UsersTable } from '../storage/schema.js';
import { shownInstant } from '../validation/fields.js';

// A person as `GET /v1/people/:user_id` shows them (docs/api/people.md): the
// directory's fields and what only one person's answer carries.

export const personDetailSchema = personSchema
  .extend({
    manages: z.array(z.string()).meta({ description: 'User ids a manager acts for besides themself.' }),
    reminders: z.boolean().meta({ description: 'false: no reminders go out for the meetings they host.' }),
    deactivated_at: shownInstant.nullable().meta({ description: 'When they were deactivated; null while active.' }),
    version: z.int().meta({ description: 'Starts at 1; each change adds one. Shown as ETag.' }),
    created_at: shownInstant,
    updated_at: shownInstant,
  })
  .meta({ description: 'A person of the organization.' });
export type PersonDetail = z.infer<typeof personDetailSchema>;

export type PersonRow = Selectable<UsersTable>;

export function toPerson(row: PersonRow): PersonDetail {
  return {
    user_id: row.id,
    username: row.username,
    name: row.name,
    email: row.email,
    timezone: row.timezone,
    role: row.role,
    manages: JSON.parse(row.manages_json) as string[],
    reminders: row.reminders !== 0,
    deactivated_at: row.deactivated_at,
    version: row.version,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
