/**
 * The wait a `Retry-After` header asks for, in ms from `nowMs` (RFC 9110
 * §10.2.3: whole seconds, or an HTTP date), or undefined when there is none
 * or it cannot be read. A date in the past asks for no wait.
 */
export function retryAfterMs(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // Every HTTP date form names its month; without that check Date.parse would read "-5" as the year -5.
  const at = /[a-z]{3}/i.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}
