/**
 * The README's "using the provider from code with the runtime" example, run as written against
 * the real pinned codex and the scripted model (only the config and the workspace differ).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createCodexProvider } from '@relvo-labs/agent-provider-codex';
import {
  codexConfigArgs,
  createIsolatedCodexHome,
  execCommandStep,
  functionCallOutput,
  requireCodexBinary,
  ScriptedModelServer,
  scriptedUsage,
  textStep,
} from '@relvo-labs/agent-provider-codex/testing';
import {
  createAgentRuntime,
  createMemoryEventStore,
  type EventEnvelope,
} from '@relvo-labs/agent-runtime';
import { testEnv } from '../../../test/support/processes.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('the provider from code, through the runtime (README example)', () => {
  it('registers createCodexProvider as codex, streams a turn, answers the approval, closes cleanly', async () => {
    const binary = requireCodexBinary({ kind: 'native' });
    const server = await ScriptedModelServer.start();
    cleanups.push(() => server.close());
    const iso = createIsolatedCodexHome('relvo-from-code-');
    cleanups.push(() => {
      iso.dispose();
    });
    server.enqueue(
      execCommandStep('echo from-code', { callId: 'call_fc', escalate: true }),
      textStep(['All ', 'done.'], { usage: scriptedUsage(10, 2, 0, 0) }),
    );

    const runtime = await createAgentRuntime({
      providers: { codex: createCodexProvider },
      config: {
        defaultProfile: 'codex-readonly',
        profiles: {
          'codex-readonly': {
            provider: 'codex',
            providerOptions: {
              executable: binary.path,
              extraArgs: codexConfigArgs({ baseUrl: server.baseUrl }),
              env: iso.env(testEnv()),
              sandboxMode: 'read-only',
              approvals: 'bridge',
            },
          },
        },
      },
      store: createMemoryEventStore(),
    });
    cleanups.push(() => runtime.shutdown());
    const session = await runtime.openSession({ workspace: iso.workspace });

    const seen: EventEnvelope[] = [];
    let text = '';
    const reading = (async () => {
      for await (const envelope of session.subscribe({ fromSequence: 1 })) {
        seen.push(envelope);
        const p = envelope.payload;
        if (p.type === 'run.message_delta') text += p.text;
        if (p.type === 'interaction.requested' && p.request.kind === 'approval')
          void session.respond(p.interactionId, { kind: 'approval', decision: 'denied' });
      }
    })();

    const turn = await session.submitTurn({ input: 'Explain src/index.ts' });
    const result = await turn.done;
    await session.close();
    await reading;
    await runtime.shutdown();

    expect(result.termination.outcome).toBe('succeeded');
    expect(text).toBe('All done.');
    expect(seen.map((e) => e.sequence)).toEqual(seen.map((_, i) => i + 1));
    expect(seen.at(-1)?.payload.type).toBe('session.closed');
    // denied: codex did not run it, and told the model so
    expect(functionCallOutput(server.requests[1]!, 'call_fc')).toContain('rejected');
  });
});
