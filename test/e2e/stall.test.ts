/**
 * The stall watchdog on the real binary (ADR-0008), with small test values. Before it, each of
 * the first three runs stayed unsettled (a model that never answers: for as long as we watched;
 * a mid-stream stop: until codex's own 300 s idle timeout; a SIGSTOPped app-server: until
 * dispose).
 */
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { execCommandStep, responseFailedStep, textStep } from '../../src/testing/index.js';
import { processesWithEnv } from '../support/proc-scan.js';
import { texts } from '../support/provider-harness.js';
import { openRealCodex, type RealCodex } from '../support/real-codex.js';
import * as turns from '../support/turns.js';

const STALL_MS = 1_500;
const GRACE_MS = 5_000;
/** A stopped app-server never answers the interrupt: any grace proves the fence. */
const FROZEN_GRACE_MS = 1_000;
/** Scheduling slack on a loaded 2-core machine; the bound is still finite and stated. */
const SLACK_MS = 15_000;

const STALLED = {
  outcome: 'failed',
  error: { code: 'provider_unavailable', providerCode: 'turn_stalled', retryable: true },
};

const listeners: { server: Server; sockets: Set<Socket> }[] = [];
afterEach(async () => {
  for (const { server, sockets } of listeners.splice(0)) {
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) =>
      server.close(() => {
        resolve();
      }),
    );
  }
});

/** A model endpoint on 127.0.0.1 that accepts the request and never sends a byte. */
async function silentModel(): Promise<string> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.resume(); // read the request, answer nothing
  });
  listeners.push({ server, sockets });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return `http://127.0.0.1:${String(address.port)}/v1`;
}

function fenced(codex: RealCodex): boolean {
  return codex.sessionSink
    .ofType('diagnostic')
    .some((d) => d.detail?.reason === 'turn_stalled_unresponsive');
}

function leaderOf(codex: RealCodex): number {
  const leaders = processesWithEnv(`CODEX_HOME=${codex.iso.codexHome}`).filter(
    (p) => p.ppid === process.pid && p.cmdline.includes('app-server'),
  );
  expect(leaders).toHaveLength(1);
  return leaders[0]!.pid;
}

