/**
 * createCodexProvider() driving the REAL codex under test (CODEX_UNDER_TEST, else the pinned baseline) end to end (credential-free,
 * network-free: the model is a scripted server on 127.0.0.1). Approvals: codex-approvals.test.ts.
 */
import { providerEventInputSchema } from '@relvo-labs/agent-provider';
import { describe, expect, it } from 'vitest';
import { functionCallStep, scriptedUsage, textStep } from '../../src/testing/index.js';
import { processesWithEnv } from '../support/proc-scan.js';
import { texts } from '../support/provider-harness.js';
import { openRealCodex, slowTextStep, closingStep } from '../support/real-codex.js';
import * as turns from '../support/turns.js';

describe('codex provider against the real binary under test', () => {
  it('runs a text turn: deltas, per-turn usage, success; a second turn reuses the thread', async () => {
    const codex = await openRealCodex();
    codex.server.enqueue(textStep(['Hello', ' world'], { usage: scriptedUsage(1200, 30, 200, 5) }));
    const { sink, termination } = await turns.run(codex.session, 'hi', 'one');
    expect(termination).toEqual({ outcome: 'succeeded' });
    expect(texts(sink)).toBe('Hello world');
    expect(turns.lastUsage(sink)).toEqual(turns.tokens(1200, 30, 1230));
    for (const e of sink.events) expect(providerEventInputSchema.safeParse(e).success).toBe(true);

    codex.server.enqueue(textStep('again', { usage: scriptedUsage(10, 2, 0, 0) }));
    const second = await turns.run(codex.session, 'more', 'two');
    expect(second.termination).toEqual({ outcome: 'succeeded' });
    // usage is the run's own (ADR-0012), not the thread total
    expect(turns.lastUsage(second.sink)).toEqual(turns.tokens(10, 2, 12));
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
    const { sink, termination } = await turns.run(codex.session, 'boom', 'r');
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
    codex.server.enqueue(slowTextStep(50, 100, 'tick'), closingStep('after'));
    const { run, sink } = await turns.start(codex.session, 'slow', 's');
    await turns.firstDelta(sink);
    await Promise.all([run.interrupt('user pressed stop'), run.interrupt()]);
    const termination = await run.completion;
    expect(termination).toEqual({ outcome: 'interrupted', reason: 'user pressed stop' });
    expect(sink.ofType('run.message_delta').length).toBeGreaterThan(0);
    expect(await turns.end(codex.session, 'next', 't')).toEqual({ outcome: 'succeeded' });
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
      closingStep('fine'),
    );
    const { sink, termination } = await turns.run(codex.session, 'ask me', 'q');
    expect(termination).toEqual({ outcome: 'succeeded' });
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

describe('the peer dies mid-turn', () => {
  it('SIGKILL of the app-server fails the run (never success), and dispose still succeeds', async () => {
    const codex = await openRealCodex();
    codex.server.enqueue(slowTextStep(100, 100, 't'));
    const { run, sink } = await turns.start(codex.session, 'slow', 'k');
    await turns.firstDelta(sink);
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
