import { describe, expect, it } from 'vitest';
import type { AgentProvider, ProviderRunTermination } from '../../src/index.js';
import { runProviderConformance, type ConformanceReport } from '../../src/testing/index.js';
import {
  acceptsInvalidResponses,
  acceptsUnknownOptions,
  completionSettlesTwice,
  disposeNotIdempotent,
  echoesRunRef,
  foreignExtensionNamespace,
  emitsAfterCompletion,
  emitsInvalidEvent,
  interruptNotIdempotent,
  leaksNativeId,
  mutatesDescriptor,
  oversizeExtension,
  patchSessions,
  reusesProviderRefs,
  runEventsOnSessionSink,
  undeclaredDeltas,
  undeclaredResume,
  unknownRefThrows,
  missingFork,
  forksForeignRecords,
  revertsAnything,
  refusesEveryInjection,
  historyWithoutCursor,
  refusesRunModel,
  wrongRetryable,
  repeatedResponseHasEffect,
  startsAfterDispose,
  throwsSynchronously,
} from './broken-providers.js';
import { SECRET, scriptedHarness, type ScriptedHarnessOptions } from './scripted-harness.js';

async function report(
  wrap: (p: AgentProvider) => AgentProvider,
  options: ScriptedHarnessOptions = {},
): Promise<ConformanceReport> {
  return runProviderConformance(scriptedHarness({ ...options, wrap }));
}

function failure(r: ConformanceReport, id: string): string | undefined {
  const check = r.checks.find((c) => c.id === id);
  expect(check, `check ${id} exists`).toBeDefined();
  expect(check?.status, `check ${id} status`).toBe('failed');
  return check?.failure;
}

