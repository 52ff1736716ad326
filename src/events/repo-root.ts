/**
 * Where codex's turn diff counts its relative paths from. Codex renders a changed file's path
 * relative to the nearest folder above it that holds a `.git` (a folder or a file); a workspace
 * file with no such folder, relative to the workspace (as recorded). So for the workspace's files
 * the base is the nearest such folder at or above the workspace root, else the workspace itself.
 * Looked up when a diff is read (a `git init` during the turn changes it): a few `stat`s, once per
 * diff update.
 */
import { statSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** As codex asks it: an entry that cannot be read is no entry. */
function hasGitEntry(dir: string): boolean {
  try {
    return statSync(join(dir, '.git'), { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}

/** The nearest folder at or above `workspaceRoot` with a `.git` entry, else `workspaceRoot`. */
export function diffPathBase(workspaceRoot: string): string {
  let dir = workspaceRoot;
  for (;;) {
    if (hasGitEntry(dir)) return dir;
    const parent = dirname(dir);
    if (parent === dir) return workspaceRoot;
    dir = parent;
  }
}
