import { agentError, ProviderRejection, type AgentProvider } from '@relvo-labs/agent-provider';
import { warmPoolStateSchema, type WarmPoolState } from '@relvo-labs/agent-runtime';
import { describe, expect, it } from 'vitest';
import { FakeClock } from './fake-clock.js';
import { createManualProvider, warmPoolConfig } from './manual-provider.js';
import { runtimeOnManual, tempDir, until } from './support.js';

const IDLE_MS = 60_000;
const PROSE = 'codex said: /home/someone/secret-project is not trusted';

/**
 * The manual provider behind a gate the test opens: each createSession waits for it, then the
 * next `failures` of them reject with upstream prose.
 */
async function setup(count: number, failures = 0) {
  const clock = new FakeClock();
  const manual = createManualProvider();
  const workspace = tempDir();
  const left = { failures };
  let open!: () => void;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const provider: AgentProvider = {
    describe: () => manual.provider.describe(),
    createSession: async (init) => {
      await gate;
      if (left.failures === 0) return manual.provider.createSession(init);
      left.failures -= 1;
      throw new ProviderRejection(
        agentError('provider_unavailable', PROSE, { providerCode: 'spawn' }),
      );
    },
  };
  const runtime = await runtimeOnManual(provider, {
    config: warmPoolConfig(count, IDLE_MS, workspace),
    clock,
    closeGraceMs: 2_000,
  });
  return { clock, manual, runtime, workspace, open };
}

const counts = (state: WarmPoolState) =>
  state.profiles.map(({ profile, target, warm, starting, failed }) => ({
    profile,
    target,
    warm,
    starting,
    failed,
  }));

describe('the warm pool state', () => {
  it('reports each prewarmed profile: starting, then warm, then one taken and its replacement', async () => {
    const { manual, runtime, workspace, open } = await setup(2);
    // only the prewarmed profile is listed; its starts are in flight until the provider answers
    expect(counts(runtime.warmPool())).toEqual([
      { profile: 'm', target: 2, warm: 0, starting: 2, failed: 0 },
    ]);
    open();
    await until(() => runtime.warmPool().profiles[0]!.warm === 2, 'two warm');
    expect(counts(runtime.warmPool())[0]).toMatchObject({ warm: 2, starting: 0 });
    const session = await runtime.openSession({ workspace });
    await session.submitTurn({ input: 'hi' });
    await until(() => manual.sessions.length === 3, 'the replacement');
    await until(() => runtime.warmPool().profiles[0]!.warm === 2, 'refilled');
    const state = runtime.warmPool();
    expect(warmPoolStateSchema.parse(state)).toEqual(state);
    expect(state.profiles[0]!.lastError).toBeNull();
  });

  it('counts a failed start with a code and reason token, never the provider prose', async () => {
    const { runtime, open } = await setup(2, 1);
    open();
    await until(() => runtime.warmPool().profiles[0]!.starting === 0, 'both starts settled');
    const [profile] = runtime.warmPool().profiles;
    expect(profile).toMatchObject({ warm: 1, failed: 1 });
    expect(profile!.lastError).toEqual({
      code: 'provider_unavailable',
      reason: 'provider_rejected',
      at: '2026-01-01T00:00:00.000Z',
    });
    expect(JSON.stringify(runtime.warmPool())).not.toMatch(/secret|trusted|spawn/);
  });

  it('types refused session options and a non-session as the cold path would', async () => {
    const manual = createManualProvider();
    let calls = 0;
    const provider: AgentProvider = {
      describe: () => manual.provider.describe(),
      createSession: (init) => {
        calls += 1;
        if (calls === 1) {
          return Promise.reject(new ProviderRejection(agentError('invalid_request', PROSE)));
        }
        if (calls === 2) return Promise.resolve(null as never);
        return manual.provider.createSession(init);
      },
    };
    const workspace = tempDir();
    const runtime = await runtimeOnManual(provider, {
      config: {
        defaultProfile: 'm',
        profiles: { m: { provider: 'manual', prewarm: { count: 1, workspace } } },
      },
    });
    const last = () => runtime.warmPool().profiles[0]!;
    await until(() => last().failed === 1, 'the first start failed');
    expect(last().lastError).toMatchObject({
      code: 'invalid_request',
      reason: 'session_options_refused',
    });
    // demand starts the next one (the turn itself opens cold, the set being empty)
    const session = await runtime.openSession({ workspace });
    await session.submitTurn({ input: 'hi' });
    await until(() => last().failed === 2, 'the second start failed');
    expect(last().lastError).toMatchObject({
      code: 'provider_contract_violation',
      reason: 'provider_session_invalid',
    });
    expect(JSON.stringify(runtime.warmPool())).not.toMatch(/secret|trusted/);
    expect(() => runtime.watchWarmPool('not a function' as never)).toThrow(
      expect.objectContaining({ reason: 'option_invalid' }),
    );
  });

  it('a watcher hears each change without polling, until it stops', async () => {
    const { clock, runtime, open } = await setup(1);
    const heard: WarmPoolState[] = [];
    const stop = runtime.watchWarmPool((state) => heard.push(state));
    // a throwing watcher neither stops the warm set nor the others
    const stopBad = runtime.watchWarmPool(() => {
      throw new Error('watcher fault');
    });
    open();
    await until(() => heard.length > 0, 'the start heard');
    expect(counts(heard[0]!)).toEqual([
      { profile: 'm', target: 1, warm: 1, starting: 0, failed: 0 },
    ]);
    const before = heard.length;
    clock.advance(IDLE_MS);
    expect(heard.slice(before).map((s) => s.profiles[0]!.warm)).toEqual([0]);
    // what a watcher holds is its own copy
    heard[0]!.profiles[0]!.warm = 99;
    expect(runtime.warmPool().profiles[0]!.warm).toBe(0);
    stop();
    stopBad();
    await runtime.shutdown();
    expect(heard).toHaveLength(before + 1);
  });

  it('shutdown empties the set and a watcher hears it', async () => {
    const { runtime, open } = await setup(2);
    open();
    await until(() => runtime.warmPool().profiles[0]!.warm === 2, 'two warm');
    const heard: WarmPoolState[] = [];
    runtime.watchWarmPool((state) => heard.push(state));
    await runtime.shutdown();
    expect(counts(heard.at(-1)!)).toEqual([
      { profile: 'm', target: 2, warm: 0, starting: 0, failed: 0 },
    ]);
  });

  it('a runtime without prewarm reports no profiles', async () => {
    const runtime = await runtimeOnManual(createManualProvider().provider, {
      config: { defaultProfile: 'c', profiles: { c: { provider: 'manual' } } },
    });
    expect(runtime.warmPool()).toEqual({ profiles: [] });
  });
});