describe('the conformance kit catches broken providers', () => {
  it('a completion that is re-read as a different promise (settles twice)', async () => {
    const r = await report(completionSettlesTwice);
    expect(failure(r, 'run.completion-once')).toBe(
      'completing run: run.completion is a different promise on each read',
    );
  });

  it('a run that emits after its completion settled', async () => {
    const r = await report(emitsAfterCompletion);
    expect(failure(r, 'events.after-completion')).toMatch(
      /^the run complete sink received 1 emission\(s\) after completion settled \(run\.message_delta\)$/,
    );
  });

  it('startRun that succeeds once disposal has begun', async () => {
    const r = await report(startsAfterDispose);
    expect(failure(r, 'session.closed-after-dispose')).toBe(
      'startRun while disposing resolved; expected a ProviderRejection',
    );
  });

  it('an emission that fails its schema', async () => {
    const r = await report(emitsInvalidEvent);
    expect(failure(r, 'events.schema')).toMatch(
      /invalid emission\(s\): run complete: a run\.message_delta emission fails the ProviderEventInput schema \(payload\.text: /,
    );
    // nothing else about the provider is broken
    expect(r.checks.find((c) => c.id === 'session.dispose-idempotent')?.status).toBe('passed');
  });

  it('a repeated response that has a second effect', async () => {
    const r = await report(repeatedResponseHasEffect);
    expect(failure(r, 'interactions.repeat-response')).toBe(
      'approval: the repeated response changed what the run emitted (3 emission(s) instead of 2)',
    );
  });

  it('a dispose() that is not idempotent', async () => {
    const r = await report(disposeNotIdempotent);
    expect(failure(r, 'session.dispose-idempotent')).toBe(
      'dispose (2nd concurrent call) failed with a ProviderRejection (session_closed)',
    );
  });

  it('an interrupt() that is not idempotent', async () => {
    const r = await report(interruptNotIdempotent);
    expect(failure(r, 'run.interrupt-idempotent')).toBe(
      'interrupt (2nd concurrent call) failed with an unknown outcome',
    );
  });

  it('an error message that echoes the caller runRef', async () => {
    const r = await report(echoesRunRef);
    expect(failure(r, 'secrecy.no-echo')).toBe(
      'the error of startRun after dispose contains a caller value (run)',
    );
  });

  it('a failure message that echoes a harness secret marker', async () => {
    const r = await runProviderConformance(
      scriptedHarness({ failMessage: `upstream said ${SECRET}` }),
    );
    expect(failure(r, 'secrecy.no-echo')).toBe(
      'the error of a failed run termination contains a harness secret marker',
    );
  });

  it('a provider that mutates the descriptor it returned (silently, as on a frozen object)', async () => {
    const r = await report(mutatesDescriptor);
    expect(failure(r, 'descriptor.snapshot')).toBe(
      'the provider mutated the descriptor it returned from describe()',
    );
  });

  it('a steer that still resolves after the run ended', async () => {
    const r = await report((provider) =>
      patchSessions(provider, (session) => ({
        async startRun(request) {
          const run = await session.startRun(request);
          return {
            completion: run.completion,
            interrupt: (reason) => run.interrupt(reason),
            steer: () => Promise.resolve(),
          };
        },
      })),
    );
    expect(failure(r, 'run.steer')).toBe(
      'steer after termination resolved; expected a ProviderRejection',
    );
  });

  it('a declared steer the run does not carry', async () => {
    const r = await report((provider) =>
      patchSessions(provider, (session) => ({
        async startRun(request) {
          const run = await session.startRun(request);
          return { completion: run.completion, interrupt: (reason) => run.interrupt(reason) };
        },
      })),
    );
    expect(failure(r, 'run.steer')).toBe('run.steer is declared but the run has no steer');
  });

  it('a declared injectContext that refuses well-formed items', async () => {
    const r = await report(refusesEveryInjection);
    expect(failure(r, 'session.injectContext')).toMatch(/^injectContext with valid items/);
  });

  it('a refusal thrown synchronously', async () => {
    const r = await report(throwsSynchronously);
    expect(failure(r, 'run.refusals-async')).toBe(
      'startRun after dispose threw synchronously instead of returning a rejected promise',
    );
  });
});

describe('every docs/spi.md §19.2 area has a check that can fail', () => {
  it.each([
    [
      'session.unknown-options',
      acceptsUnknownOptions,
      'createSession accepted an unknown option key',
    ],
    [
      'session.sink-diagnostics-only',
      runEventsOnSessionSink,
      /^the session sink received run\.message_delta.*only diagnostic is allowed$/,
    ],
    [
      'events.capabilities',
      undeclaredDeltas,
      'a message delta was emitted but messageDeltas is not declared',
    ],
    [
      'events.extensions',
      foreignExtensionNamespace,
      'a run.extension uses namespace someone.else, not the provider id scripted',
    ],
    [
      'events.schema',
      oversizeExtension,
      /a run\.extension emission fails the ProviderEventInput schema \(payload\.data: /,
    ],
    [
      'events.provider-refs',
      reusesProviderRefs,
      'a providerRef was raised twice within one session',
    ],
    [
      'interactions.invalid-response',
      acceptsInvalidResponses,
      'approval: invalid response resolved; expected a ProviderRejection',
    ],
    [
      'errors.agent-errors',
      wrongRetryable,
      'the error of startRun after dispose has retryable true for code session_closed',
    ],
    [
      'secrecy.native-ids',
      leaksNativeId,
      'a diagnostic emission on the run complete sink contains a native identifier',
    ],
    [
      'session.fork',
      missingFork,
      'the descriptor declares fork but the provider has no forkSession',
    ],
    [
      'session.fork',
      forksForeignRecords,
      'forkSession (another provider’s record) resolved; expected a ProviderRejection',
    ],
    [
      'session.revert',
      revertsAnything,
      'revert (beyond the history) resolved; expected a ProviderRejection',
    ],
    [
      'session.history',
      historyWithoutCursor,
      'history (limit 1) of two finished turns is not one turn and a cursor',
    ],
    [
      'run.options',
      refusesRunModel,
      'startRun (complete) failed with a ProviderRejection (invalid_request)',
    ],
    [
      'descriptor.recovery',
      undeclaredResume,
      'resumeSession exists although the descriptor does not declare resume',
    ],
  ] as const)('%s', async (id, wrap, expected) => {
    const r = await report(wrap);
    const message = failure(r, id);
    if (typeof expected === 'string') expect(message).toBe(expected);
    else expect(message).toMatch(expected);
  });

  it('interactions.unknown-ref', async () => {
    const r = await runProviderConformance(
      scriptedHarness({
        wrap: (p, controller) => unknownRefThrows(p, () => controller.pendingInteractionRefs()),
      }),
    );
    expect(failure(r, 'interactions.unknown-ref')).toBe(
      'respondToInteraction (unknown ref, idle session) failed with an unknown outcome (not a ProviderRejection)',
    );
  });
});

describe('the conformance kit does not fail conformant variants', () => {
  it('a failed termination that leaves out the defaulted retryable member (docs/spi.md §14 default false)', async () => {
    const omitRetryable = (provider: AgentProvider): AgentProvider =>
      patchSessions(provider, (session) => ({
        async startRun(request) {
          const run = await session.startRun(request);
          // One promise, read as often as the kit likes; only the wire form is leaner.
          const completion = run.completion.then((t): ProviderRunTermination => {
            if (t.outcome !== 'failed') return t;
            const { retryable: _omitted, ...error } = t.error;
            return { outcome: 'failed', error: error as typeof t.error };
          });
          return {
            completion,
            interrupt: (reason) => run.interrupt(reason),
            steer: (input) => run.steer?.(input) ?? Promise.resolve(),
          };
        },
      }));
    const r = await report(omitRetryable);
    expect(r.checks.filter((c) => c.status !== 'passed')).toEqual([]);
  });
});
