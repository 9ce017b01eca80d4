import { z } from 'zod';
import { ScheduleError } from '../errors.js';
import { didYouMean } from '../validation/closest-name.js';
import { bodyObject, parseBody } from '../validation/parse-body.js';
import { personEmail, personName, personRefs, personReminders, personTimeZone, role, username } from './person-fields.js';

/** The body of `POST /v1/people`. */
export const createPersonBodySchema = z.object({
  username,
  email: personEmail,
  name: personName,
  timezone: personTimeZone.optional().meta({ description: 'An IANA time zone; UTC if omitted.' }),
  role: role.optional().meta({ description: 'user (the default), manager, admin, or owner (only an owner grants it).' }),
  manages: personRefs.optional(),
  reminders: personReminders.optional().meta({ description: 'true (the default): the reminders their event types set go out.' }),
});
export type CreatePersonBody = z.output<typeof createPersonBodySchema>;

/** The body of `PATCH /v1/people/:user_id`: send only what changes. */
export const updatePersonBodySchema = z.object({
  name: personName.optional(),
  email: personEmail.optional(),
  timezone: personTimeZone.optional(),
  role: role.optional().meta({ description: 'Admins and owners only; owner is granted and taken by an owner.' }),
  manages: personRefs.optional().meta({ description: 'Replaces the list; admins and owners only.' }),
  reminders: personReminders.optional(),
});
export type UpdatePersonBody = z.output<typeof updatePersonBodySchema>;
const PATCHABLE = Object.keys(updatePersonBodySchema.shape);

/** The fields a person's profile holds, which they (and whoever acts for them) may change. */
export const PROFILE_FIELDS = ['name', 'email', 'timezone', 'reminders'] as const;

export function parseCreatePersonBody(body: unknown): CreatePersonBody {
  return parseBody(createPersonBodySchema, body);
}

/**
 * Checks a PATCH body. A key that is not a person's changeable field
 * (`username`, `user_id`, `version`, a typo) is `422 field_immutable`, as a
 * booking PATCH answers: a username is how files and commands name a person.
 */
export function parseUpdatePersonBody(body: unknown): UpdatePersonBody {
  const immutable = Object.keys(bodyObject(body)).filter((key) => !PATCHABLE.includes(key));
  if (immutable.length > 0) {
    throw new ScheduleError(
      'field_immutable',
      `These fields cannot be patched: ${immutable.join(', ')}. Send any of ${PATCHABLE.join(', ')}.${didYouMean(immutable, PATCHABLE)}`,
      { fields: immutable },
    );
  }
  const patch = parseBody(updatePersonBodySchema, body);
  if (Object.keys(patch).length === 0) {
    throw new ScheduleError('validation_error', `Send at least one of ${PATCHABLE.join(', ')}.`, { fields: [] });
  }
  return patch;
}
