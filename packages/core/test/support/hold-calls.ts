import type { Principal } from '../../src/auth/principal.js';
import { type ExecuteDeps, type Executed, execute } from '../../src/operations/execute.js';
import { createHoldOperation, releaseHoldOperation } from '../../src/operations/hold-operations.js';

// The hold endpoints, called as every front end calls them: through `execute`.

export const createHold = (deps: ExecuteDeps, principal: Principal, body: unknown, key = 'key-hold'): Promise<Executed> =>
  execute(deps, createHoldOperation, principal, { params: {}, query: {}, body, idempotencyKey: key }, `req-${key}`);

export const releaseHold = (deps: ExecuteDeps, principal: Principal, id: string, key?: string): Promise<Executed> =>
  execute(deps, releaseHoldOperation, principal, { params: { id }, query: {}, body: undefined, idempotencyKey: key }, `req-release`);

/** What a call answered: its status, or the code it was refused with. */
export async function outcomeOf(call: Promise<Executed>): Promise<number | string> {
  try {
    return (await call).outcome.status;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    throw error;
  }
}
