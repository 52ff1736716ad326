import {
  providerEventInputSchema,
  providerRunTerminationSchema,
  type ProviderRunTermination,
} from '@relvo-labs/agent-provider';
import { describe, expect, it } from 'vitest';
import {
  CANARY_PATH,
  CANARY_SECRET,
  completed,
  delta,
  midTurnError,
  published,
  push,
  startBound,
  THREAD,
  turns,
  usage,
  openedHarness,
  UNCLASSIFIED_FAILURE,
} from '../support/provider-frames.js';
import { texts } from '../support/provider-harness.js';

/** One session, one bound run, the given frames, then the termination and the run's events. */
async function runWith(...frames: unknown[]) {
  const { h, session } = await openedHarness();
  const { run, sink } = await startBound(h, session, 't1');
  await push(h.transport, ...frames);
  const termination = await Promise.race([run.completion, turns(30).then(() => undefined)]);
  await session.dispose();
  for (const e of [...sink.events, ...h.sessionSink.events])
    expect(providerEventInputSchema.parse(e)).toEqual(e);
  if (termination !== undefined) providerRunTerminationSchema.parse(termination);
  return { termination, sink, h };
}

describe('translation: message deltas', () => {
  it('a delta over 100,000 characters is split into chunks that rejoin exactly', async () => {
    const big = Array.from({ length: 250_001 }, (_, i) => String.fromCharCode(97 + (i % 26))).join(
      '',
    );
    const { sink } = await runWith(delta('t1', big), completed('t1', 'completed'));
    const chunks = sink.ofType('run.message_delta').map((d) => d.text);
    expect(chunks).toHaveLength(3);
    for (const c of chunks) expect(c.length).toBeLessThanOrEqual(100_000);
    expect(chunks.join('')).toBe(big);
  });

  it('a surrogate pair on the chunk boundary is never split', async () => {
    const big = `${'a'.repeat(99_999)}😀${'b'.repeat(10)}`;
    const { sink } = await runWith(delta('t1', big), completed('t1', 'completed'));
    const chunks = sink.ofType('run.message_delta').map((d) => d.text);
    expect(chunks.join('')).toBe(big);
    for (const c of chunks)
      expect(c).not.toMatch(
        /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/,
      );
  });

  it('a delta without an item id or with empty text emits nothing', async () => {
    const { sink } = await runWith(
      {
        method: 'item/agentMessage/delta',
        params: {
          threadId: '01a228d9-72fc-76b2-83a3-6e6d181a9480',
          turnId: 't1',
          itemId: '',
          delta: 'x',
        },
      },
      delta('t1', ''),
      delta('t1', 'ok'),
      completed('t1', 'completed'),
    );
    expect(texts(sink)).toBe('ok');
  });
});

describe("translation: usage (ADR-0012: the run's own cumulative usage)", () => {
  const t = (inputTokens: number, outputTokens: number) => ({
    inputTokens,
    cachedInputTokens: 0,
    outputTokens,
    reasoningOutputTokens: 0,
    totalTokens: inputTokens + outputTokens,
  });

  it('each event is the thread total minus its value when the run started; repeats emit nothing', async () => {
    const { h, session } = await openedHarness();
    const first = await startBound(h, session, 't1', 'r1');
    await push(
      h.transport,
      usage('t1', t(100, 10), t(100, 10)),
      usage('t1', t(150, 20), t(250, 30)), // the command's follow-up request
      usage('t1', t(150, 20), t(250, 30)), // a response without usage repeats the numbers
      completed('t1', 'completed'),
    );
    await first.run.completion;
    expect(first.sink.ofType('run.usage').map((e) => e.usage)).toEqual([
      { inputTokens: 100, outputTokens: 10, totalTokens: 110 },
      { inputTokens: 250, outputTokens: 30, totalTokens: 280 },
    ]);
    // the next run: codex repeats the previous figures (e.g. on interrupt), then its own response
    const second = await startBound(h, session, 't2', 'r2', 1);
    await push(
      h.transport,
      usage('t2', t(150, 20), t(250, 30)),
      usage('t2', t(40, 5), t(290, 35)),
      completed('t2', 'completed'),
    );
    await second.run.completion;
    expect(second.sink.ofType('run.usage').map((e) => e.usage)).toEqual([
      { inputTokens: 40, outputTokens: 5, totalTokens: 45 },
    ]);
    await session.dispose();
  });

  it("malformed totals and totals below the run's start are never published", async () => {
    const { h, session } = await openedHarness();
    const first = await startBound(h, session, 't1', 'r1');
    await push(h.transport, usage('t1', t(0, 0), t(500, 50)), completed('t1', 'completed'));
    await first.run.completion;
    const second = await startBound(h, session, 't2', 'r2', 1);
    await push(
      h.transport,
      usage('t2', t(0, 0), { inputTokens: -1, outputTokens: 2.5, totalTokens: 9 }),
      usage('t2', t(0, 0), { inputTokens: '3', outputTokens: null }),
      {
        method: 'thread/tokenUsage/updated',
        params: { threadId: THREAD, turnId: 't2', tokenUsage: { last: t(1, 1) } },
      },
      usage('t2', t(0, 0), t(10, 1)), // a thread whose totals were reset
      completed('t2', 'completed'),
    );
    await second.run.completion;
    expect(second.sink.ofType('run.usage')).toEqual([]);
    await session.dispose();
  });
});

