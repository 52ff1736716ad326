/**
 * A patch that writes outside the workspace, on the real binary (ADR-0015, amended): refused by
 * default, so no answer of a host's can apply it; raised only when the host asked to see such
 * changes, and then it shows where it goes relative to the workspace root, marked outside.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyPatchCommand } from '../../scripts/lib/scenarios-tools.js';
import { execCommandStep, scriptedUsage, textStep } from '../../src/testing/index.js';
import { textInput } from '../support/provider-harness.js';
import { openRealCodex, recordingSink, waitForEvent } from '../support/real-codex.js';

const TARGET = '../outside-canary/f.txt';

async function proposeOutsidePatch(outsideWorkspaceChanges?: 'ask' | 'decline') {
  const codex = await openRealCodex({
    fileChanges: 'bridge',
    sandboxMode: 'workspace-write',
    ...(outsideWorkspaceChanges === undefined ? {} : { outsideWorkspaceChanges }),
  });
  const outsideFile = join(dirname(codex.iso.workspace), 'outside-canary', 'f.txt');
  mkdirSync(dirname(outsideFile), { recursive: true });
  codex.server.enqueue(
    execCommandStep(applyPatchCommand(TARGET, 'OUTSIDE-LINE'), { callId: 'call_patch' }),
    textStep('done', { usage: scriptedUsage(5, 1, 0, 0) }),
  );
  const sink = recordingSink();
  const run = await codex.session.startRun({ input: textInput('write'), sink, runRef: 'o' });
  return { codex, sink, run, outsideFile };
}

describe('a patch leaving the workspace, against the real binary', () => {
  it('default: refused without raising anything, typed, and nothing is written outside', async () => {
    const { codex, sink, run, outsideFile } = await proposeOutsidePatch();
    expect(codex.provider.describe().extensions['outsideWorkspaceChanges']).toBe('decline');
    expect(await run.completion).toEqual({ outcome: 'succeeded' });
    expect(sink.ofType('interaction.requested')).toEqual([]);
    expect(JSON.stringify(codex.sessionSink.events)).toContain('outside_workspace_change');
    expect(existsSync(outsideFile)).toBe(false);
  });

  it("'ask': raised with the target relative to the root, marked outside, high risk", async () => {
    const { codex, sink, run, outsideFile } = await proposeOutsidePatch('ask');
    const requested = await waitForEvent(
      sink,
      (e) => e.payload.type === 'interaction.requested',
      'the patch approval',
    );
    if (requested.payload.type !== 'interaction.requested') throw new Error('unreachable');
    const request = requested.payload.request;
    expect(request).toMatchObject({
      kind: 'approval',
      subject: {
        category: 'file_write',
        detail: {
          changes: [{ path: TARGET, kind: 'add', outsideWorkspace: true }],
          outsideWorkspace: true,
        },
      },
      allowedModes: ['once'],
      riskHint: 'high',
    });
    if (request.kind !== 'approval') throw new Error('unreachable');
    expect(request.subject.summary).toMatch(/^WARNING: writes OUTSIDE the workspace\./);
    expect(request.subject.summary).toContain(TARGET);
    expect(existsSync(outsideFile)).toBe(false);
    await codex.session.respondToInteraction(requested.payload.providerRef, {
      kind: 'approval',
      decision: 'denied',
    });
    expect(await run.completion).toEqual({ outcome: 'succeeded' });
    expect(existsSync(outsideFile)).toBe(false);
  });
});
