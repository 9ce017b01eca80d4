/**
 * The secret of an `Authorization: Bearer <token>` header (RFC 6750): undefined
 * when there is no header, empty when it is not a bearer token (which then
 * authenticates as nobody). The HTTP API and the MCP endpoint read it alike.
 */
export function bearerSecret(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const m = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  return m?.[1] ?? '';
}