describe('translation: turn status', () => {
  const cases: [string, unknown, ProviderRunTermination][] = [
    ['completed', 'completed', { outcome: 'succeeded' }],
    ['interrupted (no interrupt requested)', 'interrupted', { outcome: 'interrupted' }],
  ];
  for (const [label, status, expected] of cases) {
    it(`${label} → ${expected.outcome}`, async () => {
      const { termination } = await runWith(completed('t1', status));
      expect(termination).toEqual(expected);
    });
  }

  for (const [status, providerCode] of [
    ['inProgress', 'inProgress'],
    ['cancelled', 'unknown_status'],
    [undefined, 'unknown_status'],
    [42, 'unknown_status'],
  ] as const) {
    it(`status ${String(status)} → failed provider_contract_violation (${providerCode})`, async () => {
      const { termination } = await runWith(completed('t1', status));
      expect(termination).toMatchObject({
        outcome: 'failed',
        error: { code: 'provider_contract_violation', providerCode },
      });
    });
  }
});

describe('translation: codexErrorInfo classification (ADR-0011)', () => {
  // label, codexErrorInfo, details.classification, providerCode, AgentErrorCode
  const cases: [string, unknown, string, string, string][] = [
    [
      'plain string (retryable)',
      'internalServerError',
      'internalServerError',
      'upstream_unavailable',
      'provider_unavailable',
    ],
    [
      'plain string (rejected)',
      'contextWindowExceeded',
      'contextWindowExceeded',
      'context_window_exceeded',
      'provider_rejected',
    ],
    [
      'one-key object',
      { httpConnectionFailed: { httpStatusCode: 502 } },
      'httpConnectionFailed',
      'upstream_unavailable',
      'provider_unavailable',
    ],
    [
      'one-key object (stream)',
      { responseStreamDisconnected: { httpStatusCode: null } },
      'responseStreamDisconnected',
      'stream_disconnected',
      'provider_unavailable',
    ],
    [
      'multi-key object',
      { httpConnectionFailed: {}, other: {} },
      'unclassified',
      'other',
      'provider_rejected',
    ],
    ['unknown string', 'notAThingYet', 'unclassified', 'other', 'provider_rejected'],
    [
      'later-release tag',
      { quotaWindowRolled: { resetsAt: 1 } },
      'unclassified',
      'other',
      'provider_rejected',
    ],
    [
      'later-release catch-all',
      { unknown: 'whatever' },
      'unclassified',
      'other',
      'provider_rejected',
    ],
    ['null', null, 'unclassified', 'other', 'provider_rejected'],
    ['number', 3, 'unclassified', 'other', 'provider_rejected'],
    ['array', ['badRequest'], 'unclassified', 'other', 'provider_rejected'],
    [
      'inherited key',
      Object.create({ badRequest: 1 }) as unknown,
      'unclassified',
      'other',
      'provider_rejected',
    ],
  ];
  for (const [label, info, classification, providerCode, code] of cases) {
    it(`${label} → ${providerCode} (${classification})`, async () => {
      const error = {
        message: `failed near ${CANARY_SECRET} in ${CANARY_PATH}`,
        codexErrorInfo: info,
        additionalDetails: CANARY_PATH,
      };
      const { termination, sink, h } = await runWith(completed('t1', 'failed', error));
      expect(termination).toMatchObject({
        outcome: 'failed',
        error: { code, providerCode, details: { classification } },
      });
      const text = published(termination, sink.events, h.sessionSink.events);
      expect(text).not.toContain(CANARY_SECRET);
      expect(text).not.toContain(CANARY_PATH);
    });
  }

  it('absent turn.error → other (unclassified)', async () => {
    const { termination } = await runWith(completed('t1', 'failed', undefined));
    expect(termination).toMatchObject(UNCLASSIFIED_FAILURE);
  });
});

describe('translation: mid-turn error', () => {
  it('is a warning with the classification and retry flag, not an outcome, and copies no prose', async () => {
    const message = `upstream said ${CANARY_SECRET} at ${CANARY_PATH}`;
    const { h, session } = await openedHarness();
    const { run, sink } = await startBound(h, session, 't1');
    await push(
      h.transport,
      midTurnError('t1', { responseStreamDisconnected: { httpStatusCode: 502 } }, true, message),
      midTurnError('t1', 'sandboxError', false, message),
    );
    const settledEarly = await Promise.race([
      run.completion.then(() => true),
      turns(30).then(() => false),
    ]);
    expect(settledEarly).toBe(false);
    const warnings = sink.ofType('diagnostic');
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatchObject({
      level: 'warning',
      detail: { classification: 'responseStreamDisconnected', willRetry: true },
    });
    expect(warnings[1]).toMatchObject({
      level: 'warning',
      detail: { classification: 'sandboxError', willRetry: false },
    });
    await push(h.transport, delta('t1', 'recovered'), completed('t1', 'completed'));
    expect(await run.completion).toEqual({ outcome: 'succeeded' });
    const text = published(sink.events, h.sessionSink.events);
    expect(text).not.toContain(CANARY_SECRET);
    expect(text).not.toContain(CANARY_PATH);
    await session.dispose();
  });
});
