/**
 * Where a patch writes, as a person approving it must see it (ADR-0015, amended): the target
 * relative to the workspace root — `notes/a.txt`, or `../outside/f.txt` when it leaves the
 * workspace — and whether it leaves. The lexical path is not enough: a folder inside the
 * workspace may be a symlink to elsewhere, so the deepest existing ancestor is resolved.
 */
import { realpathSync } from 'node:fs';
import { isAbsolute, posix } from 'node:path';
import { bounded, redactCredentials } from '../shared/workspace-redaction.js';

export interface ChangeTarget {
  /** Relative to the workspace root; starts with `..` when outside; `~…` kept as written. */
  readonly path: string;
  readonly outside: boolean;
}

/** The real path of `path`: its deepest existing ancestor resolved, the rest appended. */
function realOf(path: string): string {
  const rest: string[] = [];
  let at = path;
  for (;;) {
    try {
      return posix.join(realpathSync(at), ...rest.reverse());
    } catch {
      const parent = posix.dirname(at);
      if (parent === at) return path;
      rest.push(posix.basename(at));
      at = parent;
    }
  }
}

function realRootOf(root: string): string {
  try {
    return realpathSync(root);
  } catch {
    return root;
  }
}

function isUnder(root: string, path: string): boolean {
  return path === root || path.startsWith(root === '/' ? root : `${root}/`);
}

/** `path` (absolute, or relative to the root) as the person approving it should read it. */
export function changeTarget(path: string, workspaceRoot: string, max: number): ChangeTarget {
  const shown = (text: string) => bounded(redactCredentials(text), max).text;
  // a home-relative path cannot be placed relative to the root: shown as written, outside
  if (path.startsWith('~') || workspaceRoot.length === 0)
    return { path: shown(path), outside: true };
  const root = posix.normalize(workspaceRoot).replace(/(.)\/+$/, '$1');
  const lexical = isAbsolute(path) ? posix.normalize(path) : posix.join(root, path);
  const relative = posix.relative(root, lexical) || '.';
  const lexicallyOutside = relative === '..' || relative.startsWith('../');
  if (lexicallyOutside) return { path: shown(relative), outside: true };
  // inside by name: outside when a symlinked folder on the way leads elsewhere
  const realRoot = realRootOf(root);
  const real = realOf(lexical);
  if (isUnder(realRoot, real)) return { path: shown(relative), outside: false };
  return { path: shown(posix.relative(realRoot, real)), outside: true };
}
