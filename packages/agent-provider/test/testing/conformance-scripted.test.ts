import { describe, expect, it } from 'vitest';
import { runProviderConformance } from '../../src/testing/index.js';
import { describeProviderConformance } from '../../src/testing/vitest.js';
import { scriptedHarness } from './scripted-harness.js';

describe('runProviderConformance on the scripted provider', () => {
  for (const interruptMode of ['immediate', 'cooperative'] as const) {
    it(`passes every check (${interruptMode} interrupts)`, async () => {
      const report = await runProviderConformance(scriptedHarness({ interruptMode }));
      const failed = report.checks.filter((c) => c.status !== 'passed');
      expect(failed).toEqual([]);
      expect(report.providerId).toBe('scripted');
      expect(report.passed).toBe(report.checks.length);
    });
  }
});

describeProviderConformance('scripted provider', scriptedHarness());

describe('runProviderConformance on a scripted provider without interrupt support', () => {
  it('passes every applicable check and skips only the interrupt outcome, with its reason', async () => {
    const report = await runProviderConformance(scriptedHarness({ interruptMode: 'unsupported' }));
    expect(report.checks.filter((c) => c.status === 'failed')).toEqual([]);
    expect(report.checks.filter((c) => c.status === 'skipped')).toEqual([
      expect.objectContaining({
        id: 'run.interrupt-outcome',
        reason: 'not applicable: the descriptor declares interrupt unsupported',
      }),
    ]);
  });
});
