/**
 * What a host author hits first: runRef is an idempotency key, input is
 * validated before anything is sent, and options, sinks and interrupts fail in typed ways.
 */
import {
  isProviderRejection,
  type AgentError,
  type ProviderRun,
  type ProviderSession,
} from '@relvo-labs/agent-provider';
import { describe, expect, it } from 'vitest';
import * as api from '../../src/index.js';
import { createCodexProvider } from '../../src/index.js';
import { createProviderHarness, recordingSink, textInput } from '../support/provider-harness.js';
import {
  count,
  open,
  reply,
  startBound,
  turns,
  turnStarted,
  waitForRequest,
} from '../support/provider-frames.js';
import { refusal, thrown } from '../support/refusals.js';

const text = (...texts: string[]) => ({
  parts: texts.map((t) => ({ type: 'text' as const, text: t })),
});

describe('runRef is an idempotency key (item 4)', () => {
  it('the same runRef with the same input returns the same run', async () => {
    const h = createProviderHarness();
    const session = await open(h);
    const sink = recordingSink();
    const first = session.startRun({ input: textInput('hi'), sink, runRef: 'r1' });
    const again = session.startRun({ input: textInput('hi'), sink, runRef: 'r1' });
    await reply(h.transport, 'turn/start', { turn: turnStarted('t1') });
    expect(await again).toBe(await first);
    expect(count(h.transport, 'turn/start')).toBe(1);
  });

  it('the same runRef with different input is a typed conflict and never the earlier run', async () => {
    const h = createProviderHarness();
    const session = await open(h);
    const { run } = await startBound(h, session, 't1', 'r1');
    const error = await refusal(
      session.startRun({ input: textInput('something else'), sink: recordingSink(), runRef: 'r1' }),
    );
    expect(error).toMatchObject({
      code: 'command_id_conflict',
      retryable: false,
      providerCode: 'run_ref_conflict',
    });
    expect(JSON.stringify(error)).not.toContain('something else');
    expect(count(h.transport, 'turn/start')).toBe(1);
    expect(run).toBeDefined();
  });

  it('the same runRef and input with another model is a conflict too (options are the run’s)', async () => {
    const h = createProviderHarness();
    const session = await open(h);
    await startBound(h, session, 't1', 'r1');
    const error = await refusal(
      session.startRun({
        input: textInput('hello'),
        sink: recordingSink(),
        runRef: 'r1',
        model: 'other-model',
      }),
    );
    expect(error).toMatchObject({ code: 'command_id_conflict', providerCode: 'run_ref_conflict' });
    expect(count(h.transport, 'turn/start')).toBe(1);
  });

  it('a missing or empty runRef is refused before anything is sent', async () => {
    const h = createProviderHarness();
    const session = await open(h);
    for (const runRef of [undefined, '', 42]) {
      const error = await refusal(
        session.startRun({ input: textInput('hi'), sink: recordingSink(), runRef } as never),
      );
      expect(error).toMatchObject({ code: 'invalid_request', providerCode: 'run_ref_missing' });
    }
    await turns();
    expect(count(h.transport, 'turn/start')).toBe(0);
  });
});

describe('input is validated before anything is sent (item 5)', () => {
  async function refusedInput(session: ProviderSession, input: unknown): Promise<AgentError> {
    return refusal(session.startRun({ input, sink: recordingSink(), runRef: 'bad' } as never));
  }

  it('text must be a non-empty string; parts 1..256; each text ≤ 1,000,000', async () => {
    const h = createProviderHarness();
    const session = await open(h);
    const cases: [unknown, string][] = [
      [{ parts: [{ type: 'text', text: 42 }] }, 'parts.0.text'],
      [{ parts: [{ type: 'text', text: { toString: () => 'x' } }] }, 'parts.0.text'],
      [{ parts: [{ type: 'text', text: '' }] }, 'parts.0.text'],
      [{ parts: [] }, 'parts'],
      [{ parts: Array.from({ length: 257 }, () => ({ type: 'text', text: 'x' })) }, 'parts'],
      [{ parts: [{ type: 'text', text: 'x'.repeat(1_000_001) }] }, 'parts.0.text'],
      [undefined, 'input'],
    ];
    for (const [input, path] of cases) {
      const error = await refusedInput(session, input);
      expect(error).toMatchObject({
        code: 'invalid_request',
        retryable: false,
        providerCode: 'invalid_input',
      });
      expect((error.details?.['issues'] as string[] | undefined) ?? []).toContain(path);
    }
    await turns();
    expect(count(h.transport, 'turn/start')).toBe(0);
  });

  it('more than 1,048,576 code points (what codex accepts) is refused; the session stays usable', async () => {
    const h = createProviderHarness();
    const session = await open(h);
    const error = await refusedInput(session, text('a'.repeat(600_000), 'b'.repeat(600_000)));
    expect(error).toMatchObject({
      code: 'invalid_request',
      retryable: false,
      providerCode: 'input_too_large',
      details: { maxChars: 1_048_576, actualChars: 1_200_002 },
    });
    await turns();
    expect(count(h.transport, 'turn/start')).toBe(0);
    // exactly at the bound (two parts joined by a blank line) is sent
    const atBound = session.startRun({
      input: text('a'.repeat(1_000_000), 'b'.repeat(48_574)),
      sink: recordingSink(),
      runRef: 'ok',
    });
    const request = await waitForRequest(h.transport, 'turn/start');
    const sent = (request.params as { input: { text: string }[] }).input[0]!.text;
    expect(sent.length).toBe(1_048_576);
    await reply(h.transport, 'turn/start', { turn: turnStarted('t1') });
    await atBound;
  });

  it('code points, not UTF-16 units, count against the codex bound (as codex counts them)', async () => {
    const h = createProviderHarness();
    const session = await open(h);
    // 2 × 500,000 emoji: 2,000,002 UTF-16 units but 1,000,002 code points
    const emoji = '😀'.repeat(500_000);
    const starting = session.startRun({
      input: text(emoji, emoji),
      sink: recordingSink(),
      runRef: 'e',
    });
    const request = await waitForRequest(h.transport, 'turn/start');
    const sent = (request.params as { input: { text: string }[] }).input[0]!.text;
    expect(sent.length).toBe(2_000_002);
    expect(sent).toBe(`${emoji}\n\n${emoji}`);
    await reply(h.transport, 'turn/start', { turn: turnStarted('t1') });
    await expect(starting).resolves.toMatchObject({});
  });
});

