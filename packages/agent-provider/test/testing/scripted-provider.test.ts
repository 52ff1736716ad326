import { describe, expect, it } from 'vitest';
import {
  WIRE_VERSION,
  isProviderRejection,
  providerDescriptorSchema,
  type ProviderEventInput,
  type ProviderRun,
  type ProviderRunTermination,
  type ProviderSession,
} from '../../src/index.js';
import { createScriptedProvider, type ScriptedProviderOptions } from '../../src/testing/index.js';
import { MAX_DRAIN_PASSES } from '../../src/testing/scripted/provider.js';
import { SCRIPTED_DISPOSE_REASON } from '../../src/testing/scripted/session.js';
import { APPROVAL } from './scripted-harness.js';

function sink() {
  const events: ProviderEventInput[] = [];
  return { events, emit: (e: ProviderEventInput) => events.push(e) };
}

async function open(options: ScriptedProviderOptions = {}) {
  const { provider, controller } = createScriptedProvider(options);
  const sessionSink = sink();
  const session = await provider.createSession({
    options: {},
    workspace: { root: '/w', ownership: 'managed' },
    sink: sessionSink,
  });
  return { provider, controller, session, sessionSink };
}

function watch(run: ProviderRun): { outcome: ProviderRunTermination | undefined } {
  const state: { outcome: ProviderRunTermination | undefined } = { outcome: undefined };
  void run.completion.then((t) => (state.outcome = t));
  return state;
}

const flush = () => new Promise<void>((r) => setImmediate(r));

async function start(session: ProviderSession, text: string, runRef = text) {
  const runSink = sink();
  const run = await session.startRun({
    input: { parts: [{ type: 'text', text }] },
    sink: runSink,
    runRef,
  });
  return { run, runSink, state: watch(run) };
}

