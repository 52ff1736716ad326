/**
 * createCodexProvider() driving the REAL codex under test (CODEX_UNDER_TEST, else the pinned baseline) end to end (credential-free,
 * network-free: the model is a scripted server on 127.0.0.1).
 */
import { providerEventInputSchema } from '@relvo-labs/agent-provider';
import { describe, expect, it } from 'vitest';
import {
  execCommandStep,
  functionCallOutput,
  scriptedUsage,
  textStep,
  functionCallStep,
} from '../../src/testing/index.js';
import { processesWithCmdline, processesWithEnv } from '../support/proc-scan.js';
import { textInput, texts } from '../support/provider-harness.js';
import {
  openRealCodex,
  recordingSink,
  waitForEvent,
  waitForApproval,
  approveOnce,
  slowTextStep,
} from '../support/real-codex.js';

describe('codex provider against the real binary under test', () => {
  it('runs a text turn: deltas, per-turn usage, success; a second turn reuses the thread', async () => {
    const codex = await openRealCodex();
    codex.server.enqueue(textStep(['Hello', ' world'], { usage: scriptedUsage(1200, 30, 200, 5) }));
    const sink = recordingSink();
    const run = await codex.session.startRun({ input: textInput('hi'), sink, runRef: 'one' });
    expect(await run.completion).toEqual({ outcome: 'succeeded' });
    expect(texts(sink)).toBe('Hello world');
    expect(sink.ofType('run.usage').at(-1)?.usage).toEqual({
      inputTokens: 1200,
      outputTokens: 30,
      totalTokens: 1230,
    });
    for (const e of sink.events) expect(providerEventInputSchema.safeParse(e).success).toBe(true);

    codex.server.enqueue(textStep('again', { usage: scriptedUsage(10, 2, 0, 0) }));
    const second = recordingSink();
    const run2 = await codex.session.startRun({
      input: textInput('more'),
      sink: second,
      runRef: 'two',
    });
    expect(await run2.completion).toEqual({ outcome: 'succeeded' });
    // usage is the run's own (ADR-0012), not the thread total
    expect(second.ofType('run.usage').at(-1)?.usage).toEqual({
      inputTokens: 10,
      outputTokens: 2,
      totalTokens: 12,
    });
    expect(codex.server.requests).toHaveLength(2);
    // both requests belong to one thread: the second carries the first turn's history
    expect(JSON.stringify(codex.server.requests[1]?.body)).toContain('Hello world');
  });

  it('an HTTP 500 fails the run as provider_unavailable without upstream prose', async () => {
    const codex = await openRealCodex();
    codex.server.enqueue({
      kind: 'httpError',
      status: 500,
      body: { error: { message: 'sk-CANARYCANARYCANARY123456' } },
      headers: {},
    });
    const sink = recordingSink();
    const run = await codex.session.startRun({ input: textInput('boom'), sink, runRef: 'r' });
    const termination = await run.completion;
    expect(termination).toMatchObject({
      outcome: 'failed',
      error: {
        code: 'provider_unavailable',
        providerCode: 'upstream_unavailable',
        retryable: true,
      },
    });
    const published = JSON.stringify([termination, sink.events, codex.sessionSink.events]);
    expect(published).not.toContain('CANARY');
    expect(published).not.toContain('high demand');
  });

  it('interrupts a slow stream: interrupted, partial output kept, the session stays usable', async () => {
    const codex = await openRealCodex();
    codex.server.enqueue(
      slowTextStep(50, 100, 'tick'),
      textStep('after', { usage: scriptedUsage(5, 1, 0, 0) }),
    );
    const sink = recordingSink();
    const run = await codex.session.startRun({ input: textInput('slow'), sink, runRef: 's' });
    await waitForEvent(sink, (e) => e.payload.type === 'run.message_delta', 'a first delta');
    await Promise.all([run.interrupt('user pressed stop'), run.interrupt()]);
    const termination = await run.completion;
    expect(termination).toEqual({ outcome: 'interrupted', reason: 'user pressed stop' });
    expect(sink.ofType('run.message_delta').length).toBeGreaterThan(0);
    const next = await codex.session.startRun({
      input: textInput('next'),
      sink: recordingSink(),
      runRef: 't',
    });
    expect(await next.completion).toEqual({ outcome: 'succeeded' });
  });

  it('approval bridge, approved once: the command runs and its output reaches the model', async () => {
    const codex = await openRealCodex({ approvals: 'bridge' });
    const marker = `out-${Date.now()}`;
    codex.server.enqueue(
      execCommandStep(`echo ${marker}`, {
        callId: 'call_ok',
        escalate: true,
        justification: 'test wants echo',
      }),
      textStep('done', { usage: scriptedUsage(5, 1, 0, 0) }),
    );
    const sink = recordingSink();
    const run = await codex.session.startRun({ input: textInput('run it'), sink, runRef: 'a' });
    const requested = await waitForApproval(sink, 'the approval');
    expect(requested.request).toMatchObject({
      kind: 'approval',
      subject: { category: 'command', detail: { command: expect.stringContaining(marker) } },
      // availableDecisions lists accept only; session is honoured anyway (ADR-0003 amendment)
      allowedModes: ['once', 'session'],
    });
    await approveOnce(codex, requested.providerRef);
    expect(await run.completion).toEqual({ outcome: 'succeeded' });
    const second = codex.server.requests[1];
    expect(second).toBeDefined();
    expect(functionCallOutput(second!, 'call_ok')).toContain(marker);
  });

  it('approval bridge, approved for the session: the same command twice in one turn raises one approval and runs twice', async () => {
    const codex = await openRealCodex({ approvals: 'bridge' });
    const marker = `session-${Date.now()}`;
    codex.server.enqueue(
      execCommandStep(`echo ${marker}`, {
        callId: 'call_s1',
        escalate: true,
        justification: 'test wants echo',
      }),
      execCommandStep(`echo ${marker}`, {
        callId: 'call_s2',
        escalate: true,
        justification: 'test wants echo',
      }),
      textStep('done', { usage: scriptedUsage(5, 1, 0, 0) }),
    );
    const sink = recordingSink();
    const run = await codex.session.startRun({
      input: textInput('run it twice'),
      sink,
      runRef: 's',
    });
    const requested = await waitForEvent(
      sink,
      (e) => e.payload.type === 'interaction.requested',
      'the approval',
    );
    if (requested.payload.type !== 'interaction.requested') throw new Error('unreachable');
    // unlisted in availableDecisions, yet honoured by every reviewed release (ADR-0003)
    expect(requested.payload.request).toMatchObject({ allowedModes: ['once', 'session'] });
    await codex.session.respondToInteraction(requested.payload.providerRef, {
      kind: 'approval',
      decision: 'approved',
      mode: 'session',
    });
    expect(await run.completion).toEqual({ outcome: 'succeeded' });
    expect(sink.ofType('interaction.requested')).toHaveLength(1);
    expect(codex.server.requests).toHaveLength(3);
    expect(functionCallOutput(codex.server.requests[1]!, 'call_s1')).toContain(marker);
    expect(functionCallOutput(codex.server.requests[2]!, 'call_s2')).toContain(marker);
  });

  it('approval bridge, denied: the command does not run and the turn still completes', async () => {
    const codex = await openRealCodex({ approvals: 'bridge' });
    const marker = `denied-${Date.now()}`;
    codex.server.enqueue(
      execCommandStep(`echo ${marker}`, {
        callId: 'call_no',
        escalate: true,
        justification: 'test wants echo',
      }),
      textStep('ok', { usage: scriptedUsage(5, 1, 0, 0) }),
    );
    const sink = recordingSink();
    const run = await codex.session.startRun({ input: textInput('run it'), sink, runRef: 'd' });
    const requested = await waitForApproval(sink, 'the approval');
    await codex.session.respondToInteraction(requested.providerRef, {
      kind: 'approval',
      decision: 'denied',
    });
    expect(await run.completion).toEqual({ outcome: 'succeeded' });
    const output = functionCallOutput(codex.server.requests[1]!, 'call_no');
    expect(output).toBeDefined();
    expect(output).not.toContain(`${marker}\n`);
    expect(output).toContain('rejected');
  });

  it('question bridge: the stable surface sends a non-blocking request_user_input, refused on its id; the turn completes', async () => {
    const codex = await openRealCodex(
      { questions: 'bridge' },
      { extra: ['features.default_mode_request_user_input=true'] },
    );
    codex.server.enqueue(
      functionCallStep(
        'request_user_input',
        {
          questions: [
            {
              id: 'color',
              header: 'Color',
              question: 'Which color?',
              options: [
                { label: 'Red', description: 'Loud.' },
                { label: 'Blue', description: 'Calm.' },
              ],
            },
          ],
        },
        { callId: 'call_q' },
      ),
      textStep('fine', { usage: scriptedUsage(5, 1, 0, 0) }),
    );
    const sink = recordingSink();
    const run = await codex.session.startRun({ input: textInput('ask me'), sink, runRef: 'q' });
    expect(await run.completion).toEqual({ outcome: 'succeeded' });
    expect(sink.ofType('interaction.requested')).toHaveLength(0);
    expect(
      codex.sessionSink.ofType('diagnostic').some((d) => d.message.includes('not_blocking')),
    ).toBe(true);
    expect(codex.server.requests.length).toBeGreaterThanOrEqual(2);
  });
});

