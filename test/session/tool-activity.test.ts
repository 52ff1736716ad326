/**
 * ADR-0014: one test per rule of the tool-activity redaction contract, each with canary paths
 * and canary secrets in command lines, file paths, MCP arguments and outputs.
 */
import { describe, expect, it } from 'vitest';
import { ToolActivityTracker, TOOL_ACTIVITY_BOUNDS } from '../../src/session/tool-activity.js';
import { toolItemOf } from '../support/inbound.js';
import {
  OUTSIDE_WORKSPACE,
  redactToolText,
  workspacePath,
} from '../../src/shared/workspace-redaction.js';

const ROOT = '/srv/canary-ws/project';
const CANARY_SECRET = 'sk-CANARYTOOLSECRET1234567890';
const CANARY_GH = 'ghp_CANARYCANARYCANARY123456';
const CANARY_OUTSIDE = '/home/canary-user/.ssh/id_canary';
const CANARY_OUTPUT = 'CANARY-OUTPUT-do-not-copy';
const CANARY_BARE = 'hunter2canarypassword';

function itemFrame(item: Record<string, unknown>): Record<string, unknown> {
  return { threadId: 'th', turnId: 'tu', item };
}

function command(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type: 'commandExecution',
    id: 'call_1',
    command: `/bin/bash -lc 'cat ${CANARY_OUTSIDE} ${ROOT}/src/a.ts'`,
    cwd: ROOT,
    status: 'inProgress',
    commandActions: [],
    aggregatedOutput: null,
    exitCode: null,
    durationMs: null,
    ...over,
  };
}

function allText(value: unknown): string {
  return JSON.stringify(value);
}

function expectNoCanary(value: unknown): void {
  const text = allText(value);
  for (const canary of [
    CANARY_SECRET,
    CANARY_GH,
    CANARY_OUTSIDE,
    CANARY_OUTPUT,
    CANARY_BARE,
    '/srv/canary-ws',
    'canary-user',
  ]) {
    expect(text).not.toContain(canary);
  }
}

describe('rule 1: output is never copied', () => {
  it('a finished command reports exitCode, durationMs and outputBytes, never the output text', () => {
    const tracker = new ToolActivityTracker(ROOT);
    const output = `${CANARY_OUTPUT} ${CANARY_SECRET} ${CANARY_OUTSIDE}\n`;
    const done = tracker.completed(
      toolItemOf(
        itemFrame(
          command({ status: 'completed', exitCode: 0, durationMs: 66, aggregatedOutput: output }),
        ),
      ),
    );
    expect(done?.payload).toMatchObject({
      type: 'run.tool_activity',
      toolName: 'command',
      phase: 'succeeded',
      detail: {
        exitCode: 0,
        durationMs: 66,
        outputBytes: Buffer.byteLength(output),
        status: 'completed',
      },
    });
    expectNoCanary(done);
  });

  it('patch diffs and MCP results and error text are not copied', () => {
    const tracker = new ToolActivityTracker(ROOT);
    const patch = tracker.completed(
      toolItemOf(
        itemFrame({
          type: 'fileChange',
          id: 'p1',
          status: 'completed',
          changes: [
            {
              path: `${ROOT}/a.txt`,
              kind: { type: 'add' },
              diff: `${CANARY_OUTPUT} ${CANARY_SECRET}`,
            },
          ],
        }),
      ),
    );
    const mcp = tracker.completed(
      toolItemOf(
        itemFrame({
          type: 'mcpToolCall',
          id: 'm1',
          server: 'fs',
          tool: 'read',
          status: 'failed',
          arguments: {},
          result: { content: [{ type: 'text', text: CANARY_OUTPUT }] },
          error: { message: `${CANARY_SECRET} at ${CANARY_OUTSIDE}` },
        }),
      ),
    );
    expect(patch?.payload).toMatchObject({ phase: 'succeeded' });
    expect(mcp?.payload).toMatchObject({ phase: 'failed', detail: { status: 'failed' } });
    expectNoCanary([patch, mcp]);
  });
});

describe('rule 2: URLs become <url>', () => {
  it('a URL with userinfo and a token query is replaced whole', () => {
    const text = redactToolText(
      `curl https://user:${CANARY_BARE}@internal.canary/x?token=${CANARY_BARE}`,
      ROOT,
      512,
    );
    expect(text).toBe('curl <url>');
  });
});

