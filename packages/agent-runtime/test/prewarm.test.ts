import { createAgentRuntime, isRuntimeError } from '@relvo-labs/agent-runtime';
import { describe, expect, it } from 'vitest';
import { FakeClock } from './fake-clock.js';
import { createManualProvider, warmPoolConfig } from './manual-provider.js';
import { rejection, runtimeOnManual, tempDir, until } from './support.js';

const IDLE_MS = 60_000;

async function setup(count = 2) {
  const clock = new FakeClock();
  const manual = createManualProvider();
  const workspace = tempDir();
  const runtime = await runtimeOnManual(manual.provider, {
    config: warmPoolConfig(count, IDLE_MS, workspace),
    clock,
    closeGraceMs: 2_000,
  });
  return { clock, manual, runtime, workspace };
}

describe('prewarmed provider sessions', () => {
  it('starts count sessions at creation; a turn takes one and another starts in its place', async () => {
    const { manual, runtime, workspace } = await setup(2);
    await until(() => manual.sessions.length === 2, 'two warm sessions');
    const session = await runtime.openSession({ workspace });
    const turn = await session.submitTurn({ input: 'hi' });
    // the turn ran on a session created before the runtime session existed, not a cold one
    expect(manual.sessions[0]!.runs).toHaveLength(1);
    await until(() => manual.sessions.length === 3, 'the replacement');
    expect(manual.sessions[2]!.init.workspace.root).toBe(manual.sessions[0]!.init.workspace.root);
    manual.sessions[0]!.runs[0]!.complete({ outcome: 'succeeded' });
    expect((await turn.done).turnState).toBe('completed');
  });

  it('never shares a warm session: two runtime sessions run on two provider sessions', async () => {
    const { manual, runtime, workspace } = await setup(1);
    await until(() => manual.sessions.length === 1, 'the warm session');
    const a = await runtime.openSession({ workspace });
    const b = await runtime.openSession({ workspace });
    await a.submitTurn({ input: 'a' });
    await b.submitTurn({ input: 'b' });
    const ran = manual.sessions.filter((s) => s.runs.length > 0);
    expect(ran).toHaveLength(2);
    expect(ran.every((s) => s.runs.length === 1)).toBe(true);
    await a.close();
    expect(manual.sessions[0]!.disposeCalls).toBe(1);
  });

  it('what a warm session emitted before it was taken lands in the taking session log only', async () => {
    const { manual, runtime, workspace } = await setup(1);
    await until(() => manual.sessions.length === 1, 'the warm session');
    manual.sessions[0]!.init.sink.emit({
      payload: { type: 'diagnostic', level: 'info', message: 'warm and early' },
    });
    const other = await runtime.openSession({ workspace });
    const taker = await runtime.openSession({ workspace });
    await taker.submitTurn({ input: 'hi' });
    const early = async (id: string) =>
      (await runtime.readEvents(id)).filter(
        (e) => e.payload.type === 'diagnostic' && e.payload.message === 'warm and early',
      );
    expect((await early(taker.id)).map((e) => e.sessionId)).toEqual([taker.id]);
    expect(await early(other.id)).toEqual([]);
  });

  it('disposes a warm session idle for idleMs on the injected clock, and does not replace it', async () => {
    const { clock, manual } = await setup(2);
    await until(() => manual.sessions.length === 2, 'two warm sessions');
    clock.advance(IDLE_MS - 1);
    expect(manual.sessions.map((s) => s.disposeCalls)).toEqual([0, 0]);
    clock.advance(1);
    expect(manual.sessions.map((s) => s.disposeCalls)).toEqual([1, 1]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(manual.sessions).toHaveLength(2);
  });

  it('shutdown disposes every warm session, and one still starting when it arrives', async () => {
    const { manual, runtime } = await setup(2);
    await until(() => manual.sessions.length === 2, 'two warm sessions');
    await runtime.shutdown();
    expect(manual.sessions.map((s) => s.disposeCalls)).toEqual([1, 1]);
  });

  it('a warm session whose dispose hangs holds shutdown for closeGraceMs at most, and is reported', async () => {
    const { clock, manual, runtime } = await setup(2);
    await until(() => manual.sessions.length === 2, 'two warm sessions');
    manual.hangDispose = true;
    const state = { settled: false };
    const shut = runtime.shutdown().then(
      () => 'resolved',
      (error: unknown) => error,
    );
    void shut.finally(() => {
      state.settled = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    clock.advance(1_999);
    await new Promise((resolve) => setImmediate(resolve));
    expect(state.settled).toBe(false);
    clock.advance(1);
    const error = await shut;
    if (!isRuntimeError(error)) throw new Error('expected a RuntimeError');
    expect(error.reason).toBe('dispose_failed');
    expect(error.error.details?.warmFailures).toEqual([
      { phase: 'dispose', profile: 'm', code: 'provider_unavailable', timedOut: true },
      { phase: 'dispose', profile: 'm', code: 'provider_unavailable', timedOut: true },
    ]);
  });

  it('refuses a session of a prewarmed profile in another workspace, typed, at open and at a turn', async () => {
    const { manual, runtime, workspace } = await setup(1);
    const elsewhere = tempDir();
    const opened = await rejection(runtime.openSession({ workspace: elsewhere }));
    expect([opened.code, opened.reason, opened.error.details?.profile]).toEqual([
      'invalid_request',
      'workspace_invalid',
      'm',
    ]);
    const managed = await rejection(
      runtime.openSession({ workspace: { root: workspace, ownership: 'managed' } }),
    );
    expect(managed.reason).toBe('workspace_invalid');
    // a session on another profile may not borrow the prewarmed one for a turn elsewhere
    const session = await runtime.openSession({ workspace: elsewhere, profile: 'cold' });
    const turn = await rejection(session.submitTurn({ input: 'x', profile: 'm' }));
    expect(turn.reason).toBe('workspace_invalid');
    await until(() => manual.sessions.length === 1, 'the warm session');
    expect(manual.sessions[0]!.runs).toHaveLength(0);
  });

  it('refuses a bad prewarm at load, naming the key', async () => {
    const manual = createManualProvider();
    const create = (prewarm: unknown) =>
      rejection(
        createAgentRuntime({
          providers: { manual: () => manual.provider },
          config: {
            defaultProfile: 'm',
            profiles: { m: { provider: 'manual', prewarm } },
          } as never,
        }),
      );
    const unknown = await create({ count: 1, workspace: tempDir(), idle: 5 });
    expect(unknown.reason).toBe('config_invalid');
    expect(JSON.stringify(unknown.error.details)).toContain('profiles.m.prewarm.idle');
    const tooMany = await create({ count: 17, workspace: tempDir() });
    expect(tooMany.error.details?.path).toBe('profiles.m.prewarm.count');
    const relative = await create({ count: 1, workspace: 'relative/dir' });
    expect(relative.error.details?.path).toBe('profiles.m.prewarm.workspace');
    const missing = await create({ count: 1, workspace: '/nonexistent/relvo-prewarm' });
    expect([missing.reason, missing.error.details?.path]).toEqual([
      'workspace_invalid',
      'profiles.m.prewarm.workspace',
    ]);
    expect(manual.sessions).toHaveLength(0);
  });
});
