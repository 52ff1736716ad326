/**
 * Leak check for the whole suite. Every process a test starts must carry the marker
 * variable (use `testEnv()` from ./processes); the vitest workers themselves do not. After the last test, any process still
 * carrying this run's marker is a leak: it is killed and the suite fails.
 */
import { randomUUID } from 'node:crypto';
import { findMarkedProcesses, RUN_ID_VAR } from './leak-scan.js';
import { removeScriptBundles } from '../../packages/agent-runtime/test/script-bundle.js';

export function setup(): void {
  process.env[RUN_ID_VAR] = `leak-${randomUUID()}`;
}

export async function teardown(): Promise<void> {
  const marker = process.env[RUN_ID_VAR];
  if (marker === undefined) return;
  removeScriptBundles();
  // the grace for processes still exiting; the leak check's own test, whose survivor never
  // exits, sets a short one
  const graceMs = Number(process.env.RELVO_LEAK_CHECK_GRACE_MS ?? '5000');
  const deadline = Date.now() + graceMs;
  let alive = findMarkedProcesses(marker);
  while (alive.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    alive = findMarkedProcesses(marker);
  }
  if (alive.length > 0) {
    for (const p of alive) {
      try {
        process.kill(p.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    // vitest reports a teardown throw but still exits 0; make the leak fail the run
    process.exitCode = 1;
    throw new Error(
      `leak check: ${alive.length} test-started process(es) still alive after the suite: ` +
        alive.map((p) => `${p.pid} ${p.comm}`).join(', '),
    );
  }
}
