import { CONFORMANCE_CHECKS, register, runCheck } from './checks.js';
import type { ConformanceCheckResult, ConformanceHarness, ConformanceReport } from './types.js';

/**
 * Runs every conformance check (docs/spi.md §19.2) against fresh subjects from `harness`, one after
 * another, and reports each as passed, failed or skipped (skipped only with a reason). It
 * never throws: a crash inside a check is that check's failure.
 */
export async function runProviderConformance(
  harness: ConformanceHarness,
): Promise<ConformanceReport> {
  const checks: ConformanceCheckResult[] = [];
  for (const check of CONFORMANCE_CHECKS) {
    try {
      checks.push(await runCheck(check, harness));
    } catch {
      checks.push({
        id: check.id,
        area: check.area,
        title: check.title,
        status: 'failed',
        failure: 'the check crashed',
      });
    }
  }
  let providerId: string | undefined;
  try {
    const registration = register(harness);
    providerId = registration.ok ? registration.descriptor.providerId : undefined;
  } catch {
    providerId = undefined;
  }
  const count = (status: ConformanceCheckResult['status']) =>
    checks.filter((c) => c.status === status).length;
  return {
    providerId,
    checks,
    passed: count('passed'),
    failed: count('failed'),
    skipped: count('skipped'),
  };
}
