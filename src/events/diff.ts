/**
 * A turn's aggregated git-style diff (`turn/diff/updated`) read down to files and line counts.
 * Pure and bounded: hunks are consumed by the counts their `@@` headers declare, so a content
 * line that looks like a header (`--- x`) is never mistaken for one.
 */
import { isAbsolute, posix } from 'node:path';
import { bounded, OUTSIDE_WORKSPACE, workspacePath } from '../shared/workspace-redaction.js';
import { CODEX_EVENT_BOUNDS, type CodexDiffData } from './schemas.js';

type Change = CodexDiffData['files'][number]['change'];

interface FileDiff {
  path: string | undefined;
  change: Change;
  added: number;
  removed: number;
}

const HUNK = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/;
const GIT_HEADER = /^diff --git a\/(.*) b\/(.*)$/;

/** `a/x` / `b/x` → `x`; `/dev/null` → undefined. */
function sidePath(raw: string): string | undefined {
  const path = raw.replace(/\t.*$/, '');
  if (path === '/dev/null') return undefined;
  return path.startsWith('a/') || path.startsWith('b/') ? path.slice(2) : path;
}

export function parseTurnDiff(diff: string): FileDiff[] {
  const files: FileDiff[] = [];
  let file: FileDiff | undefined;
  let oldLeft = 0;
  let newLeft = 0;
  for (const line of diff.split('\n')) {
    if (file !== undefined && (oldLeft > 0 || newLeft > 0)) {
      if (line.startsWith('+')) {
        file.added += 1;
        newLeft -= 1;
      } else if (line.startsWith('-')) {
        file.removed += 1;
        oldLeft -= 1;
      } else if (!line.startsWith('\\')) {
        oldLeft -= 1;
        newLeft -= 1;
      }
      continue;
    }
    const header = GIT_HEADER.exec(line);
    if (header !== null) {
      file = { path: header[2], change: 'update', added: 0, removed: 0 };
      files.push(file);
      continue;
    }
    if (file === undefined) continue;
    const hunk = HUNK.exec(line);
    if (hunk !== null) {
      oldLeft = hunk[1] === undefined ? 1 : Number(hunk[1]);
      newLeft = hunk[2] === undefined ? 1 : Number(hunk[2]);
    } else if (line.startsWith('new file mode')) file.change = 'add';
    else if (line.startsWith('deleted file mode')) file.change = 'delete';
    else if (line.startsWith('rename to ')) {
      file.change = 'rename';
      file.path = line.slice('rename to '.length);
    } else if (line.startsWith('+++ ')) file.path = sidePath(line.slice(4)) ?? file.path;
    else if (line.startsWith('--- ') && file.change === 'delete')
      file.path = sidePath(line.slice(4)) ?? file.path;
  }
  return files;
}

/**
 * A path of the diff, absolute or relative to `pathBase` (where codex counts the workspace's
 * relative paths from, `repo-root.ts`), as the workspace-relative path shown, or
 * OUTSIDE_WORKSPACE.
 */
function shownPath(path: string, workspaceRoot: string, pathBase: string): string {
  if (isAbsolute(path)) return workspacePath(path, workspaceRoot, CODEX_EVENT_BOUNDS.diffPath);
  if (path.startsWith('~')) return OUTSIDE_WORKSPACE;
  return workspacePath(posix.join(pathBase, path), workspaceRoot, CODEX_EVENT_BOUNDS.diffPath);
}

const HEADER_LINE = /^(?:diff --git |--- |\+\+\+ )/;
const RENAME_LINE = /^rename (?:from|to) /;

/** The patch with the workspace's place in its repository taken out of the header lines. */
function withoutPlace(diff: string, place: string): string {
  return diff
    .split('\n')
    .map((line) => {
      if (HEADER_LINE.test(line))
        return line.split(` a/${place}`).join(' a/').split(` b/${place}`).join(' b/');
      const rename = RENAME_LINE.exec(line)?.[0];
      return rename !== undefined && line.startsWith(place, rename.length)
        ? rename + line.slice(rename.length + place.length)
        : line;
    })
    .join('\n');
}

/**
 * The `diff` event's data: workspace-relative paths, counts, and the patch text if asked for.
 * `pathBase`: the folder codex counts the workspace's relative paths from (`diffPathBase`).
 */
export function diffData(
  diff: string,
  workspaceRoot: string,
  withPatch: boolean,
  pathBase: string,
): CodexDiffData {
  const parsed = parseTurnDiff(diff);
  let added = 0;
  let removed = 0;
  let outside = false;
  const files: CodexDiffData['files'] = [];
  for (const f of parsed) {
    added += f.added;
    removed += f.removed;
    const path =
      f.path === undefined ? OUTSIDE_WORKSPACE : shownPath(f.path, workspaceRoot, pathBase);
    if (path === OUTSIDE_WORKSPACE) outside = true;
    if (files.length < CODEX_EVENT_BOUNDS.diffFiles)
      files.push({ path, change: f.change, added: f.added, removed: f.removed });
  }
  const data: CodexDiffData = { files, added, removed };
  if (parsed.length > files.length) data.truncated = true;
  if (!withPatch) return data;
  // a patch naming a file outside the workspace would show where it is
  if (outside) return { ...data, patchWithheld: 'outside_workspace' };
  const root = workspaceRoot.replace(/\/+$/, '');
  let text = root.length > 0 ? diff.split(`${root}/`).join('') : diff;
  // relative to a repository above the workspace: its paths start with the workspace's place
  const place = posix.relative(pathBase, root);
  if (place.length > 0 && !place.startsWith('..')) text = withoutPlace(text, `${place}/`);
  if (bounded(text, CODEX_EVENT_BOUNDS.diffPatch).truncated)
    return { ...data, patchWithheld: 'too_large' };
  return { ...data, patch: text };
}
