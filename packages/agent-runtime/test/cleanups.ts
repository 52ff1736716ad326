/**
 * The runtime tests' undo list (`onCleanup` in support.ts): run after each test, the last
 * registered first. It holds no hook itself: support.ts registers one when first imported (the
 * file that imported it, in an isolated run), and the in-memory project registers one per file
 * through cleanup-hook.ts, because there one import serves every file of a worker.
 */
export type RuntimeCleanup = () => Promise<void> | void;

const cleanups: RuntimeCleanup[] = [];

export function onCleanup(fn: RuntimeCleanup): void {
  cleanups.push(fn);
}

/** Runs and forgets every cleanup registered so far; a second caller finds none. */
export async function runCleanups(): Promise<void> {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
}
