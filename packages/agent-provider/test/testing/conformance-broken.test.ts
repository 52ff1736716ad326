import { describe, expect, it } from 'vitest';
import type { AgentProvider, ProviderRun, ProviderRunTermination } from '../../src/index.js';
import { runProviderConformance, type ConformanceReport } from '../../src/testing/index.js';
import {
  acceptsUnknownOptions,
  forksForeignRecords,
  missingFork,
  mutatesDescriptor,
  runEventsOnSessionSink,
  undeclaredDeltas,
  undeclaredResume,
} from './broken-providers.js';
import {
  completionSettlesTwice,
  emitsAfterCompletion,
  emitsInvalidEvent,
  foreignExtensionNamespace,
  interruptNotIdempotent,
  leaksNativeId,
  oversizeExtension,
  reusesProviderRefs,
} from './broken-runs.js';
import {
  acceptsInvalidResponses,
  disposeNotIdempotent,
  echoesRunRef,
  historyWithoutCursor,
  refusesEveryInjection,
  refusesRunModel,
  repeatedResponseHasEffect,
  revertsAnything,
  startsAfterDispose,
  throwsSynchronously,
  unknownRefThrows,
  wrongRetryable,
} from './broken-sessions.js';
import { patchRuns } from './provider-patches.js';
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

type Wrap = (provider: AgentProvider) => AgentProvider;

/** The one check `id` fails on a provider wrapped by `wrap`, with a message `expected` matches. */
async function expectFailure(wrap: Wrap, id: string, expected: string | RegExp): Promise<void> {
  const message = failure(await report(wrap), id);
  if (typeof expected === 'string') expect(message).toBe(expected);
  else expect(message).toMatch(expected);
}

/** Runs as the scripted provider's, but with `steer` as given (none when left out). */
const withSteer =
  (steer?: ProviderRun['steer']): Wrap =>
  (provider) =>
    patchRuns(provider, (run) => ({
      completion: run.completion,
      interrupt: (reason) => run.interrupt(reason),
      ...(steer === undefined ? {} : { steer }),
    }));

describe('the conformance kit catches broken providers', () => {
  it.each<[string, Wrap, string, string | RegExp]>([
    [
      'a completion that is re-read as a different promise (settles twice)',
      completionSettlesTwice,
      'run.completion-once',
      'completing run: run.completion is a different promise on each read',
    ],
    [
      'a run that emits after its completion settled',
      emitsAfterCompletion,
      'events.after-completion',
      /^the run complete sink received 1 emission\(s\) after completion settled \(run\.message_delta\)$/,
    ],
    [
      'startRun that succeeds once disposal has begun',
      startsAfterDispose,
      'session.closed-after-dispose',
      'startRun while disposing resolved; expected a ProviderRejection',
    ],
    [
      'a repeated response that has a second effect',
      repeatedResponseHasEffect,
      'interactions.repeat-response',
      'approval: the repeated response changed what the run emitted (3 emission(s) instead of 2)',
    ],
    [
      'a dispose() that is not idempotent',
      disposeNotIdempotent,
      'session.dispose-idempotent',
      'dispose (2nd concurrent call) failed with a ProviderRejection (session_closed)',
    ],
    [
      'an interrupt() that is not idempotent',
      interruptNotIdempotent,
      'run.interrupt-idempotent',
      'interrupt (2nd concurrent call) failed with an unknown outcome',
    ],
    [
      'an error message that echoes the caller runRef',
      echoesRunRef,
      'secrecy.no-echo',
      'the error of startRun after dispose contains a caller value (run)',
    ],
    [
      'a provider that mutates the descriptor it returned (silently, as on a frozen object)',
      mutatesDescriptor,
      'descriptor.snapshot',
      'the provider mutated the descriptor it returned from describe()',
    ],
    [
      'a steer that still resolves after the run ended',
      withSteer(() => Promise.resolve()),
      'run.steer',
      'steer after termination resolved; expected a ProviderRejection',
    ],
    [
      'a declared steer the run does not carry',
      withSteer(),
      'run.steer',
      'run.steer is declared but the run has no steer',
    ],
    [
      'a declared injectContext that refuses well-formed items',
      refusesEveryInjection,
      'session.injectContext',
      /^injectContext with valid items/,
    ],
    [
      'a refusal thrown synchronously',
      throwsSynchronously,
      'run.refusals-async',
      'startRun after dispose threw synchronously instead of returning a rejected promise',
    ],
  ])('%s', async (_, wrap, id, expected) => {
    await expectFailure(wrap, id, expected);
  });

  it('an emission that fails its schema', async () => {
    const r = await report(emitsInvalidEvent);
    expect(failure(r, 'events.schema')).toMatch(
      /invalid emission\(s\): run complete: a run\.message_delta emission fails the ProviderEventInput schema \(payload\.text: /,
    );
    // nothing else about the provider is broken
    expect(r.checks.find((c) => c.id === 'session.dispose-idempotent')?.status).toBe('passed');
  });

  it('a failure message that echoes a harness secret marker', async () => {
    const r = await runProviderConformance(
      scriptedHarness({ failMessage: `upstream said ${SECRET}` }),
    );
    expect(failure(r, 'secrecy.no-echo')).toBe(
      'the error of a failed run termination contains a harness secret marker',
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
    await expectFailure(wrap, id, expected);
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
      patchRuns(provider, (run) => ({
        // One promise, read as often as the kit likes; only the wire form is leaner.
        completion: run.completion.then((t): ProviderRunTermination => {
          if (t.outcome !== 'failed') return t;
          const { retryable: _omitted, ...error } = t.error;
          return { outcome: 'failed', error: error as typeof t.error };
        }),
        interrupt: (reason) => run.interrupt(reason),
        steer: (input) => run.steer?.(input) ?? Promise.resolve(),
      }));
    const r = await report(omitRetryable);
    expect(r.checks.filter((c) => c.status !== 'passed')).toEqual([]);
  });
});
