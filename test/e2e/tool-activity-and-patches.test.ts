/**
 * On the real binary with the scripted model: tool activity (ADR-0014) and file-change
 * approvals (ADR-0015). A patch is proposed the only way this model slug can: an `exec_command`
 * whose `cmd` is an `apply_patch` heredoc, which codex intercepts as a patch.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { providerEventInputSchema } from '@relvo-labs/agent-provider';
import { describe, expect, it } from 'vitest';
import { applyPatchCommand } from '../../scripts/lib/scenarios-tools.js';
import { execCommandStep, functionCallOutput } from '../../src/testing/index.js';
import { closingStep, openRealCodex } from '../support/real-codex.js';
import * as turns from '../support/turns.js';

const PATCH_ASKED = 'the patch approval';
const SECRET = 'sk-e2eCANARYSECRET0123456789abc';

describe('tool activity against the real binary', () => {
  it('a command that prints a canary and exits 3: at most one invoked and one failed phase with exit code and byte count, never the output', async () => {
    const codex = await openRealCodex({ toolActivity: 'redacted' });
    const marker = `E2E-OUT-${Date.now()}`;
    codex.server.enqueue(
      execCommandStep(`printf 'PRINTED-%s %s\\n' ${marker} ${SECRET}; exit 3`, {
        callId: 'call_e2e',
      }),
      closingStep('done'),
    );
    const { sink, termination } = await turns.run(codex.session, 'go', 'ta');
    expect(termination).toEqual({ outcome: 'succeeded' });
    // the model got the output: the command really ran
    expect(functionCallOutput(codex.server.requests[1]!, 'call_e2e')).toContain(
      `PRINTED-${marker}`,
    );
    const activity = sink.ofType('run.tool_activity');
    const terminal = activity.filter((a) => a.phase !== 'invoked');
    // codex may drop the item events of a fast command (docs/protocol.md, "Ordering facts and quirks"): whatever arrived is
    // at most one invoked and one terminal phase, and the terminal one is the failure
    expect(activity.filter((a) => a.phase === 'invoked').length).toBeLessThanOrEqual(1);
    expect(terminal.length).toBeLessThanOrEqual(1);
    for (const a of terminal) {
      expect(a).toMatchObject({ toolName: 'command', phase: 'failed', detail: { exitCode: 3 } });
      expect(a.detail?.['outputBytes']).toEqual(expect.any(Number));
    }
    expect(activity.length).toBeGreaterThan(0);
    const everything = JSON.stringify(sink.events) + JSON.stringify(codex.sessionSink.events);
    expect(everything).not.toContain(`PRINTED-${marker}`);
    expect(everything).not.toContain(SECRET);
    expect(everything).not.toContain(codex.iso.workspace);
    for (const e of sink.events) expect(providerEventInputSchema.safeParse(e).success).toBe(true);
  });
});

describe('file-change approvals against the real binary', () => {
  const note = 'notes/hello.txt';

  it('approved once: one approval listing the file, and the file is written', async () => {
    const codex = await openRealCodex({
      fileChanges: 'bridge',
      sandboxMode: 'workspace-write',
      toolActivity: 'redacted',
    });
    codex.server.enqueue(
      execCommandStep(applyPatchCommand(note, 'APPROVED-LINE'), { callId: 'call_patch' }),
      closingStep('patched'),
    );
    const { run, sink, asked } = await turns.untilAsked(codex.session, 'write', 'fa', PATCH_ASKED);
    expect(asked.request).toMatchObject({
      kind: 'approval',
      subject: {
        category: 'file_write',
        detail: { changes: [{ path: note, kind: 'add' }], changeCount: 1 },
      },
      allowedModes: ['once'],
    });
    // nothing is written while the approval is pending
    expect(existsSync(join(codex.iso.workspace, note))).toBe(false);
    await turns.answer(codex.session, asked.providerRef, 'once');
    expect(await run.completion).toEqual({ outcome: 'succeeded' });
    expect(readFileSync(join(codex.iso.workspace, note), 'utf8')).toBe('APPROVED-LINE\n');
    expect(functionCallOutput(codex.server.requests[1]!, 'call_patch')).toContain(note);
    expect(sink.ofType('run.tool_activity').map((a) => [a.toolName, a.phase])).toEqual([
      ['file_change', 'invoked'],
      ['file_change', 'succeeded'],
    ]);
  });

  it('denied: the workspace is untouched and the turn completes', async () => {
    const codex = await openRealCodex({ fileChanges: 'bridge', sandboxMode: 'workspace-write' });
    codex.server.enqueue(
      execCommandStep(applyPatchCommand(note, 'DENIED-LINE'), { callId: 'call_patch' }),
      closingStep('ok'),
    );
    const before = readdirSync(codex.iso.workspace).sort();
    const { run, asked } = await turns.untilAsked(codex.session, 'write', 'fd', PATCH_ASKED);
    await turns.answer(codex.session, asked.providerRef, 'denied');
    expect(await run.completion).toEqual({ outcome: 'succeeded' });
    expect(readdirSync(codex.iso.workspace).sort()).toEqual(before);
    expect(functionCallOutput(codex.server.requests[1]!, 'call_patch')).toContain('rejected');
  });

  it('without the bridge, under the approvals bridge (on-request + workspace-write) codex applies the patch unasked: no approval is claimed', async () => {
    const codex = await openRealCodex({ approvals: 'bridge', sandboxMode: 'workspace-write' });
    expect(codex.provider.describe().extensions['bridgedServerRequests']).not.toContain(
      'item/fileChange/requestApproval',
    );
    codex.server.enqueue(
      execCommandStep(applyPatchCommand(note, 'UNASKED'), { callId: 'call_patch' }),
      closingStep('ok'),
    );
    const { sink, termination } = await turns.run(codex.session, 'write', 'fu');
    expect(termination).toEqual({ outcome: 'succeeded' });
    expect(sink.ofType('interaction.requested')).toEqual([]);
    expect(readFileSync(join(codex.iso.workspace, note), 'utf8')).toBe('UNASKED\n');
  });
});
