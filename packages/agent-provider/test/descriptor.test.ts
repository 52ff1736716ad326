import { describe, expect, it } from 'vitest';
import {
  WIRE_VERSION,
  canAcceptWorkspace,
  canAskQuestionSet,
  canInterruptRun,
  canRaiseApproval,
  checkWireCompatibility,
  defineProviderDescriptor,
  interruptPreservesSession,
  type DefineProviderDescriptorInput,
} from '../src/index.js';

const base: DefineProviderDescriptorInput = {
  providerId: 'demo',
  providerVersion: '2.1.0',
  displayName: 'Demo',
  workspace: { requires: 'directory' },
};

const define = (patch: Partial<DefineProviderDescriptorInput> = {}) =>
  defineProviderDescriptor({ ...base, ...patch });

describe('defineProviderDescriptor', () => {
  it('fills wireVersion with WIRE_VERSION and keeps a given one', () => {
    expect(define().wireVersion).toBe('0.8');
    expect(WIRE_VERSION).toBe('0.8');
    expect(define({ wireVersion: '0.4' }).wireVersion).toBe('0.4');
  });

  it('throws on invalid input', () => {
    expect(() => define({ providerId: 'Bad Id' })).toThrow();
    expect(() => define({ recovery: { resumesFromRecoveryRecord: true } as never })).toThrow();
  });
});

describe('checkWireCompatibility', () => {
  it('is ok only on an exact match', () => {
    expect(checkWireCompatibility(define())).toEqual({ ok: true });
    for (const version of ['0.6', '0.7.0', '0.70', ' 0.7', '1.0']) {
      const check = checkWireCompatibility(define({ wireVersion: version }));
      expect(check.ok).toBe(false);
      if (check.ok) continue;
      expect(check.error.code).toBe('provider_contract_violation');
      expect(check.error.details).toEqual({
        providerWireVersion: version,
        runtimeWireVersion: '0.8',
      });
    }
  });
});

describe('canInterruptRun / interruptPreservesSession', () => {
  it('denies unsupported interrupts with capability run.interrupt', () => {
    const check = canInterruptRun(define());
    expect(check.ok).toBe(false);
    if (!check.ok) {
      expect(check.error.code).toBe('capability_unsupported');
      expect(check.error.details).toEqual({ capability: 'run.interrupt' });
    }
    expect(interruptPreservesSession(define())).toBe(false);
  });

  it.each([
    [{ mode: 'immediate' as const }, true],
    [{ mode: 'cooperative' as const }, true],
    [{ mode: 'immediate' as const, sessionRemainsUsable: false }, false],
    [{ mode: 'cooperative' as const, sessionRemainsUsable: false }, false],
  ])('interrupt %j preserves session: %s', (interrupt, preserves) => {
    const d = define({ run: { interrupt } });
    expect(canInterruptRun(d)).toEqual({ ok: true });
    expect(interruptPreservesSession(d)).toBe(preserves);
  });
});

describe('canRaiseApproval', () => {
  it('denies when approval is unsupported', () => {
    const check = canRaiseApproval(define(), 'once');
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.error.details).toEqual({ capability: 'interaction.approval' });
  });

  it('denies a mode outside modes, naming requested and supported', () => {
    const d = define({
      interaction: { approval: { supported: true, modes: ['once', 'session'] } },
    });
    expect(canRaiseApproval(d, 'once')).toEqual({ ok: true });
    expect(canRaiseApproval(d, 'session')).toEqual({ ok: true });
    const check = canRaiseApproval(d, 'persistent');
    expect(check.ok).toBe(false);
    if (!check.ok) {
      expect(check.error.code).toBe('capability_unsupported');
      expect(check.error.details).toEqual({
        capability: 'interaction.approval.modes',
        requested: 'persistent',
        supported: ['once', 'session'],
      });
    }
  });
});

describe('canAcceptWorkspace', () => {
  it('is always ok when no workspace is required', () => {
    const d = define({ workspace: { requires: 'none', acceptsOwnership: [] } });
    expect(canAcceptWorkspace(d, 'borrowed')).toEqual({ ok: true });
    expect(canAcceptWorkspace(d, 'managed')).toEqual({ ok: true });
  });

  it('checks acceptsOwnership when a directory is required', () => {
    const d = define({ workspace: { requires: 'directory', acceptsOwnership: ['managed'] } });
    expect(canAcceptWorkspace(d, 'managed')).toEqual({ ok: true });
    const check = canAcceptWorkspace(d, 'borrowed');
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.error.code).toBe('capability_unsupported');
    expect(canAcceptWorkspace(define(), 'borrowed')).toEqual({ ok: true });
  });
});

describe('canAskQuestionSet', () => {
  it('requires question support and batch', () => {
    expect(canAskQuestionSet(define(), 1).ok).toBe(false);
    expect(
      canAskQuestionSet(define({ interaction: { question: { supported: true } } }), 1).ok,
    ).toBe(false);
    expect(canAskQuestionSet(define({ interaction: { question: { batch: true } } }), 1).ok).toBe(
      false,
    );
    const d = define({ interaction: { question: { supported: true, batch: true } } });
    expect(canAskQuestionSet(d, 32)).toEqual({ ok: true });
  });

  it('respects a non-null maxQuestions', () => {
    const d = define({
      interaction: { question: { supported: true, batch: true, maxQuestions: 4 } },
    });
    expect(canAskQuestionSet(d, 4)).toEqual({ ok: true });
    const check = canAskQuestionSet(d, 5);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.error.code).toBe('capability_unsupported');
  });
});
