/**
 * The runtime driving the REAL codex binary (scripted model on 127.0.0.1, no credentials) and
 * the SPI's scripted provider through the same code path: one runtime, one session, two
 * profiles. Only this test imports the Codex provider; the runtime's sources never do.
 */
import { createScriptedProvider } from '@relvo-labs/agent-provider/testing';
import {
  createAgentRuntime,
  isRuntimeError,
  type AgentRuntime,
  type EventEnvelope,
  type RuntimeConfigInput,
  type RuntimeSession,
} from '@relvo-labs/agent-runtime';
import { describe, expect, it } from 'vitest';
import { createCodexProvider } from '../../src/index.js';
import {
  execCommandStep,
  functionCallOutput,
  scriptedUsage,
  ScriptedModelServer,
  textStep,
  type IsolatedCodexHome,
} from '../../src/testing/index.js';
import { processesWithEnv } from '../support/proc-scan.js';
import { useCleanups } from '../support/cleanups.js';
import { codexProviderJson, realCodexParts } from '../support/codex-runtime.js';
import { closingStep, escalatedEcho } from '../support/real-codex.js';

const cleanups = useCleanups();

interface RuntimeHarness {
  readonly runtime: AgentRuntime;
  readonly session: RuntimeSession;
  readonly server: ScriptedModelServer;
  readonly scripted: ReturnType<typeof createScriptedProvider>;
  readonly iso: IsolatedCodexHome;
}

async function harness(): Promise<RuntimeHarness> {
  const parts = await realCodexParts(cleanups, 'relvo-runtime-');
  const { iso, server } = parts;
  // all of it JSON: the same shape a host would put in its config file
  const codexOptions = codexProviderJson(parts);
  const config: RuntimeConfigInput = {
    defaultProfile: 'codex-readonly',
    profiles: {
      'codex-readonly': {
        provider: 'codex',
        providerOptions: { ...codexOptions, sandboxMode: 'read-only' },
      },
      'codex-workspace-write-with-approvals': {
        provider: 'codex',
        providerOptions: { ...codexOptions, sandboxMode: 'workspace-write', approvals: 'bridge' },
      },
      scripted: { provider: 'scripted' },
    },
  };
  const scripted = createScriptedProvider();
  const runtime = await createAgentRuntime({
    providers: { codex: createCodexProvider, scripted: () => scripted.provider },
    config,
  });
  cleanups.push(() => runtime.shutdown());
  const session = await runtime.openSession({ workspace: iso.workspace });
  return { runtime, session, server, scripted, iso };
}

