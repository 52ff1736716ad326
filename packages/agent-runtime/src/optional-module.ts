/** Optional peers (pg, @opentelemetry/api): loaded on first use, typed when absent. */

/** The error `require` (or `import`) throws for a package that is not installed. */
export function isModuleNotFound(error: unknown): boolean {
  return (
    error instanceof Error &&
    'code' in error &&
    (error.code === 'MODULE_NOT_FOUND' || error.code === 'ERR_MODULE_NOT_FOUND')
  );
}
