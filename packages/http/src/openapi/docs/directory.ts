import * as example from '../examples.js';
import type { OperationDocs } from '../operation-doc.js';

/** The directory: who the caller is and what it can book. */
export const DIRECTORY_DOCS = {
  whoami: {
    tag: 'Directory',
    summary: 'Who am I',
    description: 'The caller: its user, role, credential, sorted scopes and whom it may act for. Takes no query parameters.',
    resource: 'Caller',
    responseExample: example.CALLER,
  },
  list_people: {
    tag: 'Directory',
    summary: 'List people',
    description: 'The people the caller may act for, by username.',
    resource: 'Person',
    responseExample: example.PERSON,
  },
  list_event_types: {
    tag: 'Directory',
    summary: 'List event types',
    description: 'The event types whose owner the caller may act for, by owner username and then slug, with their booking forms.',
    resource: 'EventType',
    responseExample: example.EVENT_TYPE,
  },
} satisfies OperationDocs;