describe('stall watchdog (real binary)', () => {
  it('a model that accepts the request and never answers: turn_stalled, codex completes the interrupt, the thread stays usable', async () => {
    const codex = await openRealCodex(
      { stallTimeoutMs: STALL_MS, stallGraceMs: GRACE_MS },
      { baseUrl: await silentModel() },
    );
    const started = Date.now();
    const { sink, termination } = await turns.run(codex.session, 'hi', 'silent');
    expect(termination).toMatchObject(STALLED);
    expect(Date.now() - started).toBeLessThan(STALL_MS + GRACE_MS + SLACK_MS);
    expect(sink.ofType('diagnostic').map((d) => d.detail)).toContainEqual({
      reason: 'turn_stalled',
    });
    // codex answered the interrupt and completed the turn: nothing fenced
    expect(fenced(codex)).toBe(false);
    expect(await turns.end(codex.session, 'again', 'silent-2')).toMatchObject(STALLED);
  }, 90_000);

  it('a stream that stops mid-way: turn_stalled well before codex’s 300 s idle timeout; partial text kept', async () => {
    const codex = await openRealCodex({ stallTimeoutMs: STALL_MS, stallGraceMs: GRACE_MS });
    codex.server.enqueue(textStep(['part', 'never', 'sent'], { stallAfterDeltas: 1 }));
    const started = Date.now();
    const { sink, termination } = await turns.run(codex.session, 'hi', 'mid');
    expect(termination).toMatchObject(STALLED);
    expect(Date.now() - started).toBeLessThan(STALL_MS + GRACE_MS + SLACK_MS);
    expect(texts(sink)).toBe('part');
    expect(fenced(codex)).toBe(false);
    codex.server.enqueue(textStep('fine'));
    expect(await turns.end(codex.session, 'again', 'mid-2')).toEqual({ outcome: 'succeeded' });
  }, 90_000);

  it('a SIGSTOPped app-server: the interrupt gets no answer, the session is fenced after the grace, dispose still succeeds', async () => {
    const codex = await openRealCodex({ stallTimeoutMs: STALL_MS, stallGraceMs: FROZEN_GRACE_MS });
    codex.server.enqueue(
      textStep(
        Array.from({ length: 200 }, (_, i) => `t${String(i)} `),
        { delayMs: 100 },
      ),
    );
    const { run, sink } = await turns.start(codex.session, 'slow', 'stop');
    await turns.firstDelta(sink);
    const leader = leaderOf(codex);
    const stoppedAt = Date.now();
    process.kill(leader, 'SIGSTOP');
    expect(await run.completion).toMatchObject(STALLED);
    expect(Date.now() - stoppedAt).toBeLessThan(STALL_MS + FROZEN_GRACE_MS + SLACK_MS);
    expect(fenced(codex)).toBe(true);
    await codex.session.dispose();
    expect(processesWithEnv(`CODEX_HOME=${codex.iso.codexHome}`)).toEqual([]);
  }, 90_000);

  it('a silent command longer than stallTimeoutMs, and an approval left waiting longer, are not a stall', async () => {
    const codex = await openRealCodex({
      approvals: 'bridge',
      stallTimeoutMs: STALL_MS,
      stallGraceMs: GRACE_MS,
    });
    const marker = `slept-${String(Date.now())}`;
    codex.server.enqueue(
      execCommandStep(`sleep 3; echo ${marker}`, { escalate: true, justification: 'test' }),
      textStep('done'),
    );
    const { run, sink, asked } = await turns.untilAsked(
      codex.session,
      'go',
      'sleep',
      'the approval',
    );
    // the person takes longer than the stall timeout to answer
    await new Promise((r) => setTimeout(r, STALL_MS + 1_000));
    await turns.answer(codex.session, asked.providerRef, 'once');
    expect(await run.completion).toEqual({ outcome: 'succeeded' });
    expect(JSON.stringify(codex.server.requests[1]?.body)).toContain(marker);
    expect(sink.ofType('diagnostic').some((d) => d.detail?.reason === 'turn_stalled')).toBe(false);
  }, 90_000);

  it('codex retrying a failing model request is not progress: turn_stalled after stallTimeoutMs, with the retry count and cause', async () => {
    // codex honours a rate limit's "try again in" delay, so its retries come every few hundred
    // ms, each with an `error{willRetry}` notice; 80 of them would outlast the test by far
    const retries = 80;
    const codex = await openRealCodex(
      { stallTimeoutMs: STALL_MS, stallGraceMs: GRACE_MS },
      {
        extra: [
          'model_providers.scripted.request_max_retries=0',
          `model_providers.scripted.stream_max_retries=${String(retries)}`,
        ],
      },
    );
    for (let i = 0; i <= retries; i += 1) {
      codex.server.enqueue(
        responseFailedStep('rate_limit_exceeded', 'Rate limit reached. Please try again in 200ms.'),
      );
    }
    const started = Date.now();
    const { sink, termination: outcome } = await turns.run(codex.session, 'hi', 'retry');
    expect(outcome).toMatchObject(STALLED);
    expect(Date.now() - started).toBeLessThan(STALL_MS + GRACE_MS + SLACK_MS);
    const notices = sink
      .ofType('diagnostic')
      .filter((d) => d.detail?.willRetry === true)
      .map((d) => d.detail);
    expect(notices.length).toBeGreaterThan(1);
    expect(notices[0]).toMatchObject({ providerCode: 'stream_disconnected', retry: 1 });
    expect(notices.at(-1)).toMatchObject({ retry: notices.length });
    if (outcome.outcome !== 'failed') throw new Error('unreachable');
    expect(outcome.error.details).toEqual({
      retries: notices.length,
      retryCause: 'stream_disconnected',
    });
    expect(codex.server.requests.length).toBeLessThan(retries);
    // codex completed the interrupt: the thread stays usable
    expect(fenced(codex)).toBe(false);
    const seen = codex.server.requests.length;
    codex.server.clear();
    // a retry codex sent just before the interrupt can reach the server after it and take a
    // step too (seen under load): one spare, so the next turn is served either way
    codex.server.enqueue(textStep('fine'), textStep('fine'));
    const next = await turns.end(codex.session, 'again', 'retry-2');
    const served = codex.server.requests
      .slice(seen)
      .map(
        (r) => `${r.step ?? 'none'}${JSON.stringify(r.body).includes('again') ? ' (again)' : ''}`,
      );
    expect(next, served.join(', ')).toEqual({ outcome: 'succeeded' });
    // the next turn's own request was answered by a text step
    expect(served).toContain('text (again)');
  }, 90_000);
});
