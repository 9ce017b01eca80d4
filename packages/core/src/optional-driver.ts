// pg, ioredis, ical.js, undici and nodemailer are optional peer dependencies
// of core: a service embedding it on SQLite installs none of them. Each adapter loads its
// driver when it opens, through `loadDriver`, so a missing one says what to install.

/** A driver an adapter needs is not installed; the message names the package and what it is for. */
export class MissingDriver extends Error {
  override readonly name = 'MissingDriver';
  constructor(
    /** The npm package to install. */
    readonly packageName: string,
    usedFor: string,
    cause: unknown,
  ) {
    super(`install ${packageName} to ${usedFor} (npm install ${packageName})`, { cause });
  }
}

/** The package a failed import could not find, when it is one of `packages`. */
function missingPackage(error: unknown, packages: readonly string[]): string | undefined {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  // ESM says ERR_MODULE_NOT_FOUND, require() MODULE_NOT_FOUND; both quote the name.
  if ((code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') || typeof message !== 'string') return undefined;
  // Quoted, so that a missing dependency of the driver (`pg-types`) is not taken for the driver (`pg`).
  return packages.find((name) => message.includes(`'${name}'`));
}

/**
 * Runs `load` (an `import()` of the driver, or of the adapter module that
 * imports it) and turns "cannot find package" for one of `packages` into a
 * MissingDriver saying what to install; any other failure passes unchanged.
 */
export async function loadDriver<T>(load: () => Promise<T>, needs: { packages: readonly string[]; usedFor: string }): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const missing = missingPackage(error, needs.packages);
    throw missing === undefined ? error : new MissingDriver(missing, needs.usedFor, error);
  }
}
