/**
 * A patch leaving the workspace (ADR-0015, amended): refused by default; with `ask` it is shown
 * where it goes, relative to the workspace root, and marked — including a path that leaves only
 * through a symlinked folder inside the workspace.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { changeTarget } from '../../src/interactions/file-change-target.js';
import { translateFileChangeApproval } from '../../src/interactions/native-file-change.js';
import type { CodexFileChangeItem } from '../../src/protocol/items.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function workspace(): string {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'relvo-outside-')));
  dirs.push(base);
  mkdirSync(join(base, 'ws', 'notes'), { recursive: true });
  mkdirSync(join(base, 'elsewhere'));
  symlinkSync(join(base, 'elsewhere'), join(base, 'ws', 'linked'));
  return join(base, 'ws');
}

const PARAMS = { threadId: 'th', turnId: 'tu', itemId: 'p1', startedAtMs: 1 };

function translate(root: string, changes: CodexFileChangeItem['changes'], mode?: 'ask') {
  const item = {
    type: 'fileChange',
    id: 'p1',
    status: 'inProgress',
    changes,
  } as CodexFileChangeItem;
  return translateFileChangeApproval(PARAMS, () => item, root, mode);
}

describe('where a patch writes', () => {
  it('inside stays workspace-relative; outside is relative to the root, marked', () => {
    const root = workspace();
    expect(changeTarget(join(root, 'notes/a.txt'), root, 512)).toEqual({
      path: 'notes/a.txt',
      outside: false,
    });
    expect(changeTarget(join(root, '../outside/f.txt'), root, 512)).toEqual({
      path: '../outside/f.txt',
      outside: true,
    });
    expect(changeTarget('../outside/f.txt', root, 512)).toEqual({
      path: '../outside/f.txt',
      outside: true,
    });
    expect(changeTarget('~canary/f.txt', root, 512)).toEqual({
      path: '~canary/f.txt',
      outside: true,
    });
  });

  it('a folder in the workspace that is a symlink to elsewhere is outside, shown where it leads', () => {
    const root = workspace();
    expect(changeTarget(join(root, 'linked/new/f.txt'), root, 512)).toEqual({
      path: '../elsewhere/new/f.txt',
      outside: true,
    });
  });
});

describe('an outside-workspace patch approval', () => {
  const outside = (root: string): CodexFileChangeItem['changes'] => [
    { path: join(root, 'notes/a.txt'), kind: { type: 'update', move_path: null }, diff: '' },
    { path: join(root, '../outside/f.txt'), kind: { type: 'add' }, diff: 'CANARY' },
  ];

  it('is refused by default, typed, before anything is raised', () => {
    expect(translate(workspace(), outside(workspace()))).toEqual({
      ok: false,
      token: 'outside_workspace_change',
    });
  });

  it("with 'ask' lists the target relative to the root, marked, and the summary leads with it", () => {
    const root = workspace();
    const result = translate(root, outside(root), 'ask');
    if (!result.ok) throw new Error('expected a request');
    expect(result.request.riskHint).toBe('high');
    expect(result.request.subject.detail).toEqual({
      changes: [
        { path: 'notes/a.txt', kind: 'update' },
        { path: '../outside/f.txt', kind: 'add', outsideWorkspace: true },
      ],
      changeCount: 2,
      outsideWorkspace: true,
    });
    expect(result.request.subject.summary).toBe(
      'WARNING: writes OUTSIDE the workspace. Codex requests approval to change 2 files: ' +
        'update notes/a.txt, add ../outside/f.txt (OUTSIDE the workspace)',
    );
  });

  it('a patch beyond the listed bound still lists its outside target, first', () => {
    const root = workspace();
    const inside = Array.from({ length: 70 }, (_, i) => ({
      path: join(root, `notes/n${String(i)}.txt`),
      kind: { type: 'add' as const },
      diff: '',
    }));
    const result = translate(root, [...inside, ...outside(root).slice(1)], 'ask');
    if (!result.ok) throw new Error('expected a request');
    const detail = result.request.subject.detail;
    expect(detail?.['changeCount']).toBe(71);
    const listed = detail?.['changes'] as unknown[];
    expect(listed).toHaveLength(64);
    expect(listed[0]).toEqual({ path: '../outside/f.txt', kind: 'add', outsideWorkspace: true });
    expect(result.request.subject.summary).toBe(
      'WARNING: writes OUTSIDE the workspace. Codex requests approval to change 71 files (each listed one is in the detail)',
    );
  });

  it('a move out of the workspace is outside too', () => {
    const root = workspace();
    expect(
      translate(root, [
        {
          path: join(root, 'notes/a.txt'),
          kind: { type: 'update', move_path: '/tmp/x' },
          diff: '',
        },
      ]),
    ).toEqual({ ok: false, token: 'outside_workspace_change' });
  });
});
