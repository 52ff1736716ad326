import { describe, expect, it } from 'vitest';
import {
  WIRE_VERSION,
  providerDescriptorSchema,
  type ProviderEventInput,
  type ProviderSession,
} from '../../src/index.js';
import { createScriptedProvider } from '../../src/testing/index.js';
import { MAX_DRAIN_PASSES } from '../../src/testing/scripted/provider.js';
import { SCRIPTED_DISPOSE_REASON } from '../../src/testing/scripted/session.js';
import { askScript, flush, open, refusalCode, sink, start, text } from './scripted-session.js';

describe('createScriptedProvider', () => {
  it('describes the docs/spi.md §19.1 capabilities', () => {
    const d = createScriptedProvider().provider.describe();
    expect(providerDescriptorSchema.parse(d)).toEqual(d);
    expect(d.providerId).toBe('scripted');
    expect(d.run.streaming).toEqual({
      messageDeltas: true,
      toolActivity: true,
      incrementalUsage: true,
    });
    expect(d.run.interrupt.mode).toBe('immediate');
    expect(d.interaction.approval).toEqual({
      supported: true,
      modes: ['once', 'session'],
      blocking: true,
    });
    expect(d.interaction.question.batch).toBe(true);
    expect(d.interaction.settlementTimeoutMs).toBeNull();
    expect(d.workspace).toEqual({
      requires: 'directory',
      acceptsOwnership: ['borrowed', 'managed'],
      writes: false,
    });
    expect(d.recovery).toEqual({
      exportsRecoveryRecord: true,
      resumesFromRecoveryRecord: false,
      forksFromRecoveryRecord: false,
    });
    const off = createScriptedProvider({
      supportsApproval: false,
      supportsQuestion: false,
      supportsRecovery: false,
      interruptMode: 'unsupported',
    });
    const o = off.provider.describe();
    expect(o.interaction.approval.supported).toBe(false);
    expect(o.interaction.question.supported).toBe(false);
    expect(o.recovery.exportsRecoveryRecord).toBe(false);
    expect(o.run.interrupt).toEqual({
      mode: 'unsupported',
      deliversPartialOutput: false,
      sessionRemainsUsable: false,
    });
  });

  it('plays the default script only when drained', async () => {
    const { controller, session } = await open();
    const { runSink, state } = await start(session, 'anything');
    expect(runSink.events).toEqual([]);
    controller.drain();
    await flush();
    expect(runSink.events.map((e) => e.payload)).toEqual([
      { type: 'run.message_delta', text: 'ack: ' },
      { type: 'run.usage', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } },
    ]);
    expect(state.outcome).toEqual({ outcome: 'succeeded' });
    expect(controller.startedRuns).toEqual([
      { runRef: 'anything', sessionRef: 'scripted-session-1', text: 'anything' },
    ]);
  });

  it('selects scripts by the joined text parts and fails with provider_rejected', async () => {
    const { controller, session } = await open({
      scripts: { ab: [{ type: 'fail', message: 'nope' }] },
    });
    const runSink = sink();
    const run = await session.startRun({
      input: {
        parts: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      },
      sink: runSink,
      runRef: 'x',
    });
    controller.drain();
    const t = await run.completion;
    expect(t).toEqual({
      outcome: 'failed',
      error: { code: 'provider_rejected', message: 'nope', retryable: false },
    });
  });

  it('dispose is idempotent, interrupts live runs and closes the session', async () => {
    const { controller, session, sessionSink } = await open({ scripts: askScript });
    const { run } = await start(session, 'ask');
    controller.drain();
    await Promise.all([session.dispose(), session.dispose()]);
    await session.dispose();
    expect(await run.completion).toEqual({
      outcome: 'interrupted',
      reason: SCRIPTED_DISPOSE_REASON,
    });
    expect(controller.disposedSessions).toEqual(['scripted-session-1']);
    expect(controller.interruptedRuns).toEqual([
      { runRef: 'ask', reason: SCRIPTED_DISPOSE_REASON },
    ]);
    expect(sessionSink.events).toEqual([
      { payload: { type: 'diagnostic', level: 'debug', message: 'scripted session disposed' } },
    ]);
    expect(
      await refusalCode(session.startRun({ input: text('x'), sink: sink(), runRef: 'late' })),
    ).toBe('session_closed');
  });

  it('exports an opaque recovery record at the current wire version', async () => {
    const { controller, session } = await open();
    await start(session, 'one');
    controller.drain();
    expect(await session.exportRecoveryRecord?.()).toEqual({
      providerId: 'scripted',
      providerVersion: '0.8.0',
      wireVersion: WIRE_VERSION,
      opaque: { sessionRef: 'scripted-session-1', runCount: 1 },
    });
    const without = await open({ supportsRecovery: false });
    expect(Reflect.get(without.session, 'exportRecoveryRecord')).toBeUndefined();
  });

  it('rejects unknown session options', async () => {
    expect(await refusalCode(open({}, { extra: 1 }))).toBe('invalid_request');
  });

  it(`drain throws after ${String(MAX_DRAIN_PASSES)} passes without quiescence`, async () => {
    const {
      controller,
      session: a,
      openSession,
    } = await open({ defaultScript: [{ type: 'delta', text: 'x' }] });
    const b = await openSession();
    let n = 0;
    // Every delta starts a run on the other session: work never runs out.
    const pingPong = (
      target: ProviderSession,
      other: ProviderSession,
    ): { emit(e: ProviderEventInput): void } => ({
      emit: () => {
        n += 1;
        void target.startRun({
          input: text('x'),
          sink: pingPong(other, target),
          runRef: `r${String(n)}`,
        });
      },
    });
    await a.startRun({
      input: text('x'),
      sink: pingPong(b, a),
      runRef: 'r0',
    });
    expect(() => {
      controller.drain();
    }).toThrow(`no quiescent state after ${String(MAX_DRAIN_PASSES)} drain passes`);
  });
});
