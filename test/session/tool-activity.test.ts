/**
 * ADR-0014: one test per rule of the tool-activity redaction contract, each with canary paths
 * and canary secrets in command lines, file paths, MCP arguments and outputs. Rules 1–4 here
 * (output, URLs, paths, credentials); rules 5–8 in tool-activity-items.test.ts.
 */
import { describe, expect, it } from 'vitest';
import {
  OUTSIDE_WORKSPACE,
  redactToolText,
  workspacePath,
} from '../../src/shared/workspace-redaction.js';
import * as kit from '../support/session-tool-activity.js';

// both rule files take the same names from the kit: one line, not a long import list each
const { CANARY, command, expectNoCanary, fileChange, ROOT, tracked } = kit;

describe('rule 1: output is never copied', () => {
  it('a finished command reports exitCode, durationMs and outputBytes, never the output text', () => {
    const { completed } = tracked();
    const output = `${CANARY.output} ${CANARY.secret} ${CANARY.outside}\n`;
    const done = completed(
      command({ status: 'completed', exitCode: 0, durationMs: 66, aggregatedOutput: output }),
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
    const { completed } = tracked();
    const diff = `${CANARY.output} ${CANARY.secret}`;
    const patch = completed(
      fileChange('completed', [{ path: `${ROOT}/a.txt`, kind: { type: 'add' }, diff }]),
    );
    const mcp = completed({
      type: 'mcpToolCall',
      id: 'm1',
      server: 'fs',
      tool: 'read',
      status: 'failed',
      arguments: {},
      result: { content: [{ type: 'text', text: CANARY.output }] },
      error: { message: `${CANARY.secret} at ${CANARY.outside}` },
    });
    expect(patch?.payload).toMatchObject({ phase: 'succeeded' });
    expect(mcp?.payload).toMatchObject({ phase: 'failed', detail: { status: 'failed' } });
    expectNoCanary([patch, mcp]);
  });
});

describe('rule 2: URLs become <url>', () => {
  it('a URL with userinfo and a token query is replaced whole', () => {
    const text = redactToolText(
      `curl https://user:${CANARY.bare}@internal.canary/x?token=${CANARY.bare}`,
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
    expect(workspacePath(CANARY.outside, ROOT, 512)).toBe(OUTSIDE_WORKSPACE);
    expect(workspacePath(`${ROOT}/../../canary-user/x`, ROOT, 512)).toBe(OUTSIDE_WORKSPACE);
    expect(workspacePath('../canary-user/x', ROOT, 512)).toBe(OUTSIDE_WORKSPACE);
    // a sibling sharing the root as a string prefix is outside
    expect(workspacePath(`${ROOT}-canary/x`, ROOT, 512)).toBe(OUTSIDE_WORKSPACE);
  });

  it('command lines: the root is stripped and every other absolute path is replaced', () => {
    const started = tracked().started(command());
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
    const started = tracked().started(
      fileChange('inProgress', [
        { path: `${ROOT}/notes/hello.txt`, kind: { type: 'add' }, diff: CANARY.output },
        { path: CANARY.outside, kind: { type: 'delete' }, diff: '' },
        { path: `${ROOT}/a.ts`, kind: { type: 'update', move_path: `${ROOT}/b.ts` }, diff: '' },
      ]),
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
    ['an sk- key', `echo ${CANARY.secret}`],
    ['a GitHub token', `git push https://x ${CANARY.gh}`],
    ['a bearer header', `curl -H "Authorization: Bearer ${CANARY.bare}" x`],
    ['a secret-named assignment', `API_TOKEN=${CANARY.bare} ./run`],
    ['a quoted assignment', `export DB_PASSWORD='${CANARY.bare} more'`],
    ['a password flag', `mysql --password ${CANARY.bare}`],
    ['a password flag with =', `tool --api-key=${CANARY.bare}`],
  ])('%s in a command line', (_name, cmd) => {
    const event = tracked().started(command({ command: cmd }));
    expect(JSON.stringify(event)).toContain('[redacted]');
    expectNoCanary(event);
  });

  it('a secret in a web search query and in a file path', () => {
    const search = tracked().completed({
      type: 'webSearch',
      id: 'ws',
      query: `how to use ${CANARY.secret}`,
    });
    expect(search?.payload).toMatchObject({
      toolName: 'web_search',
      phase: 'succeeded',
      detail: { query: 'how to use [redacted]' },
    });
    expect(workspacePath(`${ROOT}/${CANARY.secret}.txt`, ROOT, 512)).toBe('[redacted].txt');
    expectNoCanary(search);
  });
});
