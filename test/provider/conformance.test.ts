import { describe, expect, it } from 'vitest';
import { runProviderConformance } from '@relvo-labs/agent-provider/testing';
import { describeProviderConformance } from '@relvo-labs/agent-provider/testing/vitest';
import { codexHarness } from '../support/conformance-harness.js';

describeProviderConformance(
  'codex (fake transport, approvals and questions bridged)',
  codexHarness(),
);

const EVERY_OPTION = {
  toolActivity: 'redacted',
  fileChanges: 'bridge',
  persistence: 'thread',
  fileReferences: 'resolve',
  permissions: 'bridge',
  mcpElicitations: 'bridge',
  experimentalApi: true,
} as const;

describeProviderConformance(
  'codex (fake transport, every option on: approvals, questions, tool activity, file changes, permissions, MCP elicitations, persistence, file references, host tools)',
  codexHarness(EVERY_OPTION),
);

describe('codex conformance report', () => {
  // Pass/fail is reported per check by describeProviderConformance above; this asserts that the
  // harness drives every capability the descriptor declares, so nothing is left unexercised.
  it('exercises every check but fork, revert and history, which need persistence (none other skipped)', async () => {
    const report = await runProviderConformance(codexHarness());
    expect(report.providerId).toBe('codex');
    expect(report.checks.filter((c) => c.status === 'skipped').map((c) => c.id)).toEqual([
      'session.fork',
      'session.revert',
      'session.history',
    ]);
    expect(report.checks.length).toBeGreaterThanOrEqual(27);
  });

  it('every option on: every check passes, none skipped', async () => {
    const report = await runProviderConformance(codexHarness(EVERY_OPTION));
    expect(report.checks.filter((c) => c.status !== 'passed')).toEqual([]);
    // per-run options and fork are exercised, not merely declared
    expect(report.checks.map((c) => c.id)).toEqual(
      expect.arrayContaining(['run.options', 'session.fork', 'session.revert', 'session.history']),
    );
    expect(report.checks.length).toBeGreaterThanOrEqual(27);
  });
});
