import * as example from '../examples.js';
import type { OperationDocs } from '../operation-doc.js';

/** People and their tokens (docs/api/people.md). */
export const PEOPLE_DOCS = {
  get_person: {
    tag: 'People',
    summary: 'Get a person',
    description:
      'One person the caller may act for, by user id, username or `me`, with their version as `ETag`. Anyone else answers 404 like an unknown person.',
    resource: 'PersonDetail',
    etag: true,
    responseExample: example.PERSON_DETAIL,
  },
  create_person: {
    tag: 'People',
    summary: 'Add a person',
    description:
      'Admins and owners add a person (an owner only by an owner). A taken username is `409 username_taken`. They get a first token through `POST /v1/tokens` with `user_id`.',
    resource: 'PersonDetail',
    etag: true,
    created: true,
    requestExample: example.CREATE_PERSON_BODY,
    responseExample: example.NEW_PERSON,
  },
  update_person: {
    tag: 'People',
    summary: 'Change a person',
    description: [
      'Name, email and time zone: the person or whoever acts for them. Role and manages: admins and owners; an owner is changed only by an owner.',
      'The last active owner keeps the role (`409 last_owner`); `username` and other fields are `422 field_immutable`.',
    ].join(' '),
    resource: 'PersonDetail',
    etag: true,
    requestExample: example.UPDATE_PERSON_BODY,
    responseExample: { ...example.PERSON_DETAIL, timezone: 'Europe/Lisbon', version: 2 },
  },
  deactivate_person: {
    tag: 'People',
    summary: 'Deactivate a person',
    description:
      'Admins and owners. Their tokens stop working, their event types take no bookings; bookings and series stay. Not the last active owner.',
    resource: 'PersonDetail',
    etag: true,
    responseExample: { ...example.NEW_PERSON, deactivated_at: '2026-12-02T08:00:00.000Z', version: 2 },
  },
  reactivate_person: {
    tag: 'People',
    summary: 'Reactivate a person',
    description: 'Admins and owners. Undoes a deactivation: their tokens that were not revoked work again.',
    resource: 'PersonDetail',
    etag: true,
    responseExample: { ...example.NEW_PERSON, version: 3 },
  },
  list_tokens: {
    tag: 'People',
    summary: 'List your tokens',
    description: 'The caller’s own access tokens, oldest first, revoked ones included. Never secrets.',
    resource: 'Token',
    responseExample: example.TOKEN,
  },
  get_token: {
    tag: 'People',
    summary: 'Get a token',
    description: 'One of the caller’s tokens. Another person’s answers 404 like an unknown one.',
    resource: 'Token',
    responseExample: example.TOKEN,
  },
  create_token: {
    tag: 'People',
    summary: 'Create a token',
    description: [
      'A personal access token with scopes the calling token holds, made with a personal access token (not an OAuth grant).',
      '`secret` is shown in this answer only; a replay with the same Idempotency-Key answers `secret: null`. Admins and owners may name `user_id`.',
      'A person holds at most 100 live (unrevoked, unexpired) personal access tokens; the one past that is `409 token_limit_reached`.',
    ].join(' '),
    resource: 'TokenWithSecret',
    created: true,
    requestExample: example.CREATE_TOKEN_BODY,
    responseExample: example.CREATED_TOKEN,
  },
  revoke_token: {
    tag: 'People',
    summary: 'Revoke a token',
    description: 'Revokes one of the caller’s tokens at once; revoking a revoked one answers it unchanged.',
    resource: 'Token',
    responseExample: { ...example.TOKEN, revoked_at: '2026-12-03T08:00:00.000Z' },
  },
} satisfies OperationDocs;
