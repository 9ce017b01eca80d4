import type { ScheduleError } from '@schedule/core';

/**
 * The `WWW-Authenticate` challenge of a refusal (RFC 6750 section 3): on
 * `401` and `403 insufficient_scope`. With a resource metadata URL (RFC
 * 9728 section 5.1) a client that knows only this server's address can
 * discover where to get a token, which is how MCP clients start OAuth.
 */
export function bearerChallenge(
  error: ScheduleError,
  options: { resourceMetadataUrl?: string | undefined; sentToken?: boolean },
): string | undefined {
  const params = ['realm="schedule"'];
  if (options.resourceMetadataUrl) params.push(`resource_metadata="${options.resourceMetadataUrl}"`);
  if (error.code === 'unauthorized') {
    if (options.sentToken) params.push('error="invalid_token"', 'error_description="The access token is not valid here."');
    return `Bearer ${params.join(', ')}`;
  }
  if (error.code === 'insufficient_scope') {
    const scope = (error.details as { required_scope?: unknown } | undefined)?.required_scope;
    params.push('error="insufficient_scope"');
    if (typeof scope === 'string') params.push(`scope="${scope}"`);
    return `Bearer ${params.join(', ')}`;
  }
  return undefined;
}