describe('resource usage of the owned process group', () => {
  it('is measured while the app-server runs', async () => {
    const codex = await openRealCodex();
    const usage = await codex.session.resourceUsage();
    expect(usage).toBeDefined();
    expect(usage!.processes).toBeGreaterThanOrEqual(1);
    // the native app-server is a large static binary: tens of MB resident at least
    expect(usage!.rssBytes).toBeGreaterThan(10 * 1024 * 1024);
  });
});

describe('server request ids across turns', () => {
  it('two approvals in two turns of one session are both raised and answered (ids are not reused)', async () => {
    const codex = await openRealCodex({ approvals: 'bridge' });
    for (const [i, call] of ['call_a', 'call_b'].entries()) {
      codex.server.enqueue(
        execCommandStep(`echo turn-${i}`, { callId: call, escalate: true, justification: 'twice' }),
        textStep('ok', { usage: scriptedUsage(5, 1, 0, 0) }),
      );
      const sink = recordingSink();
      const run = await codex.session.startRun({
        input: textInput(`turn ${i}`),
        sink,
        runRef: call,
      });
      const requested = await waitForApproval(sink, `approval ${i}`);
      await approveOnce(codex, requested.providerRef);
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
    const sink = recordingSink();
    const run = await codex.session.startRun({ input: textInput('sleep'), sink, runRef: 'z' });
    const requested = await waitForApproval(sink, 'the approval');
    await approveOnce(codex, requested.providerRef);
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

describe('the peer dies mid-turn', () => {
  it('SIGKILL of the app-server fails the run (never success), and dispose still succeeds', async () => {
    const codex = await openRealCodex();
    codex.server.enqueue(slowTextStep(100, 100, 't'));
    const sink = recordingSink();
    const run = await codex.session.startRun({ input: textInput('slow'), sink, runRef: 'k' });
    await waitForEvent(sink, (e) => e.payload.type === 'run.message_delta', 'a first delta');
    const leaders = appServersOf(codex.iso.codexHome);
    expect(leaders).toHaveLength(1);
    process.kill(leaders[0]!, 'SIGKILL');
    const termination = await run.completion;
    expect(termination).toMatchObject({
      outcome: 'failed',
      error: { code: 'provider_unavailable', retryable: true },
    });
    expect(
      codex.sessionSink.ofType('diagnostic').some((d) => d.message.startsWith('codex connection')),
    ).toBe(true);
    await codex.session.dispose();
    expect(appServersOf(codex.iso.codexHome)).toEqual([]);
  }, 60_000);
});

/** Live app-server processes whose environment points at this test's CODEX_HOME. */
function appServersOf(codexHome: string): number[] {
  return processesWithEnv(`CODEX_HOME=${codexHome}`)
    .filter((p) => p.argv.includes('app-server'))
    .map((p) => p.pid);
}
