/**
 * Command approvals through createCodexProvider() on the REAL codex under test (CODEX_UNDER_TEST,
 * else the pinned baseline), against a scripted model on 127.0.0.1: approved once or for the
 * session, denied, raised again in a later turn, and a session disposed while an approved
 * command still runs.
 */
import { describe, expect, it } from 'vitest';
import { execCommandStep, functionCallOutput, textStep } from '../../src/testing/index.js';
import { processesWithCmdline } from '../support/proc-scan.js';
import { openRealCodex, closingStep, escalatedEcho } from '../support/real-codex.js';
import * as turns from '../support/turns.js';

describe('codex provider against the real binary under test', () => {
  it('approval bridge, approved once: the command runs and its output reaches the model', async () => {
    const codex = await openRealCodex({ approvals: 'bridge' });
    const marker = `out-${Date.now()}`;
    codex.server.enqueue(escalatedEcho(marker, 'call_ok'), closingStep('done'));
    const { run, asked } = await turns.untilAsked(codex.session, 'run it', 'a', 'the approval');
    expect(asked.request).toMatchObject({
      kind: 'approval',
      subject: { category: 'command', detail: { command: expect.stringContaining(marker) } },
      // availableDecisions lists accept only; session is honoured anyway (ADR-0003 amendment)
      allowedModes: ['once', 'session'],
    });
    await turns.answer(codex.session, asked.providerRef, 'once');
    expect(await run.completion).toEqual({ outcome: 'succeeded' });
    const second = codex.server.requests[1];
    expect(second).toBeDefined();
    expect(functionCallOutput(second!, 'call_ok')).toContain(marker);
  });

  it('approval bridge, approved for the session: the same command twice in one turn raises one approval and runs twice', async () => {
    const codex = await openRealCodex({ approvals: 'bridge' });
    const marker = `session-${Date.now()}`;
    codex.server.enqueue(
      escalatedEcho(marker, 'call_s1'),
      escalatedEcho(marker, 'call_s2'),
      closingStep('done'),
    );
    const { run, sink, asked } = await turns.untilAsked(
      codex.session,
      'run it twice',
      's',
      'the approval',
    );
    // unlisted in availableDecisions, yet honoured by every reviewed release (ADR-0003)
    expect(asked.request).toMatchObject({ allowedModes: ['once', 'session'] });
    await turns.answer(codex.session, asked.providerRef, 'session');
    expect(await run.completion).toEqual({ outcome: 'succeeded' });
    expect(sink.ofType('interaction.requested')).toHaveLength(1);
    expect(codex.server.requests).toHaveLength(3);
    expect(functionCallOutput(codex.server.requests[1]!, 'call_s1')).toContain(marker);
    expect(functionCallOutput(codex.server.requests[2]!, 'call_s2')).toContain(marker);
  });

  it('approval bridge, denied: the command does not run and the turn still completes', async () => {
    const codex = await openRealCodex({ approvals: 'bridge' });
    const marker = `denied-${Date.now()}`;
    codex.server.enqueue(escalatedEcho(marker, 'call_no'), closingStep('ok'));
    const { run, asked } = await turns.untilAsked(codex.session, 'run it', 'd', 'the approval');
    await turns.answer(codex.session, asked.providerRef, 'denied');
    expect(await run.completion).toEqual({ outcome: 'succeeded' });
    const output = functionCallOutput(codex.server.requests[1]!, 'call_no');
    expect(output).toBeDefined();
    expect(output).not.toContain(`${marker}\n`);
    expect(output).toContain('rejected');
  });
});

describe('server request ids across turns', () => {
  it('two approvals in two turns of one session are both raised and answered (ids are not reused)', async () => {
    const codex = await openRealCodex({ approvals: 'bridge' });
    for (const [i, call] of ['call_a', 'call_b'].entries()) {
      codex.server.enqueue(
        execCommandStep(`echo turn-${i}`, { callId: call, escalate: true, justification: 'twice' }),
        closingStep('ok'),
      );
      const { run, asked } = await turns.untilAsked(
        codex.session,
        `turn ${i}`,
        call,
        `approval ${i}`,
      );
      await turns.answer(codex.session, asked.providerRef, 'once');
      expect(await run.completion).toEqual({ outcome: 'succeeded' });
    }
    expect(codex.sessionSink.ofType('diagnostic').some((d) => d.message.includes('reused'))).toBe(
      false,
    );
  });
});

describe('disposal with work in flight', () => {
  it('disposing during an approved long-running command ends the run interrupted and leaves no process behind', async () => {
    const codex = await openRealCodex({ approvals: 'bridge' });
    // a unique duration is the marker: it shows in the command line of whatever runs it
    const marker = `300.${String(Date.now()).slice(-6)}`;
    codex.server.enqueue(
      execCommandStep(`sleep ${marker}`, {
        callId: 'call_sleep',
        escalate: true,
        justification: 'long',
      }),
      textStep('never reached'),
    );
    const { run, asked } = await turns.untilAsked(codex.session, 'sleep', 'z', 'the approval');
    await turns.answer(codex.session, asked.providerRef, 'once');
    // wait until the command is really running
    const deadline = Date.now() + 15_000;
    while (findByCmdline(marker).length === 0) {
      if (Date.now() > deadline) throw new Error('the approved command never started');
      await new Promise((r) => setTimeout(r, 50));
    }
    await codex.session.dispose();
    expect(await run.completion).toEqual({
      outcome: 'interrupted',
      reason: 'codex provider session disposed',
    });
    expect(findByCmdline(marker)).toEqual([]);
  }, 60_000);
});

function findByCmdline(needle: string): number[] {
  return processesWithCmdline(needle).map((p) => p.pid);
}
