import { describe, expect, it } from 'vitest';
import { CONFORMANCE_CHECKS, register, runCheck } from './checks.js';
import { createPlan } from './plan.js';
import type { ConformanceHarness } from './types.js';

/** Per-check test timeout: every wait inside is bounded by `waitMs`, so this is a backstop. */
const CHECK_TIMEOUT_MS = 60_000;

/**
 * Registers one vitest test per applicable conformance check. Checks that do not apply (the
 * descriptor does not declare the capability, or the harness stated why it cannot drive it)
 * are not registered at all, so nothing unexercised is ever counted as a pass.
 */
export function describeProviderConformance(name: string, harness: ConformanceHarness): void {
  describe(`provider conformance: ${name}`, () => {
    const registration = register(harness);
    const plan = registration.ok ? createPlan(registration.descriptor, harness) : undefined;
    for (const check of CONFORMANCE_CHECKS) {
      // Without a descriptor every check is registered, and each fails with the reason.
      if (plan !== undefined && !check.applies(plan).applies) continue;
      it(`${check.id}: ${check.title}`, { timeout: CHECK_TIMEOUT_MS }, async () => {
        const result = await runCheck(check, harness);
        if (result.status === 'failed') expect.fail(`${check.id}: ${result.failure ?? 'failed'}`);
        expect(result.status).toBe('passed');
      });
    }
  });
}