describe('rule 3: paths are workspace-relative; outside is replaced', () => {
  it('path fields inside the root become relative, the root itself "."', () => {
    expect(workspacePath(`${ROOT}/notes/hello.txt`, ROOT, 512)).toBe('notes/hello.txt');
    expect(workspacePath(ROOT, ROOT, 512)).toBe('.');
    expect(workspacePath('notes/x.txt', ROOT, 512)).toBe('notes/x.txt');
  });

  it('path fields outside the root, or escaping it with .., are replaced whole', () => {
    expect(workspacePath(CANARY_OUTSIDE, ROOT, 512)).toBe(OUTSIDE_WORKSPACE);
    expect(workspacePath(`${ROOT}/../../canary-user/x`, ROOT, 512)).toBe(OUTSIDE_WORKSPACE);
    expect(workspacePath('../canary-user/x', ROOT, 512)).toBe(OUTSIDE_WORKSPACE);
    // a sibling sharing the root as a string prefix is outside
    expect(workspacePath(`${ROOT}-canary/x`, ROOT, 512)).toBe(OUTSIDE_WORKSPACE);
  });

  it('command lines: the root is stripped and every other absolute path is replaced', () => {
    const tracker = new ToolActivityTracker(ROOT);
    const started = tracker.started(toolItemOf(itemFrame(command())));
    expect(started?.payload).toMatchObject({
      phase: 'invoked',
      detail: { command: `cat ${OUTSIDE_WORKSPACE} src/a.ts`, cwd: '.' },
    });
    expectNoCanary(started);
  });

  it('command lines: ~user paths and relative .. escapes are replaced, in-tree .. is kept', () => {
    const cases: [string, string][] = [
      ['cat ~canary-user/.ssh/id_canary', `cat ${OUTSIDE_WORKSPACE}`],
      ['cd ~canary-user && ls', `cd ${OUTSIDE_WORKSPACE} && ls`],
      ['cp ../canary-outside/f.txt .', `cp ${OUTSIDE_WORKSPACE} .`],
      ['cat notes/../../canary-outside/f.txt', `cat ${OUTSIDE_WORKSPACE}`],
      ['tool --input=../canary-outside/f.txt', `tool --input=${OUTSIDE_WORKSPACE}`],
      [`cat ${ROOT}/../canary-outside/f.txt`, `cat ${OUTSIDE_WORKSPACE}`],
      ['cat notes/../a.ts', 'cat notes/../a.ts'],
      ['git diff HEAD~1', 'git diff HEAD~1'],
      // a system program where a command starts is named; as an argument it stays hidden
      ['/bin/bash -lc "echo hi"', 'bash -lc "echo hi"'],
      ['/bin/bash -lc "/usr/bin/env python3 x.py"', 'bash -lc "env python3 x.py"'],
      ['ls | /usr/local/bin/jq . && /usr/sbin/ip a', 'ls | jq . && ip a'],
      ['cat /bin/bash', `cat ${OUTSIDE_WORKSPACE}`],
      ['/bin/../home/canary-user/x', OUTSIDE_WORKSPACE],
      ['/usr/bin/canary/x', OUTSIDE_WORKSPACE],
      ['/opt/canary/bin/tool', OUTSIDE_WORKSPACE],
    ];
    for (const [text, expected] of cases) expect(redactToolText(text, ROOT, 512)).toBe(expected);
  });

  it('file changes list workspace-relative paths, kinds and moves; outside paths are replaced', () => {
    const tracker = new ToolActivityTracker(ROOT);
    const started = tracker.started(
      toolItemOf(
        itemFrame({
          type: 'fileChange',
          id: 'p1',
          status: 'inProgress',
          changes: [
            { path: `${ROOT}/notes/hello.txt`, kind: { type: 'add' }, diff: CANARY_OUTPUT },
            { path: CANARY_OUTSIDE, kind: { type: 'delete' }, diff: '' },
            { path: `${ROOT}/a.ts`, kind: { type: 'update', move_path: `${ROOT}/b.ts` }, diff: '' },
          ],
        }),
      ),
    );
    expect(started?.payload).toMatchObject({
      toolName: 'file_change',
      phase: 'invoked',
      detail: {
        changeCount: 3,
        changes: [
          { path: 'notes/hello.txt', kind: 'add' },
          { path: OUTSIDE_WORKSPACE, kind: 'delete' },
          { path: 'a.ts', kind: 'update', movedTo: 'b.ts' },
        ],
      },
    });
    expectNoCanary(started);
  });
});

describe('rule 4: credential shapes are redacted', () => {
  it.each([
    ['an sk- key', `echo ${CANARY_SECRET}`],
    ['a GitHub token', `git push https://x ${CANARY_GH}`],
    ['a bearer header', `curl -H "Authorization: Bearer ${CANARY_BARE}" x`],
    ['a secret-named assignment', `API_TOKEN=${CANARY_BARE} ./run`],
    ['a quoted assignment', `export DB_PASSWORD='${CANARY_BARE} more'`],
    ['a password flag', `mysql --password ${CANARY_BARE}`],
    ['a password flag with =', `tool --api-key=${CANARY_BARE}`],
  ])('%s in a command line', (_name, cmd) => {
    const tracker = new ToolActivityTracker(ROOT);
    const event = tracker.started(toolItemOf(itemFrame(command({ command: cmd }))));
    expect(allText(event)).toContain('[redacted]');
    expectNoCanary(event);
  });

  it('a secret in a web search query and in a file path', () => {
    const tracker = new ToolActivityTracker(ROOT);
    const search = tracker.completed(
      toolItemOf(itemFrame({ type: 'webSearch', id: 'ws', query: `how to use ${CANARY_SECRET}` })),
    );
    expect(search?.payload).toMatchObject({
      toolName: 'web_search',
      phase: 'succeeded',
      detail: { query: 'how to use [redacted]' },
    });
    expect(workspacePath(`${ROOT}/${CANARY_SECRET}.txt`, ROOT, 512)).toBe('[redacted].txt');
    expectNoCanary(search);
  });
});

