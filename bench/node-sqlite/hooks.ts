/** Resolves `better-sqlite3` to the node:sqlite stand-in (driver.ts); everything else as usual. */
const DRIVER = new URL('./driver.ts', import.meta.url).href;

interface Resolved {
  url: string;
  shortCircuit?: boolean;
  format?: string;
}

export function resolve(
  specifier: string,
  context: unknown,
  next: (specifier: string, context: unknown) => Promise<Resolved>,
): Promise<Resolved> | Resolved {
  // by name, or by the path a test runner resolved the name to before importing it
  if (
    specifier === 'better-sqlite3' ||
    /\/node_modules\/better-sqlite3\/lib\/index\.js$/.test(specifier)
  )
    return { url: DRIVER, shortCircuit: true };
  return next(specifier, context);
}