async function waitFor(label: string, predicate: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${label}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function stored(runtime: AgentRuntime, sessionId: string): Promise<EventEnvelope[]> {
  return [...(await runtime.readEvents(sessionId, { limit: 10_000 }))];
}

describe('agent runtime with the real codex provider and the scripted provider', () => {
  it('runs codex and scripted turns in one session through the same path; envelopes are gapless', async () => {
    const h = await harness();
    h.server.enqueue(textStep(['Hello', ' world'], { usage: scriptedUsage(1200, 30, 200, 5) }));
    const codexTurn = await h.session.submitTurn({ input: 'hi' });
    expect(codexTurn.providerId).toBe('codex');
    const codexResult = await codexTurn.done;
    expect(codexResult).toMatchObject({ profile: 'codex-readonly', turnState: 'completed' });

    const scriptedTurn = await h.session.submitTurn({ input: 'hi', profile: 'scripted' });
    h.scripted.controller.drain();
    expect((await scriptedTurn.done).turnState).toBe('completed');

    h.server.enqueue(textStep('again', { usage: scriptedUsage(10, 2, 0, 0) }));
    const second = await h.session.submitTurn({ input: 'more' });
    expect((await second.done).turnState).toBe('completed');
    // the codex provider session was reused: one thread, the second request carries the first turn
    expect(JSON.stringify(h.server.requests[1]?.body)).toContain('Hello world');

    const events = await stored(h.runtime, h.session.id);
    events.forEach((e, i) => {
      expect(e.sequence).toBe(i + 1);
    });
    const codexDeltas = events
      .filter((e) => e.runId === codexTurn.runId && e.payload.type === 'run.message_delta')
      .map((e) => (e.payload.type === 'run.message_delta' ? e.payload.text : ''));
    expect(codexDeltas.join('')).toBe('Hello world');
    expect(
      events.find((e) => e.runId === codexTurn.runId && e.payload.type === 'run.usage')?.payload,
    ).toMatchObject({
      usage: { inputTokens: 1200, outputTokens: 30 },
    });
    const scriptedDeltas = events.filter(
      (e) => e.runId === scriptedTurn.runId && e.payload.type === 'run.message_delta',
    );
    expect(scriptedDeltas).toHaveLength(1);
    await h.session.close();
    expect(h.session.state).toBe('closed');
  });

  it('bridges a real approval: pending interaction, validated answer, the command runs', async () => {
    const h = await harness();
    const marker = `out-${Date.now()}`;
    h.server.enqueue(escalatedEcho(marker, 'call_ok'), closingStep('done'));
    const turn = await h.session.submitTurn({
      input: 'run it',
      profile: 'codex-workspace-write-with-approvals',
    });
    await waitFor('the approval', () => h.session.pendingInteractions().length === 1);
    const [pending] = h.session.pendingInteractions();
    expect(pending?.request).toMatchObject({ kind: 'approval', subject: { category: 'command' } });
    // an invalid answer is stopped by the runtime; the real interaction stays answerable
    const invalid = await h.session
      .respond(pending!.interactionId, { kind: 'approval', decision: 'approved' })
      .catch((e: unknown) => e);
    expect(isRuntimeError(invalid) && invalid.reason).toBe('response_invalid');
    await h.session.respond(pending!.interactionId, {
      kind: 'approval',
      decision: 'approved',
      mode: 'once',
    });
    expect((await turn.done).turnState).toBe('completed');
    expect(functionCallOutput(h.server.requests[1]!, 'call_ok')).toContain(marker);
    const events = await stored(h.runtime, h.session.id);
    expect(events.map((e) => e.payload.type)).toContain('interaction.settled');
    const states = events.flatMap((e) =>
      e.payload.type === 'run.state_changed' ? [e.payload.to] : [],
    );
    expect(states).toEqual(['running', 'awaiting_interaction', 'running']);
  });

  it('interrupts a real codex run through the runtime', async () => {
    const h = await harness();
    h.server.enqueue(textStep(['slow ', 'stream ', 'never ', 'ends'], { delayMs: 2_000 }));
    const turn = await h.session.submitTurn({ input: 'slow' });
    await waitFor('the first delta', async () =>
      (await stored(h.runtime, h.session.id)).some((e) => e.payload.type === 'run.message_delta'),
    );
    await h.session.interrupt('stop');
    const result = await turn.done;
    expect(result.turnState).toBe('cancelled');
    expect(result.termination.outcome).toBe('interrupted');
  });

  /** A turn on the approvals profile whose command waits for an answer that never comes. */
  async function pendingApproval(h: RuntimeHarness) {
    h.server.enqueue(execCommandStep('echo never', { escalate: true, justification: 'test' }));
    const turn = await h.session.submitTurn({
      input: 'run it',
      profile: 'codex-workspace-write-with-approvals',
    });
    await waitFor('the approval', () => h.session.pendingInteractions().length === 1);
    return turn;
  }

  /** `interaction.settled` outcomes and `run.finished`, in log order. */
  async function settlementTrail(h: RuntimeHarness): Promise<string[]> {
    return (await stored(h.runtime, h.session.id)).flatMap((e) =>
      e.payload.type === 'interaction.settled'
        ? [`settled ${e.payload.settlement.outcome}`]
        : e.payload.type === 'run.finished'
          ? [`finished ${e.payload.termination.outcome}`]
          : [],
    );
  }

  it('an interrupt settles the pending approval once, before the run finishes', async () => {
    const h = await harness();
    const turn = await pendingApproval(h);
    await h.session.interrupt('stop');
    expect((await turn.done).termination.outcome).toBe('interrupted');
    // the provider's withdrawal of the same request adds nothing: one settlement
    expect(await settlementTrail(h)).toEqual(['settled cancelled', 'finished interrupted']);
  });

  it('a settlement the provider made on its own (codex gone) is recorded as withdrawn, before the run fails', async () => {
    const h = await harness();
    const turn = await pendingApproval(h);
    const leaders = processesWithEnv(`CODEX_HOME=${h.iso.codexHome}`).filter(
      (p) => p.ppid === process.pid && p.cmdline.includes('app-server'),
    );
    expect(leaders).toHaveLength(1);
    process.kill(leaders[0]!.pid, 'SIGKILL');
    expect((await turn.done).termination.outcome).toBe('failed');
    expect(await settlementTrail(h)).toEqual(['settled withdrawn', 'finished failed']);
  });

  it('refuses codex provider options it does not accept when the runtime is created, naming the profile and key path', async () => {
    const error = await createAgentRuntime({
      providers: { codex: createCodexProvider },
      config: {
        defaultProfile: 'bad',
        profiles: { bad: { provider: 'codex', providerOptions: { sandboxMode: 'everything' } } },
      },
    }).catch((e: unknown) => e);
    expect(isRuntimeError(error) && error.reason).toBe('provider_options_refused');
    expect(isRuntimeError(error) && error.error.details).toMatchObject({
      profile: 'bad',
      path: 'profiles.bad.providerOptions.sandboxMode',
    });
  });
});
