import { describe, expect, it } from 'vitest';
import { describeProviderConformance, runProviderConformance } from '@relvo-labs/agent-provider/testing';
import { codexHarness } from './codex-harness.js';

describeProviderConformance('codex (fake transport, approvals and questions bridged)', codexHarness());

describe('codex conformance report', () => {
  it('exercises every check (none skipped) and passes them all', async () => {
    const report = await runProviderConformance(codexHarness());
    expect(report.providerId).toBe('codex');
    expect(report.checks.filter((c) => c.status !== 'passed')).toEqual([]);
  });
});
