import { checkWireCompatibility } from '../../descriptor.js';
import { captureJson } from '../../json.js';
import { providerDescriptorSchema, type ProviderDescriptor } from '../../schemas/descriptor.js';
import { descriptorChecks } from './checks-descriptor.js';
import { eventChecks } from './checks-events.js';
import { interactionChecks } from './checks-interactions.js';
import { runChecks } from './checks-run.js';
import { sessionChecks } from './checks-session.js';
import { continueChecks } from './checks-continue.js';
import { historyChecks } from './checks-history.js';
import { revertChecks } from './checks-revert.js';
import { steerChecks } from './checks-steer.js';
import { hostChecks } from './checks-host.js';
import { CheckContext, CheckFailure } from './context.js';
import { createPlan, type CheckDefinition } from './plan.js';
import type { ConformanceCheckResult, ConformanceHarness, ConformanceSubject } from './types.js';

/** Every check of docs/spi.md §19.2, in report order. */
export const CONFORMANCE_CHECKS: readonly CheckDefinition[] = [
  ...descriptorChecks,
  ...sessionChecks,
  ...runChecks,
  ...steerChecks,
  ...hostChecks,
  ...continueChecks,
  ...revertChecks,
  ...historyChecks,
  ...eventChecks.filter((c) => c.area === 'events'),
  ...interactionChecks,
  ...eventChecks.filter((c) => c.area !== 'events'),
];

type Registration =
  | {
      readonly ok: true;
      readonly subject: ConformanceSubject;
      readonly descriptor: ProviderDescriptor;
    }
  | { readonly ok: false; readonly failure: string };

/** What the runtime does at registration: one describe() call, a strict parse, a deep freeze. */
export function register(harness: ConformanceHarness): Registration {
  let subject: ConformanceSubject;
  try {
    subject = harness.create();
  } catch {
    return { ok: false, failure: 'the harness could not create a provider' };
  }
  let raw: unknown;
  try {
    raw = subject.provider.describe();
  } catch {
    return { ok: false, failure: 'describe() threw' };
  }
  const captured = captureJson(raw);
  const parsed = providerDescriptorSchema.safeParse(captured.ok ? captured.value : undefined);
  if (!parsed.success)
    return { ok: false, failure: 'describe() output does not parse as a ProviderDescriptor' };
  if (!checkWireCompatibility(parsed.data).ok)
    return { ok: false, failure: 'describe() declares an incompatible wire version' };
  const frozen = captureJson(parsed.data);
  // captureJson hands back a deep-frozen clone: the snapshot the runtime would keep.
  return {
    ok: true,
    subject,
    descriptor: (frozen.ok ? frozen.value : parsed.data) as ProviderDescriptor,
  };
}

function describeThrown(error: unknown): string {
  if (error instanceof CheckFailure) return error.message;
  if (error instanceof Error) return `the check crashed: ${error.name}: ${error.message}`;
  return 'the check crashed with a non-error value';
}

/** Runs one check against a fresh subject. Never throws. */
export async function runCheck(
  check: CheckDefinition,
  harness: ConformanceHarness,
): Promise<ConformanceCheckResult> {
  const head = { id: check.id, area: check.area, title: check.title };
  const registration = register(harness);
  if (!registration.ok) {
    // The descriptor checks say what is wrong; every other check cannot run without a descriptor.
    return { ...head, status: 'failed', failure: registration.failure };
  }
  const plan = createPlan(registration.descriptor, harness);
  const applicability = check.applies(plan);
  if (!applicability.applies) return { ...head, status: 'skipped', reason: applicability.reason };
  const ctx = new CheckContext(harness, registration.subject, registration.descriptor);
  let failure: string | undefined;
  try {
    await check.run(ctx, plan);
  } catch (error) {
    failure = describeThrown(error);
  }
  try {
    await ctx.cleanup();
  } catch {
    // cleanup is best effort
  }
  if (failure === undefined) {
    let verified: string | undefined;
    try {
      verified = registration.subject.driver.verify?.();
    } catch {
      verified = 'the harness verification threw';
    }
    if (verified !== undefined) failure = `harness verification failed: ${verified}`;
  }
  return failure === undefined
    ? { ...head, status: 'passed' }
    : { ...head, status: 'failed', failure };
}
