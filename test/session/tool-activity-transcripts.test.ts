/**
 * Tool activity on frames recorded from the real binary (`tool_activity`): a command printing a
 * canary with a canary secret on its command line, a failing command, a patch applied without
 * approval and a web search whose query carries the canary secret.
 */
import { providerEventInputSchema } from '@relvo-labs/agent-provider';
import { describe, expect, it } from 'vitest';
import { CANARY_OUTPUT, CANARY_SECRET } from '../../scripts/lib/scenarios-tools.js';
import { WORKSPACE, texts } from '../support/provider-harness.js';
import { loadRecorded } from '../support/recorded.js';
import { replayedRun } from '../support/session-runs.js';

const SCENARIO = 'tool_activity';
const REDACTED = { toolActivity: 'redacted' } as const;

function recordedOutputBytes(callId: string): number {
  const line = loadRecorded('tool_activity').find(
    (l) =>
      l.frame.method === 'item/completed' &&
      (l.frame.params as { item: { id: string } }).item.id === callId,
  );
  const output = (line?.frame.params as { item: { aggregatedOutput: string } }).item
    .aggregatedOutput;
  return Buffer.byteLength(output, 'utf8');
}

describe('tool activity replayed from the real binary', () => {
  it('toolActivity redacted: invoked and terminal phases for each tool item, redacted and bounded', async () => {
    const { h, session, sink, termination } = await replayedRun(SCENARIO, 'show your tools', 't', {
      provider: REDACTED,
    });
    expect(h.provider.describe().run.streaming.toolActivity).toBe(true);
    expect(termination).toEqual({ outcome: 'succeeded' });

    const activity = sink.ofType('run.tool_activity');
    expect(activity.map((a) => [a.toolName, a.phase])).toEqual([
      ['command', 'invoked'],
      ['command', 'succeeded'],
      ['command', 'invoked'],
      ['command', 'failed'],
      ['file_change', 'invoked'],
      ['file_change', 'succeeded'],
      ['web_search', 'invoked'],
      ['web_search', 'succeeded'],
    ]);
    expect(activity[0]!.detail).toEqual({
      activityId: 'tool-1',
      // codex masked the key in the command itself; the adapter keeps its mask
      command: `echo ${CANARY_OUTPUT} [REDACTED_SECRET]`,
      cwd: '.',
    });
    expect(activity[1]!.detail).toMatchObject({
      activityId: 'tool-1',
      status: 'completed',
      exitCode: 0,
      outputBytes: recordedOutputBytes('call_ok_1'),
    });
    expect(activity[3]!.detail).toMatchObject({
      activityId: 'tool-2',
      command: 'ls <outside-workspace>',
      status: 'failed',
      exitCode: 2,
    });
    expect(activity[4]!.detail).toEqual({
      activityId: 'tool-3',
      changes: [{ path: 'notes/hello.txt', kind: 'add' }],
      changeCount: 1,
    });
    expect(activity[7]!.detail).toEqual({ activityId: 'tool-4', query: 'canary query [redacted]' });

    // output, secrets and the host's paths never reach an event
    const everything = JSON.stringify(sink.events);
    expect(everything).not.toContain(CANARY_SECRET);
    expect(everything).not.toContain(CANARY_OUTPUT + ' ' + CANARY_SECRET);
    expect(everything).not.toContain(WORKSPACE);
    expect(everything).not.toContain('No such file or directory');
    expect(everything).not.toContain('call_');
    for (const e of sink.events) expect(providerEventInputSchema.safeParse(e).success).toBe(true);
    await session.dispose();
  });

  it('toolActivity off (default): the same frames publish no tool activity and the descriptor says so', async () => {
    const { h, session, sink, termination } = await replayedRun(SCENARIO, 'x', 't');
    expect(h.provider.describe().run.streaming.toolActivity).toBe(false);
    expect(termination).toEqual({ outcome: 'succeeded' });
    expect(sink.ofType('run.tool_activity')).toEqual([]);
    expect(texts(sink)).toBe('Done.');
    await session.dispose();
  });

  it('an item that only completes gets no invented invoked; one that never completes gets no terminal phase', async () => {
    const { session, sink, termination } = await replayedRun(SCENARIO, 'x', 't', {
      provider: REDACTED,
      // drop the first command's start and the failing command's completion, as codex does for
      // fast commands (docs/protocol.md, "Ordering facts and quirks")
      rewrite: (frame) => {
        const item = (frame.params as { item?: { id?: string } } | undefined)?.item;
        if (frame.method === 'item/started' && item?.id === 'call_ok_1') return undefined;
        if (frame.method === 'item/completed' && item?.id === 'call_fail_1') return undefined;
        return frame;
      },
    });
    expect(termination).toEqual({ outcome: 'succeeded' });
    const commands = sink.ofType('run.tool_activity').filter((a) => a.toolName === 'command');
    expect(commands.map((a) => a.phase)).toEqual(['succeeded', 'invoked']);
    await session.dispose();
  });
});
