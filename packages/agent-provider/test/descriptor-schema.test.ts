import { describe, expect, it } from 'vitest';
import { providerDescriptorSchema } from '../src/index.js';
import { runOptionsSchema } from '../src/schemas/turn.js';

const base = {
  providerId: 'demo',
  providerVersion: '1.0.0',
  wireVersion: '0.8',
  displayName: 'Demo',
};
const minimal = { ...base, workspace: { requires: 'directory' } };

describe('provider descriptor', () => {
  it('fills every default with the least capable value', () => {
    expect(providerDescriptorSchema.parse(minimal)).toEqual({
      ...base,
      run: {
        interrupt: {
          mode: 'unsupported',
          deliversPartialOutput: false,
          sessionRemainsUsable: false,
        },
        streaming: { messageDeltas: false, toolActivity: false, incrementalUsage: false },
        maxConcurrentRunsPerSession: 1,
        steer: false,
        structuredOutput: false,
        options: { model: false, effort: false, summary: false },
        injectContext: false,
      },
      interaction: {
        approval: { supported: false, modes: [], blocking: true },
        question: {
          supported: false,
          choices: false,
          multiSelect: false,
          batch: false,
          maxQuestions: null,
          freeText: false,
          sensitive: false,
        },
        toolCall: { supported: false, maxTools: 64 },
        settlementTimeoutMs: null,
      },
      workspace: { requires: 'directory', acceptsOwnership: ['borrowed', 'managed'], writes: true },
      recovery: {
        exportsRecoveryRecord: false,
        resumesFromRecoveryRecord: false,
        forksFromRecoveryRecord: false,
      },
      session: { revert: false, history: false },
      extensions: {},
    });
  });

  it('does not share default arrays between parses', () => {
    const a = providerDescriptorSchema.parse(minimal);
    const b = providerDescriptorSchema.parse(minimal);
    expect(a.workspace.acceptsOwnership).not.toBe(b.workspace.acceptsOwnership);
    expect(a.interaction.approval.modes).not.toBe(b.interaction.approval.modes);
    expect(a.extensions).not.toBe(b.extensions);
  });

  it('requires workspace.requires and the identity members', () => {
    expect(providerDescriptorSchema.safeParse(base).success).toBe(false);
    expect(providerDescriptorSchema.safeParse({ ...minimal, workspace: {} }).success).toBe(false);
    for (const key of ['providerId', 'providerVersion', 'wireVersion', 'displayName'] as const) {
      const copy = Object.fromEntries(Object.entries(minimal).filter(([k]) => k !== key));
      expect(providerDescriptorSchema.safeParse(copy).success, key).toBe(false);
    }
  });

  it.each([
    ['providerId', 'a', true],
    ['providerId', 'a-b9', true],
    ['providerId', 'A', false],
    ['providerId', '9a', false],
    ['providerId', 'a_b', false],
    ['providerId', 'a'.repeat(64), true],
    ['providerId', 'a'.repeat(65), false],
    ['providerVersion', 'v'.repeat(64), true],
    ['providerVersion', 'v'.repeat(65), false],
    ['wireVersion', 'w'.repeat(16), true],
    ['wireVersion', 'w'.repeat(17), false],
    ['displayName', 'd'.repeat(128), true],
    ['displayName', 'd'.repeat(129), false],
    ['displayName', '', false],
  ])('%s = %j -> %s', (key, value, ok) => {
    expect(providerDescriptorSchema.safeParse({ ...minimal, [key]: value }).success).toBe(ok);
  });

  it('is strict at every level', () => {
    const bad = [
      { ...minimal, extra: true },
      { ...minimal, run: { extra: true } },
      { ...minimal, run: { streaming: { extra: true } } },
      { ...minimal, interaction: { question: { extra: true } } },
      { ...minimal, interaction: { approval: { extra: true } } },
      { ...minimal, workspace: { requires: 'none', extra: true } },
      { ...minimal, recovery: { extra: true } },
    ];
    for (const value of bad) expect(providerDescriptorSchema.safeParse(value).success).toBe(false);
  });

  it('interrupt union: supported modes default to true, unsupported forces literal false', () => {
    const parse = (interrupt: unknown) =>
      providerDescriptorSchema.safeParse({ ...minimal, run: { interrupt } });
    expect(parse({ mode: 'immediate' }).data?.run.interrupt).toEqual({
      mode: 'immediate',
      deliversPartialOutput: true,
      sessionRemainsUsable: true,
    });
    expect(
      parse({ mode: 'cooperative', sessionRemainsUsable: false }).data?.run.interrupt
        .sessionRemainsUsable,
    ).toBe(false);
    expect(parse({ mode: 'unsupported', sessionRemainsUsable: true }).success).toBe(false);
    expect(parse({ mode: 'unsupported', deliversPartialOutput: true }).success).toBe(false);
    expect(parse({ mode: 'sometimes' }).success).toBe(false);
  });

  it('recovery union: {} is no recovery, export may resume, resume without export fails', () => {
    const parse = (recovery: unknown) =>
      providerDescriptorSchema.safeParse({ ...minimal, recovery });
    expect(parse({}).data?.recovery).toEqual({
      exportsRecoveryRecord: false,
      resumesFromRecoveryRecord: false,
      forksFromRecoveryRecord: false,
    });
    expect(parse({ exportsRecoveryRecord: true }).data?.recovery).toEqual({
      exportsRecoveryRecord: true,
      resumesFromRecoveryRecord: false,
      forksFromRecoveryRecord: false,
    });
    // a fork starts from an exported record, like a resume
    expect(parse({ exportsRecoveryRecord: true, forksFromRecoveryRecord: true }).success).toBe(
      true,
    );
    expect(parse({ forksFromRecoveryRecord: true }).success).toBe(false);
    expect(parse({ exportsRecoveryRecord: true, resumesFromRecoveryRecord: true }).success).toBe(
      true,
    );
    expect(parse({ resumesFromRecoveryRecord: true }).success).toBe(false);
    expect(parse({ exportsRecoveryRecord: false, resumesFromRecoveryRecord: true }).success).toBe(
      false,
    );
  });

  it('per-run options: each declared on its own; the request values are bounded tokens', () => {
    const run = (options: unknown) =>
      providerDescriptorSchema.safeParse({ ...minimal, run: { options } });
    expect(run({ effort: true }).data?.run.options).toEqual({
      model: false,
      effort: true,
      summary: false,
    });
    expect(run({ temperature: true }).success).toBe(false);
    expect(
      runOptionsSchema.safeParse({ model: 'gpt-5', effort: 'high', summary: 'none' }).success,
    ).toBe(true);
    for (const bad of [
      { model: 'two words' },
      { effort: 'HIGH' },
      { summary: 'brief' },
      { x: 1 },
    ]) {
      expect(runOptionsSchema.safeParse(bad).success).toBe(false);
    }
  });

  it('bounds numeric capabilities', () => {
    const run = (n: unknown) =>
      providerDescriptorSchema.safeParse({ ...minimal, run: { maxConcurrentRunsPerSession: n } });
    expect(run(2).success).toBe(true);
    expect(run(0).success).toBe(false);
    expect(run(1.5).success).toBe(false);
    const q = (maxQuestions: unknown) =>
      providerDescriptorSchema.safeParse({
        ...minimal,
        interaction: { question: { maxQuestions } },
      }).success;
    expect(q(null)).toBe(true);
    expect(q(4)).toBe(true);
    expect(q(0)).toBe(false);
    const t = (settlementTimeoutMs: unknown) =>
      providerDescriptorSchema.safeParse({ ...minimal, interaction: { settlementTimeoutMs } })
        .success;
    expect(t(null)).toBe(true);
    expect(t(1000)).toBe(true);
    expect(t(-1)).toBe(false);
  });

  it('extensions must be JSON', () => {
    expect(
      providerDescriptorSchema.safeParse({ ...minimal, extensions: { a: [1, { b: null }] } })
        .success,
    ).toBe(true);
    expect(
      providerDescriptorSchema.safeParse({ ...minimal, extensions: { a: Number.NaN } }).success,
    ).toBe(false);
    expect(providerDescriptorSchema.safeParse({ ...minimal, extensions: [] }).success).toBe(false);
  });
});
