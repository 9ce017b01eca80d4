/**
 * Loads oidc-provider. It prints a warning on import when Node.js is not a
 * supported LTS (22 or later, as package.json's "engines" asks too): should
 * that ever happen, the one line goes to our own structured log instead of
 * landing unformatted on stderr.
 */
export async function loadOidcProvider(log: (message: string) => void): Promise<typeof import('oidc-provider')> {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    const text = args.map(String).join(' ');
    if (text.includes('oidc-provider WARNING: Unsupported runtime')) log(text);
    else warn(...args);
  };
  try {
    return await import('oidc-provider');
  } finally {
    console.warn = warn;
  }
}
