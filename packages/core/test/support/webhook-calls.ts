import type { Principal } from '../../src/auth/principal.js';
import type { Clock } from '../../src/clock.js';
import { randomIds } from '../../src/ids.js';
import { type ExecuteDeps, type Executed, execute } from '../../src/operations/execute.js';
import type { Operation, RawCall } from '../../src/operations/operation.js';
import { operationsByName } from '../../src/operations/registry.js';
import type { WebhookDeliveriesTable } from '../../src/storage/schema.js';
import type { Store } from '../../src/storage/store.js';
import { loadWorkspace } from '../../src/workspace/load-workspace.js';
import { parseWorkspace } from '../../src/workspace/parse-workspace.js';
import { principalOf } from './organization.js';

// The webhook endpoints, called the way every front end calls them: through
// `execute` with a raw call, as one of a few users whose tokens differ only
// in scopes. Writes get a fresh key unless a test passes one to replay.

export const WH_USERS = {
  ann: 'a0000000-0000-4000-8000-00000000000a',
  ben: 'a0000000-0000-4000-8000-00000000000b',
  ada: 'a0000000-0000-4000-8000-00000000000c',
} as const;

export const WH_TOKENS = {
  ann: 'pat_ann_webhooks_rw_x',
  annRead: 'pat_ann_webhooks_read',
  annBookings: 'pat_ann_bookings_only',
  ben: 'pat_ben_webhooks_rw_x',
  ada: 'pat_ada_admin_webhooks',
} as const;

export type WhCaller = keyof typeof WH_TOKENS;

const RW = ['webhooks:read', 'webhooks:write'];

/** Two plain users and an admin (who acts for the organization, and still sees only her own webhooks). */
export function webhookWorkspace(): Record<string, unknown> {
  return {
    organization: { name: 'Hooks' },
    users: [
      { id: WH_USERS.ann, username: 'ann', email: 'ann@hooks.test', name: 'Ann', role: 'user' },
      { id: WH_USERS.ben, username: 'ben', email: 'ben@hooks.test', name: 'Ben', role: 'user' },
      { id: WH_USERS.ada, username: 'ada', email: 'ada@hooks.test', name: 'Ada', role: 'admin' },
    ],
    tokens: [
      { name: 'ann', user: 'ann', secret: WH_TOKENS.ann, scopes: RW },
      { name: 'ann-read', user: 'ann', secret: WH_TOKENS.annRead, scopes: ['webhooks:read'] },
      { name: 'ann-bookings', user: 'ann', secret: WH_TOKENS.annBookings, scopes: ['bookings:read'] },
      { name: 'ben', user: 'ben', secret: WH_TOKENS.ben, scopes: RW },
      { name: 'ada', user: 'ada', secret: WH_TOKENS.ada, scopes: RW },
    ],
  };
}

/** Loads the workspace and answers every caller's principal. */
export async function loadWebhookWorkspace(deps: { store: Store; clock: Clock }): Promise<Record<WhCaller, Principal>> {
  await loadWorkspace({ ...deps, ids: randomIds }, parseWorkspace(JSON.stringify(webhookWorkspace())));
  const who = {} as Record<WhCaller, Principal>;
  for (const name of Object.keys(WH_TOKENS) as WhCaller[]) who[name] = await principalOf(deps, WH_TOKENS[name]);
  return who;
}

let counter = 0;

/** A call of one webhook operation; a write that takes a key gets a fresh one unless `key` is given (null: none). */
export function callWebhooks(
  deps: ExecuteDeps,
  principal: Principal,
  name: keyof typeof operationsByName,
  call: Partial<RawCall> & { key?: string | null } = {},
): Promise<Executed> {
  const operation = operationsByName[name] as Operation;
  const { key, ...rest } = call;
  const idempotencyKey = key === null ? undefined : (key ?? (operation.idempotencyKey === 'none' ? undefined : `wh-${++counter}`));
  return execute(deps, operation, principal, { params: {}, query: {}, body: undefined, ...rest, idempotencyKey }, `req-${++counter}`);
}

/** A delivery row as the deliverer would have left it; the management API only reads and resets these. */
export async function seedDelivery(
  store: Store,
  row: Pick<WebhookDeliveriesTable, 'id' | 'webhook_id' | 'event_id' | 'created_at'> &
    Partial<Omit<WebhookDeliveriesTable, 'attempts'> & { attempts: number }>,
): Promise<void> {
  await store.db
    .insertInto('webhook_deliveries')
    .values({
      event_type: 'booking.created',
      payload_json: JSON.stringify({ type: 'booking.created', id: row.event_id, created_at: row.created_at, data: {} }),
      status: 'pending',
      attempts: 0,
      next_attempt_at: row.created_at,
      lease: null,
      locked_until: null,
      last_status_code: null,
      last_response_body: null,
      last_error: null,
      delivered_at: null,
      ...row,
    })
    .execute();
}
