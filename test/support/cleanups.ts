/** One file's undo list: what a test started is stopped after it, the last started first. */
import { afterEach } from 'vitest';

export type Cleanup = () => unknown;

/** Call at a test file's top level; push a cleanup for everything a test starts. */
export function useCleanups(): Cleanup[] {
  const cleanups: Cleanup[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  return cleanups;
}
