import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentError, ProviderRejection, WIRE_VERSION } from '@relvo-labs/agent-provider';
import { createScriptedProvider } from '@relvo-labs/agent-provider/testing';
import {
  createAgentRuntime,
  isConfigRefusal,
  loadRuntimeConfig,
  parseRuntimeConfig,
} from '@relvo-labs/agent-runtime';
import { describe, expect, it } from 'vitest';
import { createManualProvider, manualDescriptor } from './manual-provider.js';
import {
  history,
  onCleanup,
  scriptedRuntime,
  tempDir,
  rejection as refusal,
  thrownRuntimeError as thrown,
} from './support.js';

describe('per-run profile selection', () => {
  it('runs turns on two profiles in one session: two provider sessions, reused on the third turn', async () => {
    const { runtime, scripted, session } = await scriptedRuntime();
    const turns = [];
    for (const profile of ['alpha', 'beta', 'alpha'] as const) {
      const turn = await session.submitTurn({ input: `on ${profile}`, profile });
      scripted.controller.drain();
      turns.push(await turn.done);
    }
    expect(turns.map((t) => [t.profile, t.turnState])).toEqual([
      ['alpha', 'completed'],
      ['beta', 'completed'],
      ['alpha', 'completed'],
    ]);
    const refs = scripted.controller.startedRuns.map((r) => r.sessionRef);
    expect(new Set(refs).size).toBe(2);
    expect(refs[0]).toBe(refs[2]);
    expect(refs[1]).not.toBe(refs[0]);
    // the turn records which profile and provider it ran on
    const started = (await history(runtime, session.id)).filter(
      (e) => e.payload.type === 'turn.started',
    );
    expect(
      started.map((e) => (e.payload.type === 'turn.started' ? e.payload.profile : '')),
    ).toEqual(['alpha', 'beta', 'alpha']);
  });

  it('falls back from the turn profile to the session profile to the config default', async () => {
    const { runtime, scripted } = await scriptedRuntime();
    const onBeta = await runtime.openSession({ workspace: tempDir(), profile: 'beta' });
    const a = await onBeta.submitTurn({ input: 'x' });
    scripted.controller.drain();
    expect((await a.done).profile).toBe('beta');
    const b = await onBeta.submitTurn({ input: 'y', profile: 'alpha' });
    scripted.controller.drain();
    expect((await b.done).profile).toBe('alpha');
    const plain = await runtime.openSession({ workspace: tempDir() });
    expect(plain.defaultProfile).toBe('alpha');
  });

  it('refuses a second turn while a run is active with a typed busy error', async () => {
    const { scripted, session } = await scriptedRuntime({
      scripted: {
        scripts: {
          wait: [
            { type: 'ask', ref: 'q', request: { kind: 'question', prompt: 'go?' } },
            { type: 'succeed' },
          ],
        },
      },
    });
    const first = await session.submitTurn({ input: 'wait' });
    scripted.controller.drain();
    const busy = await refusal(session.submitTurn({ input: 'again' }));
    expect(busy.reason).toBe('session_busy');
    expect(busy.code).toBe('illegal_state_transition');
    expect(busy.error.details).toMatchObject({ activeRunId: first.runId });
    // also while the first one is still being admitted
    await session.interrupt();
    await first.done;
    const a = session.submitTurn({ input: 'one' });
    const b = await refusal(session.submitTurn({ input: 'two' }));
    expect(b.reason).toBe('session_busy');
    // the run starts once its turn is durable (ADR-0046), that is when submitTurn resolves
    const second = await a;
    scripted.controller.drain();
    await second.done;
  });
});

