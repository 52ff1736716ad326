import { LEAK_MARKER_VAR, RUN_ID_VAR } from './leak-scan.js';

/**
 * The environment for any process a test starts: the host environment plus the leak marker
 * (inherited by descendants), so the suite's teardown can prove nothing survived.
 */
export function testEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  const marker = process.env[RUN_ID_VAR];
  if (marker === undefined) throw new Error('leak marker missing: run the tests through vitest');
  return { ...env, ...extra, [LEAK_MARKER_VAR]: marker };
}
