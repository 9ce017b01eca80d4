import type { Operation } from '@schedule/core';
import FindMyWay from 'find-my-way';

const METHODS = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'] as const;

export type RouteMatch =
  | { readonly kind: 'operation'; readonly operation: Operation; readonly params: Record<string, string> }
  | { readonly kind: 'method_not_allowed'; readonly allow: readonly string[] }
  | { readonly kind: 'not_found' };

/** Routes each operation's method and path to it; knows which methods a path allows. */
export function buildRouter(operations: readonly Operation[]): (method: string, path: string) => RouteMatch {
  const router = FindMyWay({ ignoreTrailingSlash: true, caseSensitive: true });
  for (const operation of operations) {
    router.on(operation.method, operation.path, () => {}, operation);
  }
  return (method, path) => {
    const found = router.find(method as FindMyWay.HTTPMethod, path);
    if (found) {
      const params: Record<string, string> = {};
      for (const [name, value] of Object.entries(found.params)) if (value !== undefined) params[name] = value;
      return { kind: 'operation', operation: found.store as Operation, params };
    }
    const allow = METHODS.filter((m) => m !== method && router.find(m, path) !== null);
    return allow.length > 0 ? { kind: 'method_not_allowed', allow } : { kind: 'not_found' };
  };
}