describe('host config', () => {
  it('parses profiles with defaults and loads the same config from a JSON file', () => {
    const config = {
      defaultProfile: 'codex-readonly',
      profiles: {
        'codex-readonly': { provider: 'codex', providerOptions: { sandboxMode: 'read-only' } },
        'codex-workspace-write-with-approvals': {
          provider: 'codex',
          providerOptions: { sandboxMode: 'workspace-write', approvals: 'bridge' },
          sessionOptions: { model: 'gpt-5' },
        },
      },
    };
    const parsed = parseRuntimeConfig(config);
    expect(parsed.profiles['codex-readonly']?.sessionOptions).toEqual({});
    const file = join(tempDir(), 'runtime.json');
    writeFileSync(file, JSON.stringify(config));
    expect(loadRuntimeConfig(file)).toEqual(parsed);
  });

  it('names the profile and key path of an invalid value, never its content', () => {
    const error = thrown(() =>
      parseRuntimeConfig({
        defaultProfile: 'a',
        profiles: { a: { provider: 'scripted', providerOptions: { secret: Number.NaN } } },
      }),
    );
    expect(error.reason).toBe('config_invalid');
    expect(error.error.details).toMatchObject({
      profile: 'a',
      path: 'profiles.a.providerOptions',
    });
    const badId = thrown(() =>
      parseRuntimeConfig({ defaultProfile: 'a', profiles: { a: { provider: 'Not An Id' } } }),
    );
    expect(badId.error.details).toMatchObject({ profile: 'a', path: 'profiles.a.provider' });
    expect(JSON.stringify(badId.error)).not.toContain('Not An Id');
    const unknownKey = thrown(() =>
      parseRuntimeConfig({
        defaultProfile: 'a',
        profiles: { a: { provider: 'scripted', extra: 1 } },
      }),
    );
    expect(unknownKey.error.details).toMatchObject({ profile: 'a', path: 'profiles.a.extra' });
    const missing = thrown(() =>
      parseRuntimeConfig({ defaultProfile: 'nope', profiles: { a: { provider: 'scripted' } } }),
    );
    expect(missing.reason).toBe('unknown_profile');
    expect(missing.error.details).toMatchObject({ path: 'defaultProfile' });
  });

  it('refuses an unreadable or non-JSON file without echoing the path', () => {
    const dir = tempDir();
    const absent = thrown(() => loadRuntimeConfig(join(dir, 'secret-name.json')));
    expect(absent.reason).toBe('config_unreadable');
    expect(JSON.stringify(absent.error)).not.toContain('secret-name');
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{ not json');
    const invalid = thrown(() => loadRuntimeConfig(bad));
    expect(invalid.reason).toBe('config_invalid');
    // a file that cannot be read is not a refusal of what the host wrote; bad content is
    expect(isConfigRefusal(absent)).toBe(false);
    expect(isConfigRefusal(invalid)).toBe(true);
    expect(isConfigRefusal(new Error('config_invalid'))).toBe(false);
  });

  it('refuses at load a profile whose provider id is not registered', async () => {
    const error = await refusal(
      createAgentRuntime({
        providers: { scripted: () => createScriptedProvider().provider },
        config: { defaultProfile: 'x', profiles: { x: { provider: 'codex' } } },
      }),
    );
    expect(error.reason).toBe('unknown_provider');
    expect(error.error.details).toMatchObject({ profile: 'x', path: 'profiles.x.provider' });
  });

  it('refuses an unknown profile at first use, before any turn exists', async () => {
    const { runtime, session } = await scriptedRuntime();
    const error = await refusal(session.submitTurn({ input: 'x', profile: 'gamma' }));
    expect(error.reason).toBe('unknown_profile');
    expect(
      (await refusal(runtime.openSession({ workspace: tempDir(), profile: 'gamma' }))).reason,
    ).toBe('unknown_profile');
    expect(
      (await history(runtime, session.id)).some((e) => e.payload.type === 'turn.started'),
    ).toBe(false);
    expect(session.activeRunId).toBeUndefined();
  });

  it('turns provider options the factory refuses into a typed error naming profile and key path', async () => {
    const runtime = await createAgentRuntime({
      providers: {
        strict: (options: { mode?: string }) => {
          if (options.mode !== undefined && options.mode !== 'ok') {
            throw new ProviderRejection(
              agentError('invalid_request', 'bad options', { details: { issues: 'mode' } }),
            );
          }
          return createScriptedProvider({ providerId: 'strict' }).provider;
        },
      },
      config: {
        defaultProfile: 'good',
        profiles: {
          good: { provider: 'strict' },
          bad: { provider: 'strict', providerOptions: { mode: 'nope' } },
        },
      },
    });
    onCleanup(() => runtime.shutdown());
    const session = await runtime.openSession({ workspace: tempDir() });
    const error = await refusal(session.submitTurn({ input: 'x', profile: 'bad' }));
    expect(error.reason).toBe('provider_options_refused');
    expect(error.code).toBe('invalid_request');
    expect(error.error.details).toMatchObject({
      profile: 'bad',
      path: 'profiles.bad.providerOptions.mode',
    });
    expect(JSON.stringify(error.error)).not.toContain('nope');
    // the session is still usable on a good profile
    expect(session.state).toBe('ready');
  });

  it('turns session options the provider refuses into a typed error naming the profile', async () => {
    const scripted = createScriptedProvider();
    const runtime = await createAgentRuntime({
      providers: { scripted: () => scripted.provider },
      config: {
        defaultProfile: 'p',
        profiles: { p: { provider: 'scripted', sessionOptions: { model: 'x' } } },
      },
    });
    onCleanup(() => runtime.shutdown());
    const session = await runtime.openSession({ workspace: tempDir() });
    const error = await refusal(session.submitTurn({ input: 'x' }));
    expect(error.reason).toBe('session_options_refused');
    expect(error.error.details).toMatchObject({ profile: 'p', path: 'profiles.p.sessionOptions' });
    expect(scripted.controller.startedRuns).toHaveLength(0);
  });

  it('checks each descriptor when its provider is first instantiated: parse, wire version, id', async () => {
    const wrongWire = createManualProvider({ ...manualDescriptor(), wireVersion: '0.4' });
    const wrongId = createManualProvider(manualDescriptor({ providerId: 'other' }));
    const runtime = await createAgentRuntime({
      providers: {
        manual: () => wrongWire.provider,
        broken: () => ({
          describe: () => ({ providerId: 'broken' }) as never,
          createSession: () => Promise.reject(new Error('x')),
        }),
        named: () => wrongId.provider,
      },
      config: {
        defaultProfile: 'w',
        profiles: {
          w: { provider: 'manual' },
          b: { provider: 'broken' },
          n: { provider: 'named' },
        },
      },
    });
    onCleanup(() => runtime.shutdown());
    const session = await runtime.openSession({ workspace: tempDir() });
    const wire = await refusal(session.submitTurn({ input: 'x' }));
    expect(wire.reason).toBe('wire_incompatible');
    expect(wire.code).toBe('provider_contract_violation');
    expect(wire.error.details).toMatchObject({ profile: 'w', providerWireVersion: '0.4' });
    expect(WIRE_VERSION).toBe('0.8');
    expect((await refusal(session.submitTurn({ input: 'x', profile: 'b' }))).reason).toBe(
      'descriptor_invalid',
    );
    expect((await refusal(session.submitTurn({ input: 'x', profile: 'n' }))).reason).toBe(
      'descriptor_id_mismatch',
    );
    expect(wrongWire.sessions).toHaveLength(0);
  });

  it('refuses a workspace that is not an existing absolute directory', async () => {
    const { runtime } = await scriptedRuntime();
    expect((await refusal(runtime.openSession({ workspace: 'relative/dir' }))).reason).toBe(
      'workspace_invalid',
    );
    expect(
      (await refusal(runtime.openSession({ workspace: join(tempDir(), 'missing') }))).code,
    ).toBe('workspace_unavailable');
  });
});
