import { describe, expect, it } from 'vitest';
import type { AgentProvider } from '../../src/index.js';
import { runProviderConformance, type ConformanceReport } from '../../src/testing/index.js';
import {
  completionSettlesTwice,
  disposeNotIdempotent,
  echoesRunRef,
  emitsAfterCompletion,
  emitsInvalidEvent,
  interruptNotIdempotent,
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

  it('a refusal thrown synchronously', async () => {
    const r = await report(throwsSynchronously);
    expect(failure(r, 'run.refusals-async')).toBe(
      'startRun after dispose threw synchronously instead of returning a rejected promise',
    );
  });
});
