import { createPerson } from '../people/create-person.js';
import { findVisiblePerson } from '../people/find-person.js';
import { createPersonBodySchema, parseCreatePersonBody, parseUpdatePersonBody, updatePersonBodySchema } from '../people/person-input.js';
import { personDetailSchema, toPerson } from '../people/person-view.js';
import { type PersonWriteDeps, setPersonActive, updatePerson } from '../people/update-person.js';
import { pathParam, requiredIfMatch } from './call-parts.js';
import { defineOperation, type OperationContext } from './operation.js';

// docs/api/people.md. Seeing a person takes no scope, as the directory list
// does; changing one takes people:write and the role rules of people/person-rules.ts.

function personDeps(ctx: OperationContext): PersonWriteDeps {
  return { clock: ctx.deps.clock, ids: ctx.deps.ids, dialect: ctx.deps.store.dialect };
}

const userIdParam = (params: Readonly<Record<string, string>>) => ({ ref: pathParam(params, 'user_id') });

export const getPersonOperation = defineOperation({
  name: 'get_person',
  method: 'GET',
  path: '/v1/people/:user_id',
  scope: null,
  idempotencyKey: 'none',
  ifMatch: 'none',
  errors: ['person_not_found'],
  schemas: { params: ['user_id'], output: personDetailSchema, list: false },
  parse: (call) => userIdParam(call.params),
  async run(ctx, { ref }) {
    const person = toPerson(await findVisiblePerson(ctx.deps.store.db, ctx.principal, ref));
    return { status: 200, data: person, version: person.version };
  },
});

export const createPersonOperation = defineOperation({
  name: 'create_person',
  method: 'POST',
  path: '/v1/people',
  scope: 'people:write',
  idempotencyKey: 'required',
  ifMatch: 'none',
  errors: ['validation_error', 'forbidden', 'username_taken'],
  schemas: { params: [], input: createPersonBodySchema, output: personDetailSchema, list: false },
  parse: (call) => parseCreatePersonBody(call.body),
  async run(ctx, body) {
    return ctx.write(async (trx) => {
      const person = await createPerson(trx, personDeps(ctx), ctx.principal, body);
      return { status: 201, data: person, version: person.version, location: `/v1/people/${person.user_id}` };
    });
  },
});

export const updatePersonOperation = defineOperation({
  name: 'update_person',
  method: 'PATCH',
  path: '/v1/people/:user_id',
  scope: 'people:write',
  idempotencyKey: 'optional',
  ifMatch: 'required',
  errors: ['validation_error', 'forbidden', 'person_not_found', 'version_conflict', 'last_owner', 'field_immutable'],
  schemas: { params: ['user_id'], input: updatePersonBodySchema, output: personDetailSchema, list: false },
  parse: (call) => ({ ...userIdParam(call.params), ifMatch: requiredIfMatch(call), patch: parseUpdatePersonBody(call.body) }),
  async run(ctx, { ref, ifMatch, patch }) {
    const outcome = await ctx.write(async (trx) => {
      const person = await updatePerson(trx, personDeps(ctx), ctx.principal, ref, ifMatch, patch);
      return { status: 200, data: person, version: person.version };
    });
    // A role or a manager's list is part of every token lookup of the person: this process reads it afresh.
    ctx.deps.tokenCache?.clear();
    return outcome;
  },
});

function activeOperation<const Name extends string>(name: Name, action: 'deactivate' | 'reactivate') {
  return defineOperation({
    name,
    method: 'POST',
    path: `/v1/people/:user_id/${action}`,
    scope: 'people:write',
    // A retry with the same key answers the first call again; without one, a repeat answers the person unchanged.
    idempotencyKey: 'optional',
    ifMatch: 'none',
    errors:
      action === 'deactivate'
        ? ['forbidden', 'person_not_found', 'version_conflict', 'last_owner']
        : ['forbidden', 'person_not_found', 'version_conflict'],
    schemas: { params: ['user_id'], output: personDetailSchema, list: false },
    parse: (call) => userIdParam(call.params),
    async run(ctx, { ref }) {
      const outcome = await ctx.write(async (trx) => {
        const person = await setPersonActive(trx, personDeps(ctx), ctx.principal, ref, action === 'reactivate');
        return { status: 200, data: person, version: person.version };
      });
      // This process stops (or resumes) accepting their tokens from the next call; others within TOKEN_CACHE_MS.
      ctx.deps.tokenCache?.clear();
      return outcome;
    },
  });
}

export const deactivatePersonOperation = activeOperation('deactivate_person', 'deactivate');
export const reactivatePersonOperation = activeOperation('reactivate_person', 'reactivate');
