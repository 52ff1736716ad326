/**
 * ADR-0014, rules 5–8 of the tool-activity redaction contract (rules 1–4 in
 * tool-activity.test.ts): MCP argument values, bounds after redaction, no native ids, no
 * invented phases.
 */
import { describe, expect, it } from 'vitest';
import { TOOL_ACTIVITY_BOUNDS } from '../../src/session/tool-activity.js';
import { redactToolText } from '../../src/shared/workspace-redaction.js';
import { toolItemOf } from '../support/inbound.js';
import * as kit from '../support/session-tool-activity.js';

// both rule files take the same names from the kit: one line, not a long import list each
const { CANARY, command, expectNoCanary, fileChange, ROOT, tracked } = kit;

describe('rule 5: MCP argument values are never copied', () => {
  it('only top-level argument names, redacted and bounded', () => {
    const started = tracked().started({
      type: 'mcpToolCall',
      id: 'm1',
      server: 'files',
      tool: 'read_file',
      status: 'inProgress',
      arguments: {
        path: CANARY.outside,
        token: CANARY.secret,
        nested: { deeper: CANARY.bare },
        [CANARY.secret]: 1,
      },
    });
    expect(started?.payload).toMatchObject({
      toolName: 'mcp_tool',
      phase: 'invoked',
      detail: {
        server: 'files',
        tool: 'read_file',
        argumentKeys: ['path', 'token', 'nested', '[redacted]'],
      },
    });
    expectNoCanary(started);
  });
});

describe('rule 6: everything is bounded, after redaction', () => {
  it('a long command is cut to the bound with a mark, never splitting a surrogate pair', () => {
    const long = `echo ${'😀'.repeat(2000)}`;
    const event = tracked().started(command({ command: long }));
    const text = (event?.payload as unknown as { detail: { command: string } }).detail.command;
    expect(text.length).toBeLessThanOrEqual(TOOL_ACTIVITY_BOUNDS.command);
    expect(text.endsWith('…')).toBe(true);
    expect(text).not.toMatch(/[\uD800-\uDBFF]…$/);
  });

  it('a secret straddling the bound is redacted before the cut', () => {
    const padded = `${'x'.repeat(500)} ${CANARY.secret}`;
    const text = redactToolText(padded, ROOT, 512);
    expect(text).not.toContain('sk-CANARY');
  });

  it('at most 32 file changes per event, with the full count', () => {
    const changes = Array.from({ length: 100 }, (_, i) => ({
      path: `${ROOT}/f${i}`,
      kind: { type: 'add' },
      diff: '',
    }));
    const event = tracked().started(fileChange('inProgress', changes, 'p'));
    const detail = (
      event?.payload as unknown as { detail: { changes: unknown[]; changeCount: number } }
    ).detail;
    expect(detail.changes).toHaveLength(TOOL_ACTIVITY_BOUNDS.changes);
    expect(detail.changeCount).toBe(100);
  });
});

describe('rule 7: no native ids', () => {
  it('invoked and terminal phases pair by a per-run activityId, never codex item ids', () => {
    const { started, completed } = tracked();
    const a = started(command({ id: 'call_native_canary' }));
    const b = completed(command({ id: 'call_native_canary', status: 'failed', exitCode: 2 }));
    expect(a?.payload).toMatchObject({ detail: { activityId: 'tool-1' } });
    expect(b?.payload).toMatchObject({
      phase: 'failed',
      detail: { activityId: 'tool-1', exitCode: 2, status: 'failed' },
    });
    expect(JSON.stringify([a, b])).not.toContain('call_native_canary');
  });
});

describe('rule 8: no invented phases', () => {
  it('one invoked and one terminal per item; repeats are dropped', () => {
    const { started, completed } = tracked();
    expect(started(command())).toBeDefined();
    expect(started(command())).toBeUndefined();
    expect(completed(command({ status: 'completed' }))).toBeDefined();
    expect(completed(command({ status: 'completed' }))).toBeUndefined();
  });

  it('a completion without a start gives only the terminal phase; a non-terminal status gives none', () => {
    const { completed } = tracked();
    expect(completed(command({ status: 'inProgress' }))).toBeUndefined();
    const done = completed(command({ status: 'declined' }));
    expect(done?.payload).toMatchObject({ phase: 'failed', detail: { status: 'declined' } });
  });

  it('non-tool items and malformed frames give nothing; a web search start has no query', () => {
    const { tracker, started } = tracked();
    expect(started({ type: 'agentMessage', id: 'm', text: CANARY.output })).toBeUndefined();
    expect(tracker.started(toolItemOf({ item: command() }))).toBeUndefined();
    expect(started({ type: 'commandExecution', id: 'c' })).toBeUndefined();
    const search = started({ type: 'webSearch', id: 'ws', query: '' });
    expect(search?.payload).toMatchObject({ phase: 'invoked', detail: { activityId: 'tool-1' } });
    expect((search?.payload as { detail: Record<string, unknown> }).detail).not.toHaveProperty(
      'query',
    );
  });
});
