/**
 * A tool-call approval from a release whose `_meta` names no tool (0.153.4–0.166.0, recorded:
 * the call's `item/started` comes just before it), through a session: the approval names the
 * call the turn has in flight to that server; once that call completed, or with two in flight,
 * it is refused as having no reviewable subject.
 */
import { describe, expect, it } from 'vitest';
import { completed, openedHarness, push, startBound, THREAD } from '../support/provider-frames.js';
import { UNNAMED_TOOL_APPROVAL } from '../support/elicitation-frames.js';

const mcpCall = (id: string, tool: string, status = 'inProgress') => ({
  type: 'mcpToolCall',
  id,
  server: 'elicit',
  tool,
  status,
  arguments: { from: id },
  result: null,
  error: null,
  durationMs: null,
});

const itemStarted = (id: string, tool: string) => ({
  method: 'item/started',
  params: { threadId: THREAD, turnId: 't1', item: mcpCall(id, tool) },
});

const itemCompleted = (id: string, tool: string) => ({
  method: 'item/completed',
  params: { threadId: THREAD, turnId: 't1', item: mcpCall(id, tool, 'completed') },
});

/** The approval as 0.166.0 sent it (recorded with a real MCP server). */
const unnamedApproval = (id: number) => ({
  id,
  method: 'mcpServer/elicitation/request',
  params: {
    threadId: THREAD,
    turnId: 't1',
    serverName: 'elicit',
    mode: 'form',
    ...UNNAMED_TOOL_APPROVAL,
    requestedSchema: { type: 'object', properties: {} },
  },
});

describe('an MCP tool-call approval that names no tool', () => {
  it('names the one call in flight to that server', async () => {
    const { h, session } = await openedHarness({ mcpElicitations: 'bridge' });
    const { run, sink } = await startBound(h, session, 't1');
    await push(h.transport, itemStarted('call_plain', 'plain'), unnamedApproval(0));
    const [asked] = sink.ofType('interaction.requested');
    expect(asked?.request).toMatchObject({
      kind: 'approval',
      subject: { category: 'tool', detail: { server: 'elicit', tool: 'plain', arguments: '{}' } },
    });
    await push(h.transport, completed('t1', 'completed'));
    expect((await run.completion).outcome).toBe('succeeded');
    await session.dispose();
  });

  it('refused when the call completed already, or when two calls to the server are in flight', async () => {
    const { h, session } = await openedHarness({ mcpElicitations: 'bridge' });
    const { run, sink } = await startBound(h, session, 't1');
    await push(
      h.transport,
      itemStarted('a', 'plain'),
      itemCompleted('a', 'plain'),
      unnamedApproval(0),
      itemStarted('b', 'plain'),
      itemStarted('c', 'ask_form'),
      unnamedApproval(1),
    );
    expect(sink.ofType('interaction.requested')).toEqual([]);
    const refusals = h.transport.sent.filter((f) => 'error' in f);
    expect(refusals).toHaveLength(2);
    expect(JSON.stringify(refusals)).toContain('no_reviewable_subject');
    await push(h.transport, completed('t1', 'completed'));
    expect((await run.completion).outcome).toBe('succeeded');
    await session.dispose();
  });
});