const askScript = {
  ask: [
    { type: 'ask' as const, ref: 'r1', request: APPROVAL },
    { type: 'delta' as const, text: 'go' },
  ],
};

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

  it('blocks on ask until answered; invalid answers are refused and leave it answerable', async () => {
    const { controller, session } = await open({ scripts: askScript });
    const { runSink, state } = await start(session, 'ask');
    controller.drain();
    expect(controller.pendingInteractionRefs()).toEqual(['r1']);
    expect(runSink.events.at(-1)?.payload).toMatchObject({
      type: 'interaction.requested',
      providerRef: 'r1',
    });
    const invalid = await session
      .respondToInteraction('r1', { kind: 'approval', decision: 'approved' })
      .catch((e: unknown) => e);
    expect(isProviderRejection(invalid) && invalid.agentError.code).toBe('invalid_request');
    controller.drain();
    expect(controller.pendingInteractionRefs()).toEqual(['r1']);
    await session.respondToInteraction('r1', {
      kind: 'approval',
      decision: 'approved',
      mode: 'once',
    });
    // an exact repeat is a no-op; a different answer is refused
    await session.respondToInteraction('r1', {
      kind: 'approval',
      decision: 'approved',
      mode: 'once',
    });
    const conflict = await session
      .respondToInteraction('r1', { kind: 'approval', decision: 'denied' })
      .catch((e: unknown) => e);
    expect(isProviderRejection(conflict) && conflict.agentError.code).toBe(
      'interaction_already_settled',
    );
    await session.respondToInteraction('unknown', { kind: 'approval', decision: 'denied' });
    controller.drain();
    await flush();
    expect(runSink.events.at(-1)?.payload).toEqual({ type: 'run.message_delta', text: 'go' });
    expect(state.outcome).toEqual({ outcome: 'succeeded' });
  });

  it('a second run of the same ask script in one session is unblocked by its answer (docs/spi.md §19.1)', async () => {
    const { controller, session } = await open({ scripts: askScript });
    const answer = { kind: 'approval', decision: 'approved', mode: 'once' } as const;
    const first = await start(session, 'ask', 'run-1');
    controller.drain();
    await session.respondToInteraction('r1', answer);
    controller.drain();
    await flush();
    expect(first.state.outcome).toEqual({ outcome: 'succeeded' });
    // The script raises ref r1 again: the ask blocks until a response for r1 arrives.
    const second = await start(session, 'ask', 'run-2');
    controller.drain();
    expect(controller.pendingInteractionRefs()).toEqual(['r1']);
    await session.respondToInteraction('r1', answer);
    expect(controller.pendingInteractionRefs()).toEqual([]);
    controller.drain();
    await flush();
    expect(second.state.outcome).toEqual({ outcome: 'succeeded' });
    // Once applied, an exact repeat is still a no-op and a different answer still refused.
    await session.respondToInteraction('r1', answer);
    const conflict = await session
      .respondToInteraction('r1', { kind: 'approval', decision: 'denied' })
      .catch((e: unknown) => e);
    expect(isProviderRejection(conflict) && conflict.agentError.code).toBe(
      'interaction_already_settled',
    );
  });

  it('records a steer of an active run and refuses one after it ended or when unsupported', async () => {
    const steering = await open({ scripts: askScript });
    const a = await start(steering.session, 'ask');
    steering.controller.drain();
    await a.run.steer?.({ parts: [{ type: 'text', text: 'more' }] });
    expect(steering.controller.steeredRuns).toEqual([{ runRef: 'ask', text: 'more' }]);
    await a.run.interrupt();
    const late = await a.run
      .steer?.({ parts: [{ type: 'text', text: 'late' }] })
      .catch((e: unknown) => e);
    expect(isProviderRejection(late) && late.agentError.code).toBe('illegal_state_transition');

    const plain = await open({ scripts: askScript, supportsSteer: false });
    expect(plain.provider.describe().run.steer).toBe(false);
    const b = await start(plain.session, 'ask');
    const refused = await b.run
      .steer?.({ parts: [{ type: 'text', text: 'x' }] })
      .catch((e: unknown) => e);
    expect(isProviderRejection(refused) && refused.agentError.code).toBe('capability_unsupported');
    expect(plain.controller.steeredRuns).toEqual([]);
  });

  it('interrupts immediately, cooperatively on the next drain, or not at all', async () => {
    const immediate = await open({ scripts: askScript });
    const a = await start(immediate.session, 'ask');
    immediate.controller.drain();
    await a.run.interrupt('stop');
    await a.run.interrupt('again');
    expect(await a.run.completion).toEqual({ outcome: 'interrupted', reason: 'stop' });
    expect(immediate.controller.interruptedRuns).toEqual([{ runRef: 'ask', reason: 'stop' }]);
    expect(immediate.controller.pendingInteractionRefs()).toEqual([]);

    const cooperative = await open({ scripts: askScript, interruptMode: 'cooperative' });
    const b = await start(cooperative.session, 'ask');
    cooperative.controller.drain();
    await b.run.interrupt();
    await flush();
    expect(b.state.outcome).toBeUndefined();
    cooperative.controller.drain();
    await flush();
    expect(b.state.outcome).toEqual({ outcome: 'interrupted' });

    const unsupported = await open({ scripts: askScript, interruptMode: 'unsupported' });
    const c = await start(unsupported.session, 'ask');
    const refused = await c.run.interrupt().catch((e: unknown) => e);
    expect(isProviderRejection(refused) && refused.agentError.code).toBe('capability_unsupported');
  });

  it('admits one run at a time and re-attaches an exact retry', async () => {
    const { controller, session } = await open({ scripts: askScript });
    const first = await start(session, 'ask', 'ref-1');
    const retry = await session.startRun({
      input: { parts: [{ type: 'text', text: 'ask' }] },
      sink: first.runSink,
      runRef: 'ref-1',
    });
    expect(retry).toBe(first.run);
    const second = await session
      .startRun({ input: { parts: [{ type: 'text', text: 'x' }] }, sink: sink(), runRef: 'ref-2' })
      .catch((e: unknown) => e);
    expect(isProviderRejection(second) && second.agentError.code).toBe('illegal_state_transition');
    expect(controller.startedRuns).toHaveLength(1);
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
    const refused = await session
      .startRun({ input: { parts: [{ type: 'text', text: 'x' }] }, sink: sink(), runRef: 'late' })
      .catch((e: unknown) => e);
    expect(isProviderRejection(refused) && refused.agentError.code).toBe('session_closed');
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
    const { provider } = createScriptedProvider();
    const refused = await provider
      .createSession({
        options: { extra: 1 },
        workspace: { root: '/w', ownership: 'managed' },
        sink: sink(),
      })
      .catch((e: unknown) => e);
    expect(isProviderRejection(refused) && refused.agentError.code).toBe('invalid_request');
  });

  it(`drain throws after ${String(MAX_DRAIN_PASSES)} passes without quiescence`, async () => {
    const { provider, controller } = createScriptedProvider({
      defaultScript: [{ type: 'delta', text: 'x' }],
    });
    const init = (s: { emit(e: ProviderEventInput): void }) => ({
      options: {},
      workspace: { root: '/w', ownership: 'managed' as const },
      sink: s,
    });
    const a = await provider.createSession(init(sink()));
    const b = await provider.createSession(init(sink()));
    let n = 0;
    // Every delta starts a run on the other session: work never runs out.
    const pingPong = (
      target: ProviderSession,
      other: ProviderSession,
    ): { emit(e: ProviderEventInput): void } => ({
      emit: () => {
        n += 1;
        void target.startRun({
          input: { parts: [{ type: 'text', text: 'x' }] },
          sink: pingPong(other, target),
          runRef: `r${String(n)}`,
        });
      },
    });
    await a.startRun({
      input: { parts: [{ type: 'text', text: 'x' }] },
      sink: pingPong(b, a),
      runRef: 'r0',
    });
    expect(() => {
      controller.drain();
    }).toThrow(`no quiescent state after ${String(MAX_DRAIN_PASSES)} drain passes`);
  });
});
