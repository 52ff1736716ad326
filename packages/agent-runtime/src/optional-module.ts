/** Optional peers (pg, @opentelemetry/api): loaded on first use, typed when absent. */
import type { RuntimeError } from './errors.js';

/** The error `require` (or `import`) throws for a package that is not installed. */
function isModuleNotFound(error: unknown): boolean {
  return (
    error instanceof Error &&
    'code' in error &&
    (error.code === 'MODULE_NOT_FOUND' || error.code === 'ERR_MODULE_NOT_FOUND')
  );
}

/** `load(id)`, or the typed error `missing` makes when the package is not installed. */
export function loadOptional(
  load: (id: string) => unknown,
  id: string,
  missing: (cause: unknown) => RuntimeError,
): unknown {
  try {
    return load(id);
  } catch (error) {
    if (!isModuleNotFound(error)) throw error;
    throw missing(error);
  }
}