describe('rule 5: MCP argument values are never copied', () => {
  it('only top-level argument names, redacted and bounded', () => {
    const tracker = new ToolActivityTracker(ROOT);
    const started = tracker.started(
      toolItemOf(
        itemFrame({
          type: 'mcpToolCall',
          id: 'm1',
          server: 'files',
          tool: 'read_file',
          status: 'inProgress',
          arguments: {
            path: CANARY_OUTSIDE,
            token: CANARY_SECRET,
            nested: { deeper: CANARY_BARE },
            [CANARY_SECRET]: 1,
          },
        }),
      ),
    );
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
    const tracker = new ToolActivityTracker(ROOT);
    const long = `echo ${'😀'.repeat(2000)}`;
    const event = tracker.started(toolItemOf(itemFrame(command({ command: long }))));
    const text = (event?.payload as unknown as { detail: { command: string } }).detail.command;
    expect(text.length).toBeLessThanOrEqual(TOOL_ACTIVITY_BOUNDS.command);
    expect(text.endsWith('…')).toBe(true);
    expect(text).not.toMatch(/[\uD800-\uDBFF]…$/);
  });

  it('a secret straddling the bound is redacted before the cut', () => {
    const padded = `${'x'.repeat(500)} ${CANARY_SECRET}`;
    const text = redactToolText(padded, ROOT, 512);
    expect(text).not.toContain('sk-CANARY');
  });

  it('at most 32 file changes per event, with the full count', () => {
    const tracker = new ToolActivityTracker(ROOT);
    const changes = Array.from({ length: 100 }, (_, i) => ({
      path: `${ROOT}/f${i}`,
      kind: { type: 'add' },
      diff: '',
    }));
    const event = tracker.started(
      toolItemOf(itemFrame({ type: 'fileChange', id: 'p', status: 'inProgress', changes })),
    );
    const detail = (
      event?.payload as unknown as { detail: { changes: unknown[]; changeCount: number } }
    ).detail;
    expect(detail.changes).toHaveLength(TOOL_ACTIVITY_BOUNDS.changes);
    expect(detail.changeCount).toBe(100);
  });
});

describe('rule 7: no native ids', () => {
  it('invoked and terminal phases pair by a per-run activityId, never codex item ids', () => {
    const tracker = new ToolActivityTracker(ROOT);
    const a = tracker.started(toolItemOf(itemFrame(command({ id: 'call_native_canary' }))));
    const b = tracker.completed(
      toolItemOf(itemFrame(command({ id: 'call_native_canary', status: 'failed', exitCode: 2 }))),
    );
    expect(a?.payload).toMatchObject({ detail: { activityId: 'tool-1' } });
    expect(b?.payload).toMatchObject({
      phase: 'failed',
      detail: { activityId: 'tool-1', exitCode: 2, status: 'failed' },
    });
    expect(allText([a, b])).not.toContain('call_native_canary');
  });
});

describe('rule 8: no invented phases', () => {
  it('one invoked and one terminal per item; repeats are dropped', () => {
    const tracker = new ToolActivityTracker(ROOT);
    expect(tracker.started(toolItemOf(itemFrame(command())))).toBeDefined();
    expect(tracker.started(toolItemOf(itemFrame(command())))).toBeUndefined();
    expect(
      tracker.completed(toolItemOf(itemFrame(command({ status: 'completed' })))),
    ).toBeDefined();
    expect(
      tracker.completed(toolItemOf(itemFrame(command({ status: 'completed' })))),
    ).toBeUndefined();
  });

  it('a completion without a start gives only the terminal phase; a non-terminal status gives none', () => {
    const tracker = new ToolActivityTracker(ROOT);
    expect(
      tracker.completed(toolItemOf(itemFrame(command({ status: 'inProgress' })))),
    ).toBeUndefined();
    const done = tracker.completed(toolItemOf(itemFrame(command({ status: 'declined' }))));
    expect(done?.payload).toMatchObject({ phase: 'failed', detail: { status: 'declined' } });
  });

  it('non-tool items and malformed frames give nothing; a web search start has no query', () => {
    const tracker = new ToolActivityTracker(ROOT);
    expect(
      tracker.started(
        toolItemOf(itemFrame({ type: 'agentMessage', id: 'm', text: CANARY_OUTPUT })),
      ),
    ).toBeUndefined();
    expect(tracker.started(toolItemOf({ item: command() }))).toBeUndefined();
    expect(
      tracker.started(toolItemOf(itemFrame({ type: 'commandExecution', id: 'c' }))),
    ).toBeUndefined();
    const search = tracker.started(
      toolItemOf(itemFrame({ type: 'webSearch', id: 'ws', query: '' })),
    );
    expect(search?.payload).toMatchObject({ phase: 'invoked', detail: { activityId: 'tool-1' } });
    expect((search?.payload as { detail: Record<string, unknown> }).detail).not.toHaveProperty(
      'query',
    );
  });
});
