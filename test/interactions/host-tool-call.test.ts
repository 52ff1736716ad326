/**
 * Host tool calls through the whole adapter on the fake transport, replaying what the real binary
 * recorded on three releases: the declared tools go out on `thread/start`, a valid call is raised
 * as a `tool_call` and answered exactly once, an input its schema refuses is answered to codex as
 * a failure and raised never, and a call still pending at interrupt is released as a failure.
 */
import { isProviderRejection } from '@relvo-labs/agent-provider';
import { describe, expect, it } from 'vitest';
import { TOOL_CALL_RELEASE } from '../../src/interactions/native-tool-call.js';
import { LOOKUP_TICKET as LOOKUP } from '../../scripts/lib/scenarios-host.js';
import {
  createProviderHarness,
  recordingSink,
  textInput,
  type ProviderHarness,
  WORKSPACE,
} from '../support/provider-harness.js';
import { loadTranscript, replay } from '../support/replay.js';

const RELEASES = ['0.153.4', '0.160.0', '0.171.0'] as const;

function open(h: ProviderHarness) {
  return h.provider.createSession({
    options: {},
    workspace: { root: WORKSPACE, ownership: 'borrowed' },
    sink: h.sessionSink,
    tools: [LOOKUP],
  });
}

const repliesTo = (h: ProviderHarness, id: number) =>
  h.transport.sent.filter((f) => f.id === id && !Object.hasOwn(f, 'method'));

async function until(check: () => boolean, label: string): Promise<void> {
  for (let i = 0; i < 2000; i += 1) {
    if (check()) return;
    await new Promise<void>((r) => setImmediate(r));
  }
  throw new Error(`never happened: ${label}`);
}

describe.each(RELEASES)('host tool calls replayed from codex %s', (release) => {
  it('a valid call is one tool_call, answered once with the recorded native reply', async () => {
    const h = createProviderHarness({ experimentalApi: true });
    const replaying = replay(h.transport, loadTranscript('host_tool_call', release), {
      workspace: WORKSPACE,
    });
    const session = await open(h);
    const init = h.transport.sent.find((f) => f.method === 'initialize');
    expect(init?.params).toMatchObject({ capabilities: { experimentalApi: true } });
    const start = h.transport.sent.find((f) => f.method === 'thread/start');
    expect(start?.params).toMatchObject({
      dynamicTools: [{ type: 'function', ...LOOKUP }],
    });
    const sink = recordingSink();
    const run = await session.startRun({ input: textInput('ticket 42?'), sink, runRef: 'r' });
    await until(() => sink.ofType('interaction.requested').length === 1, 'the tool call');
    const [asked] = sink.ofType('interaction.requested');
    expect(asked!.providerRef).toMatch(/^tool_call-[0-9a-f-]{36}-\d+$/);
    expect(asked!.request).toEqual({ kind: 'tool_call', tool: 'lookup_ticket', input: { id: 42 } });
    const answer = {
      kind: 'tool_call',
      output: { type: 'text', text: 'ticket 42 is open' },
    } as const;
    await session.respondToInteraction(asked!.providerRef, answer);
    await session.respondToInteraction(asked!.providerRef, answer);
    const other = await session
      .respondToInteraction(asked!.providerRef, {
        kind: 'tool_call',
        output: { type: 'failure', code: 'failed' },
      })
      .catch((e: unknown) => e);
    expect(isProviderRejection(other) && other.agentError.code).toBe('interaction_already_settled');
    const wrongKind = await session
      .respondToInteraction(asked!.providerRef, { kind: 'approval', decision: 'denied' })
      .catch((e: unknown) => e);
    expect(isProviderRejection(wrongKind)).toBe(true);
    expect((await run.completion).outcome).toBe('succeeded');
    await replaying;
    expect(repliesTo(h, 0)).toEqual([
      {
        id: 0,
        result: { contentItems: [{ type: 'inputText', text: 'ticket 42 is open' }], success: true },
      },
    ]);
    await session.dispose();
  });

  it('an input its schema refuses is answered a failure and never raised', async () => {
    const h = createProviderHarness({ experimentalApi: true });
    const replaying = replay(h.transport, loadTranscript('host_tool_call_failed', release), {
      workspace: WORKSPACE,
    });
    const session = await open(h);
    const sink = recordingSink();
    const run = await session.startRun({ input: textInput('ticket abc?'), sink, runRef: 'r' });
    expect((await run.completion).outcome).toBe('succeeded');
    await replaying;
    expect(sink.ofType('interaction.requested')).toEqual([]);
    const [reply] = repliesTo(h, 0);
    expect(reply).toMatchObject({ result: { success: false } });
    const text = JSON.stringify(reply);
    expect(text).toContain("the input does not match the tool's input schema");
    expect(text).toContain('/id must be integer');
    expect(text).toContain('must NOT have additional properties');
    expect(text).not.toContain('abc');
    // the refusal is a bounded diagnostic token, no value
    const diagnostics = h.sessionSink.ofType('diagnostic').concat(sink.ofType('diagnostic'));
    expect(JSON.stringify(diagnostics)).toContain('invalid_input');
    await session.dispose();
  });
});

describe('a pending host tool call', () => {
  it('is released as a failure when the run is interrupted', async () => {
    const h = createProviderHarness({ experimentalApi: true });
    const lines = loadTranscript('host_tool_call');
    const answerSeq = lines.find(
      (l) => l.dir === 'c2s' && l.frame.id === 0 && !Object.hasOwn(l.frame, 'method'),
    )!.seq;
    const replaying = replay(h.transport, lines, { workspace: WORKSPACE, untilSeq: answerSeq });
    const session = await open(h);
    const sink = recordingSink();
    const run = await session.startRun({ input: textInput('ticket 42?'), sink, runRef: 'r' });
    await replaying;
    await until(() => sink.ofType('interaction.requested').length === 1, 'the tool call');
    void run.interrupt('host');
    await until(() => repliesTo(h, 0).length === 1, 'the release');
    expect(repliesTo(h, 0)).toEqual([{ id: 0, result: TOOL_CALL_RELEASE }]);
    expect(sink.ofType('interaction.withdrawn')).toHaveLength(1);
    await session.dispose();
  });

  it('without the experimental opt-in, tools are refused before anything is written', async () => {
    const h = createProviderHarness({});
    const refused = await open(h).catch((e: unknown) => e);
    expect(isProviderRejection(refused) && refused.agentError.code).toBe('capability_unsupported');
    expect(h.transport.sent).toEqual([]);
  });

  it('a tool whose schema does not compile is refused by position, never by its name', async () => {
    const h = createProviderHarness({ experimentalApi: true });
    const refused = await h.provider
      .createSession({
        options: {},
        workspace: { root: WORKSPACE, ownership: 'borrowed' },
        sink: h.sessionSink,
        tools: [{ ...LOOKUP, name: 'SECRETNAME', inputSchema: { type: 'object', properties: 3 } }],
      })
      .catch((e: unknown) => e);
    expect(isProviderRejection(refused) && refused.agentError).toMatchObject({
      code: 'invalid_request',
      details: { reason: 'input_schema_does_not_compile', tool: 0 },
    });
    expect(JSON.stringify(refused)).not.toContain('SECRETNAME');
  });
});
