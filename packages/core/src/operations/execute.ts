import type { Principal } from '../auth/principal.js';
import { fingerprintOf } from '../canonical-json.js';
import { ScheduleError } from '../errors.js';
import {
  checkKeyShape,
  completeKey,
  type IdempotencyDeps,
  type Reservation,
  releaseKey,
  reserveKey,
  type StoredResponse,
} from '../idempotency/idempotency.js';
import { checkRawCallBounds } from '../validation/raw-call-bounds.js';
import { refuseUnknownFields } from '../validation/unknown-fields.js';
import { missingIfMatch, missingParam } from './call-parts.js';
import type { CoreDeps, Operation, Outcome, RawCall } from './operation.js';

export interface ExecuteDeps extends CoreDeps {
  /** See IdempotencyDeps.leaseMs. */
  readonly idempotencyLeaseMs: number;
}

/** A finished call: the outcome, and whether it is the replay of an earlier one. */
export interface Executed {
  readonly outcome: Outcome;
  /** The id of the request whose work this is; the first request's on a replay. */
  readonly requestId: string;
  readonly replayed: boolean;
}

/** The path with its parameters filled in, which idempotency fingerprints cover. */
function concretePath(operation: Operation, params: Readonly<Record<string, string>>): string {
  // Stryker disable next-line StringLiteral: execute refuses a call without its path parameters before any key is fingerprinted; '' only satisfies the type.
  return operation.path.replace(/:([a-z_]+)/g, (_, name: string) => params[name] ?? '');
}

/**
 * Runs one operation for a caller, applying the cross-cutting rules in the
 * spec's order: scope, required headers, input validation, idempotency, then
 * the work. Every front end calls this; none re-implements a rule.
 */
export async function execute(
  deps: ExecuteDeps,
  operation: Operation,
  principal: Principal,
  call: RawCall,
  requestId: string,
  /**
   * A front end's last word once the call is known to be whole (scope,
   * headers, fields and values checked) and before anything is written or
   * replayed: the MCP server asks its user to confirm a destructive call
   * here, and a throw ends the call with nothing done.
   */
  beforeWork?: () => Promise<void>,
): Promise<Executed> {
  if (operation.scope !== null && !principal.scopes.has(operation.scope)) {
    throw new ScheduleError('insufficient_scope', `This token lacks the scope ${operation.scope}.`, {
      required_scope: operation.scope,
    });
  }
  // What any token may ask (scope null: who am I, my directory) is not for the booking page's visitor, who holds none (auth/visitor.ts).
  if (operation.scope === null && principal.credential.kind === 'visitor') {
    throw new ScheduleError('insufficient_scope', 'A visitor of the booking page may not call this.', { required_scope: null });
  }
  const key = operation.idempotencyKey === 'none' ? undefined : call.idempotencyKey;
  if (operation.idempotencyKey === 'required' && key === undefined) {
    throw new ScheduleError('missing_idempotency_key', (w) => `${w.call} requires ${w.carried.idempotency_key}.`);
  }
  if (key !== undefined) checkKeyShape(key);
  if (operation.ifMatch === 'required' && call.ifMatch === undefined) {
    throw missingIfMatch();
  }

  checkRawCallBounds(call);
  // A write takes the fields its body schema declares and no others, before
  // any value is judged: a misspelled field is named as such rather than
  // dropped. A PATCH judges its own keys (docs/api: field_immutable, invalid_change).
  if (operation.method !== 'GET') refuseUnknownFields(operation.schemas.input, call.body, { ownKeys: operation.method !== 'PATCH' });
  // HTTP cannot route a call without its path parameters; a tool can be called without them,
  // and must hear which one is missing rather than that no resource has an empty id.
  for (const name of operation.schemas.params) {
    if (!Object.hasOwn(call.params, name)) throw missingParam(name);
  }
  const input = operation.parse(call);
  await beforeWork?.();

  let reservation: Reservation | undefined;
  if (key !== undefined) {
    const idempotency: IdempotencyDeps = { ...deps, leaseMs: deps.idempotencyLeaseMs };
    const fingerprint = fingerprintOf({
      route: `${operation.method} ${concretePath(operation, call.params)}`,
      body: call.body ?? null,
    });
    const reserved = await reserveKey(idempotency, { accountId: principal.account.id, key }, fingerprint);
    if (reserved.kind === 'replay') {
      const { status, data, version, location, requestId: original } = reserved.response;
      return { outcome: { status, data, version, location }, requestId: original, replayed: true };
    }
    reservation = reserved.reservation;
  }

  const stored = (outcome: Outcome): StoredResponse => ({
    status: outcome.status,
    data: outcome.replayData === undefined ? outcome.data : outcome.replayData,
    version: outcome.version,
    location: outcome.location,
    requestId,
  });
  let completed = false;
  try {
    const outcome = await operation.run(
      {
        deps,
        principal,
        requestId,
        source: call.source ?? 'api',
        write: (work) =>
          deps.store.db.transaction().execute(async (trx) => {
            const outcome = await work(trx);
            if (reservation) await completeKey(trx, reservation, stored(outcome));
            // Stryker disable next-line BooleanLiteral: left false, the answer is completed again below with the same lease and the same response, which stores the same row.
            completed = true;
            return outcome;
          }),
      },
      input,
    );
    if (reservation && !completed) {
      // An operation that answered without writing (nothing to change) is remembered all the same.
      const held = reservation;
      await deps.store.db.transaction().execute((trx) => completeKey(trx, held, stored(outcome)));
    }
    return { outcome, requestId, replayed: false };
  } catch (error) {
    // Stryker disable next-line ConditionalExpression: without a reservation releaseKey rejects on reading it, and the catch drops that too.
    if (reservation) await releaseKey(deps, reservation).catch(() => {});
    throw error;
  }
}
