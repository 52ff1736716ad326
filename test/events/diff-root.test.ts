/**
 * Codex counts a turn diff's relative paths from the nearest folder with a `.git` above each file
 * (a workspace file with none: from the workspace). A diff is read against the folder it counts
 * the workspace's files from, so a workspace inside a larger repository shows its own paths, and
 * a file of that repository outside the workspace stays withheld.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diffData } from '../../src/events/diff.js';
import { diffPathBase } from '../../src/events/repo-root.js';
import { tempBase } from '../support/session-workspaces.js';

const added = (path: string, line: string): string =>
  [
    `diff --git a/${path} b/${path}`,
    'new file mode 100644',
    '--- /dev/null',
    `+++ b/${path}`,
    '@@ -0,0 +1 @@',
    `+${line}`,
    '',
  ].join('\n');

describe('a diff read against the folder codex counts from', () => {
  it('a repository above the workspace: its paths lose the workspace place, in the patch too', () => {
    const diff = added('pkg/ws/src/a.ts', 'see pkg/ws/ in the text');
    const data = diffData(diff, '/r/pkg/ws', true, '/r');
    expect(data.files).toEqual([{ path: 'src/a.ts', change: 'add', added: 1, removed: 0 }]);
    expect(data.patch).toBe(added('src/a.ts', 'see pkg/ws/ in the text'));
  });

  it('a file of that repository outside the workspace is withheld, with the patch', () => {
    const diff = added('pkg/ws/a.ts', 'in') + added('secrets/b.txt', 'OUTSIDE');
    const data = diffData(diff, '/r/pkg/ws', true, '/r');
    expect(data.files.map((f) => f.path)).toEqual(['a.ts', '<outside-workspace>']);
    expect(data.patchWithheld).toBe('outside_workspace');
    expect(JSON.stringify(data)).not.toContain('OUTSIDE');
    expect(JSON.stringify(data)).not.toContain('secrets');
  });

  it('a file counted from another repository above the workspace is outside it', () => {
    // the workspace /t/r/ws is counted from /t (a .git there); /t/elsewhere is not the workspace
    const data = diffData(added('elsewhere/x.txt', 'OUTSIDE'), '/t/r/ws', true, '/t');
    expect(data.files.map((f) => f.path)).toEqual(['<outside-workspace>']);
    expect(data.patchWithheld).toBe('outside_workspace');
    expect(diffData(added('/t/r/ws/a.ts', 'in'), '/t/r/ws', true, '/t').patch).toBe(
      added('a.ts', 'in'),
    );
  });

  it('the workspace is the repository: relative paths are its own; one escaping it is withheld', () => {
    expect(diffData(added('a.ts', 'in'), '/w', true, '/w').files[0]?.path).toBe('a.ts');
    const escaping = diffData(added('../o/x.txt', 'OUTSIDE'), '/w', true, '/w');
    expect(escaping.files[0]?.path).toBe('<outside-workspace>');
    expect(escaping.patchWithheld).toBe('outside_workspace');
  });
});

describe('diffPathBase', () => {
  it('is the nearest folder with a .git entry (a folder or a file) at or above the workspace, else the workspace', () => {
    const base = tempBase('relvo-diff-root-');
    const ws = join(base, 'pkg', 'ws');
    mkdirSync(join(base, '.git'), { recursive: true });
    mkdirSync(ws, { recursive: true });
    expect(diffPathBase(ws)).toBe(base);
    writeFileSync(join(ws, '.git'), 'gitdir: elsewhere\n');
    expect(diffPathBase(ws)).toBe(ws);
    rmSync(join(base, '.git'), { recursive: true });
    rmSync(join(ws, '.git'));
    // none up to the temp folder: the workspace itself, unless the machine has one further up
    const found = diffPathBase(ws);
    expect(found === ws || !found.startsWith(base)).toBe(true);
  });
});
