/**
 * A runtime profile binding a host tool to a host function, on the REAL codex (scripted model on
 * 127.0.0.1): the model's call reaches the function with its checked input, the function's
 * output is recorded in the log as the interaction's answer and is what the model reads next;
 * a throwing function is a failure the model reads, and nothing of the error is logged.
 */
import {
  createAgentRuntime,
  type AgentRuntime,
  type EventEnvelope,
  type HostToolFunction,
  type RuntimeSession,
} from '@relvo-labs/agent-runtime';
import type { JsonValue } from '@relvo-labs/agent-provider';
import { describe, expect, it } from 'vitest';
import { createCodexProvider } from '../../src/index.js';
import {
  createIsolatedCodexHome,
  functionCallOutput,
  functionCallStep,
  ScriptedModelServer,
  textStep,
} from '../../src/testing/index.js';
import { useCleanups } from '../support/cleanups.js';
import { codexRuntime } from '../support/codex-runtime.js';
import { LOOKUP_TICKET as LOOKUP } from '../../scripts/lib/scenarios-host.js';

const cleanups = useCleanups();

async function harness(lookup: HostToolFunction): Promise<{
  runtime: AgentRuntime;
  server: ScriptedModelServer;
  open: () => ReturnType<AgentRuntime['openSession']>;
}> {
  const { runtime, server, workspace } = await codexRuntime(cleanups, {
    prefix: 'relvo-runtime-tools-',
    providerOptions: { experimentalApi: true },
    profile: { tools: [LOOKUP] },
    runtime: { toolFunctions: { lookup_ticket: lookup } },
  });
  return { runtime, server, open: () => runtime.openSession({ workspace }) };
}

/**
 * A session whose turn has the model call `lookup_ticket` with `args`, then answer; the turn
 * must complete.
 */
async function lookupTurn(
  h: Awaited<ReturnType<typeof harness>>,
  input: string,
  args: Record<string, JsonValue>,
  callId: string,
): Promise<RuntimeSession> {
  const session = await h.open();
  h.server.enqueue(
    functionCallStep('lookup_ticket', args, { callId }),
    textStep([`answer to ${input}`]),
  );
  const turn = await session.submitTurn({ input });
  expect((await turn.done).turnState).toBe('completed');
  return session;
}

async function stored(runtime: AgentRuntime, sessionId: string): Promise<EventEnvelope[]> {
  return [...(await runtime.readEvents(sessionId, { limit: 10_000 }))];
}

describe('runtime host functions on the real codex', () => {
  it("the bound function answers the call; its output is logged and reaches the model's next request", async () => {
    const seen: JsonValue[] = [];
    const h = await harness((input, context) => {
      seen.push(input);
      expect(context.tool).toBe('lookup_ticket');
      return { type: 'text', text: 'ticket 42 is open (HOST-FN-9)' };
    });
    const session = await lookupTurn(h, 'ticket 42?', { id: 42 }, 'call_rt_1');
    expect(seen).toEqual([{ id: 42 }]);
    const second = h.server.requests[1];
    if (second === undefined) throw new Error('no second model request');
    expect(functionCallOutput(second, 'call_rt_1')).toBe('ticket 42 is open (HOST-FN-9)');
    const events = await stored(h.runtime, session.id);
    const types = events.map((e) => e.payload.type);
    expect(types).toContain('interaction.requested');
    const answered = events.find((e) => e.payload.type === 'interaction.answered');
    expect(answered?.payload).toMatchObject({
      response: {
        kind: 'tool_call',
        output: { type: 'text', text: 'ticket 42 is open (HOST-FN-9)' },
      },
    });
    const settled = events.find((e) => e.payload.type === 'interaction.settled');
    expect(settled?.payload).toMatchObject({ settlement: { outcome: 'responded' } });
  });

  it('a throwing function is a failure the model reads; the error text is never logged', async () => {
    const h = await harness(() => {
      throw new Error('SECRET-HOST-ERROR');
    });
    const session = await lookupTurn(h, 'ticket 7?', { id: 7 }, 'call_rt_2');
    const second = h.server.requests[1];
    if (second === undefined) throw new Error('no second model request');
    expect(functionCallOutput(second, 'call_rt_2')).toBe('host tool failed (failed)');
    const events = await stored(h.runtime, session.id);
    expect(JSON.stringify(events)).not.toContain('SECRET-HOST-ERROR');
    expect(events.find((e) => e.payload.type === 'interaction.answered')?.payload).toMatchObject({
      response: { kind: 'tool_call', output: { type: 'failure', code: 'failed' } },
    });
  });

  it('an input the schema refuses never reaches the function', async () => {
    let calls = 0;
    const h = await harness(() => {
      calls += 1;
      return { type: 'text', text: 'unexpected' };
    });
    const session = await lookupTurn(h, 'ticket x?', { id: 'x' }, 'call_rt_3');
    expect(calls).toBe(0);
    const events = await stored(h.runtime, session.id);
    expect(events.some((e) => e.payload.type === 'interaction.requested')).toBe(false);
  });
});

describe('a profile whose provider does not offer host tools', () => {
  it('is refused host_tools_unsupported before any session opens', async () => {
    const iso = createIsolatedCodexHome('relvo-runtime-tools-');
    cleanups.push(() => {
      iso.dispose();
    });
    const runtime = await createAgentRuntime({
      providers: { codex: createCodexProvider },
      config: {
        defaultProfile: 'p',
        // no experimentalApi: the codex provider declares no host tools
        profiles: { p: { provider: 'codex', providerOptions: {}, tools: [LOOKUP] } },
      },
    });
    cleanups.push(() => runtime.shutdown());
    const refused = await runtime
      .openSession({ workspace: iso.workspace })
      .then((s) => s.submitTurn({ input: 'x' }))
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({
      code: 'capability_unsupported',
      reason: 'host_tools_unsupported',
    });
  });
});
