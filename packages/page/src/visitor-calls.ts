import { type ExecuteDeps, execute, type Operation, type Principal, type RawCall } from '@schedule/core';

/** The operations the page calls, by their registry names: nothing else is reachable from it. */
export const PAGE_OPERATIONS = [
  'list_slots',
  'create_booking',
  'create_hold',
  'release_hold',
  'create_series',
  'preview_series',
  'get_booking',
  'reschedule_booking',
  'cancel_booking',
] as const;
export type PageOperation = (typeof PAGE_OPERATIONS)[number];

/** Runs a registry operation for a visitor, as `/v1` runs it for a token holder: one `execute`, with `source: "public"`. */
export type VisitorCall = (name: PageOperation, principal: Principal, call: Omit<RawCall, 'source'>, requestId: string) => Promise<unknown>;

export function visitorCalls(core: ExecuteDeps, operations: readonly Operation[]): VisitorCall {
  const byName = new Map(operations.filter((o) => (PAGE_OPERATIONS as readonly string[]).includes(o.name)).map((o) => [o.name, o]));
  const missing = PAGE_OPERATIONS.filter((name) => !byName.has(name));
  if (missing.length > 0) throw new Error(`The booking page needs the operations ${missing.join(', ')}.`);
  return async (name, principal, call, requestId) => {
    const executed = await execute(core, byName.get(name)!, principal, { ...call, source: 'public' }, requestId);
    return executed.outcome.data;
  };
}
