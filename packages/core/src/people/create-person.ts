import type { Principal } from '../auth/principal.js';
import type { Clock } from '../clock.js';
import { ScheduleError } from '../errors.js';
import type { IdGenerator } from '../ids.js';
import { recordEvent } from '../outbox/record-event.js';
import type { Executor } from '../storage/store.js';
import { toTimestamp } from '../time.js';
import { managedIds } from './manages.js';
import type { CreatePersonBody } from './person-input.js';
import { requireAdmin, requireOwnerFor } from './person-rules.js';
import { type PersonDetail, toPerson } from './person-view.js';

/**
 * Adds a person to the organization (admins and owners; an owner only by an
 * owner), with `person.created` in the same transaction. They have no token
 * yet: docs/api/people.md "Onboarding" says how they get their first.
 */
export async function createPerson(
  trx: Executor,
  deps: { clock: Clock; ids: IdGenerator },
  principal: Principal,
  body: CreatePersonBody,
): Promise<PersonDetail> {
  requireAdmin(principal, 'add people');
  const role = body.role ?? 'user';
  // Stryker disable next-line ObjectLiteral,StringLiteral: a new person is no one yet; any target but an owner leaves only the granted role to judge.
  requireOwnerFor(principal, { role: 'user' }, role);
  const taken = await trx.selectFrom('users').select('id').where('username', '=', body.username).executeTakeFirst();
  if (taken) throw new ScheduleError('username_taken', `The username "${body.username}" is taken.`, { username: body.username });
  const now = toTimestamp(deps.clock.now());
  const row = await trx
    .insertInto('users')
    .values({
      id: deps.ids.uuid(),
      username: body.username,
      email: body.email,
      name: body.name,
      timezone: body.timezone ?? 'UTC',
      role,
      manages_json: JSON.stringify(await managedIds(trx, body.manages ?? [])),
      schedule_json: null,
      calendars_json: '[]',
      reminders: body.reminders === false ? 0 : 1,
      version: 1,
      deactivated_at: null,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const person = toPerson(row);
  await recordEvent(trx, deps, 'person.created', person.user_id, person);
  return person;
}
