/**
 * Revert on the real binary (`persistence: 'thread'`): `session.revert({ turns })` takes the
 * last turns out of what the model sees next (`thread/revert` before the turn read from
 * `thread/turns/list`), leaves the files those turns wrote where they are (measured here), and
 * is refused while a run is active and beyond the thread's history.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isProviderRejection } from '@relvo-labs/agent-provider';
import { describe, expect, it } from 'vitest';
import { applyPatchCommand } from '../../scripts/lib/scenarios-tools.js';
import { execCommandStep, textStep } from '../../src/testing/index.js';
import { textInput } from '../support/provider-harness.js';
import {
  openRealCodex,
  recordingSink,
  resumeAfterDispose,
  waitForEvent,
  type RealCodex,
} from '../support/real-codex.js';

async function turn(codex: RealCodex, text: string, runRef: string): Promise<void> {
  const run = await codex.session.startRun({
    input: textInput(text),
    sink: recordingSink(),
    runRef,
  });
  expect(await run.completion).toEqual({ outcome: 'succeeded' });
}

/** The user and assistant texts of the model's request `index`, in order. */
function conversation(codex: RealCodex, index: number): string[] {
  const input = (codex.server.requests[index]?.body as { input?: unknown[] }).input ?? [];
  return input
    .map((i) => i as { role?: string; content?: { text?: string }[] })
    .filter((i) => i.role === 'user' || i.role === 'assistant')
    .map((i) => `${i.role}: ${(i.content ?? []).map((c) => c.text ?? '').join('')}`)
    .filter((line) => !line.includes('<environment_context>'));
}

describe('revert against the real binary', () => {
  it('takes the last two turns out of the next request and keeps the file one of them wrote', async () => {
    const codex = await openRealCodex({ persistence: 'thread', sandboxMode: 'workspace-write' });
    const note = 'notes/reverted.txt';
    codex.server.enqueue(
      textStep('answer one'),
      execCommandStep(applyPatchCommand(note, 'WRITTEN-BY-TURN-TWO'), { callId: 'call_patch' }),
      textStep('answer two'),
      textStep('answer three'),
      textStep('answer after revert'),
    );
    await turn(codex, 'question one', 'r1');
    await turn(codex, 'question two writes a file', 'r2');
    await turn(codex, 'question three', 'r3');
    expect(await codex.session.revert!({ turns: 2 })).toEqual({ turns: 2, files: 'kept' });
    // codex reverts the conversation only: the file turn two wrote is still there
    expect(readFileSync(join(codex.iso.workspace, note), 'utf8')).toBe('WRITTEN-BY-TURN-TWO\n');
    await turn(codex, 'question after revert', 'r4');
    const next = conversation(codex, codex.server.requests.length - 1);
    expect(next).toEqual([
      'user: question one',
      'assistant: answer one',
      'user: question after revert',
    ]);
  });

  it('is refused beyond the history and while a run is active, typed, with nothing reverted', async () => {
    const codex = await openRealCodex({ persistence: 'thread' });
    codex.server.enqueue(
      textStep('kept answer'),
      textStep(['slow ', 'answer'], { stallAfterDeltas: 1 }),
      textStep('after the refusals'),
    );
    await turn(codex, 'kept question', 'k1');
    const beyond = await codex.session.revert!({ turns: 2 }).catch((e: unknown) => e);
    expect(isProviderRejection(beyond) && beyond.agentError).toMatchObject({
      code: 'invalid_request',
      providerCode: 'revert_beyond_history',
      details: { turns: 1 },
    });
    const malformed = await codex.session.revert!({ turns: 0 }).catch((e: unknown) => e);
    expect(isProviderRejection(malformed) && malformed.agentError.code).toBe('invalid_request');
    const sink = recordingSink();
    const slow = await codex.session.startRun({ input: textInput('slow one'), sink, runRef: 'k2' });
    await waitForEvent(sink, (e) => e.payload.type === 'run.message_delta', 'the slow delta');
    const active = await codex.session.revert!({ turns: 1 }).catch((e: unknown) => e);
    expect(isProviderRejection(active) && active.agentError).toMatchObject({
      code: 'illegal_state_transition',
      providerCode: 'run_active',
    });
    await slow.interrupt('test');
    expect((await slow.completion).outcome).toBe('interrupted');
    await turn(codex, 'after the refusals', 'k3');
    const last = conversation(codex, codex.server.requests.length - 1);
    expect(last.slice(0, 2)).toEqual(['user: kept question', 'assistant: kept answer']);
    expect(existsSync(codex.iso.workspace)).toBe(true);
  });

  it('a resumed session reverts a turn it never ran itself', async () => {
    const codex = await openRealCodex({ persistence: 'thread' });
    codex.server.enqueue(textStep('first answer'), textStep('second answer'), textStep('again'));
    await turn(codex, 'first question', 'p1');
    await turn(codex, 'second question', 'p2');
    const resumed = await resumeAfterDispose(codex);
    try {
      expect(await resumed.revert!({ turns: 1 })).toEqual({ turns: 1, files: 'kept' });
      const run = await resumed.startRun({
        input: textInput('third question'),
        sink: recordingSink(),
        runRef: 'p3',
      });
      expect(await run.completion).toEqual({ outcome: 'succeeded' });
      expect(conversation(codex, codex.server.requests.length - 1)).toEqual([
        'user: first question',
        'assistant: first answer',
        'user: third question',
      ]);
    } finally {
      await resumed.dispose();
    }
  });

  it('an ephemeral session has no revert and does not declare one', async () => {
    const codex = await openRealCodex();
    expect('revert' in codex.session).toBe(false);
    expect(codex.provider.describe().session.revert).toBe(false);
  });
});