describe('options, sinks and interrupts (item 6)', () => {
  it('exports the option schemas and their types', () => {
    expect(api).toHaveProperty('codexProviderOptionsSchema');
    expect(api).toHaveProperty('codexSessionOptionsSchema');
    const session: api.CodexSessionOptions = { model: 'm', sandboxMode: 'read-only' };
    expect(api.codexSessionOptionsSchema.parse(session)).toEqual(session);
  });

  it('an invalid option names the offending key paths', () => {
    const error = thrown(() =>
      createCodexProvider({ sandboxMode: 'nope', extraArgs: [1] } as never),
    );
    expect(isProviderRejection(error)).toBe(true);
    const agentError = (error as { agentError: AgentError }).agentError;
    expect(agentError).toMatchObject({ code: 'invalid_request', providerCode: 'invalid_options' });
    expect(agentError.details?.['issues']).toEqual(
      expect.arrayContaining(['sandboxMode', 'extraArgs.0']),
    );
  });

  it.each([NaN, Infinity, -1, 0, 1.5])('requestTimeoutMs %s is refused', (value) => {
    const error = thrown(() => createCodexProvider({ requestTimeoutMs: value }));
    expect(isProviderRejection(error)).toBe(true);
    expect((error as { agentError: AgentError }).agentError.details?.['issues']).toEqual([
      'requestTimeoutMs',
    ]);
  });

  it('a throwing getter or a hostile Proxy in options is a ProviderRejection without the host message', () => {
    const getter = {};
    Object.defineProperty(getter, 'model', {
      enumerable: true,
      get() {
        throw new Error('host-secret-message');
      },
    });
    const proxy = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error('host-secret-message');
        },
        get() {
          throw new Error('host-secret-message');
        },
      },
    );
    for (const options of [getter, proxy]) {
      const error = thrown(() => createCodexProvider(options));
      expect(isProviderRejection(error)).toBe(true);
      expect(JSON.stringify((error as { agentError: AgentError }).agentError)).not.toContain(
        'host-secret-message',
      );
    }
  });

  it('hostile session options reject createSession with a ProviderRejection', async () => {
    const h = createProviderHarness();
    const options = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error('host-secret-message');
        },
      },
    );
    const error = await refusal(
      h.provider.createSession({
        options: options,
        workspace: { root: '/w', ownership: 'borrowed' },
        sink: recordingSink(),
      }),
    );
    expect(error.code).toBe('invalid_request');
    expect(JSON.stringify(error)).not.toContain('host-secret-message');
  });

  it('a missing sink is refused with a clear error', async () => {
    const h = createProviderHarness();
    const noSink = await refusal(
      h.provider.createSession({
        options: {},
        workspace: { root: '/w', ownership: 'borrowed' },
      } as never),
    );
    expect(noSink).toMatchObject({ code: 'invalid_request', providerCode: 'sink_missing' });
    const session = await open(h);
    const runSink = await refusal(
      session.startRun({ input: textInput('hi'), runRef: 'r' } as never),
    );
    expect(runSink).toMatchObject({ code: 'invalid_request', providerCode: 'sink_missing' });
  });

  it('interrupt() after dispose() is a no-op', async () => {
    const h = createProviderHarness();
    const session = await open(h);
    const { run } = await startBound(h, session, 't1');
    // dispose() has begun (not awaited, as a host closing a window does) and then interrupt()
    const disposing = session.dispose();
    await expect(run.interrupt('late')).resolves.toBeUndefined();
    await disposing;
    await expect(run.interrupt('later')).resolves.toBeUndefined();
    expect(await run.completion).toMatchObject({ outcome: 'interrupted' });
  });

  it('an interrupt whose request timed out is uncertain (not a ProviderRejection) with request_timeout', async () => {
    // long enough that the answered requests before it never reach it on a loaded machine; the
    // interrupt is never answered, so it does
    const h = createProviderHarness({ requestTimeoutMs: 1_000 });
    const session = await open(h);
    const { run }: { run: ProviderRun } = await startBound(h, session, 't1');
    const outcome = await run.interrupt('stop').then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(outcome).toBeInstanceOf(Error);
    expect(isProviderRejection(outcome)).toBe(false);
    expect((outcome as { error?: AgentError }).error).toMatchObject({
      code: 'provider_unavailable',
      providerCode: 'request_timeout',
    });
  });
});
