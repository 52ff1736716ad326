/**
 * A turn's file changes, from the provider's `diff` event (the turn's diff so far; each event
 * replaces the last): one block per file with its change and line counts, and, when the host
 * published the patch text, every line of it, added lines as `<ins>` and removed as `<del>`.
 */
import { el, isRecord, str } from './dom.js';

export type LineKind = 'add' | 'del' | 'ctx' | 'hunk' | 'note';

export interface PatchFile {
  path: string;
  readonly header: string[];
  readonly lines: { readonly kind: LineKind; readonly text: string }[];
}

const HUNK = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/;
const GIT_HEADER = /^diff --git a\/(.*) b\/(.*)$/;

/**
 * A git-style patch split by file. Hunk lines are read by the counts their `@@` header gives,
 * so a content line that looks like a header (`--- x`, `diff --git …`) is never taken for one.
 */
export function splitPatch(patch: string): PatchFile[] {
  const files: PatchFile[] = [];
  let file: PatchFile | undefined;
  let oldLeft = 0;
  let newLeft = 0;
  for (const line of patch.split('\n')) {
    if (file !== undefined && (oldLeft > 0 || newLeft > 0)) {
      if (line.startsWith('+')) {
        file.lines.push({ kind: 'add', text: line.slice(1) });
        newLeft -= 1;
      } else if (line.startsWith('-')) {
        file.lines.push({ kind: 'del', text: line.slice(1) });
        oldLeft -= 1;
      } else if (line.startsWith('\\')) file.lines.push({ kind: 'note', text: line });
      else {
        file.lines.push({ kind: 'ctx', text: line.slice(1) });
        oldLeft -= 1;
        newLeft -= 1;
      }
      continue;
    }
    const header = GIT_HEADER.exec(line);
    if (header !== null) {
      file = { path: header[2] ?? '', header: [], lines: [] };
      files.push(file);
      continue;
    }
    if (file === undefined) continue;
    const hunk = HUNK.exec(line);
    if (hunk !== null) {
      oldLeft = hunk[1] === undefined ? 1 : Number(hunk[1]);
      newLeft = hunk[2] === undefined ? 1 : Number(hunk[2]);
      file.lines.push({ kind: 'hunk', text: line });
    } else if (line !== '') file.header.push(line);
  }
  return files;
}

const CHANGE: Readonly<Record<string, string>> = {
  add: 'added',
  delete: 'deleted',
  update: 'modified',
  rename: 'renamed',
};

function counts(added: unknown, removed: unknown): HTMLElement {
  const box = el('span', 'diff-counts');
  box.append(
    el('span', 'count-add', `+${str(added, '0')}`),
    el('span', 'count-del', ` −${str(removed, '0')}`),
  );
  return box;
}

function lineNode(kind: LineKind, text: string): HTMLElement {
  const sign = kind === 'add' ? '+' : kind === 'del' ? '-' : kind === 'ctx' ? ' ' : '';
  const tag = kind === 'add' ? 'ins' : kind === 'del' ? 'del' : 'span';
  const row = el(tag, `diff-line diff-${kind}`);
  row.append(el('span', 'diff-sign', sign), el('span', 'diff-text', text));
  return row;
}

/** Files longer than this start collapsed: a person opens the one they want to read. */
const OPEN_LINES = 120;

function fileBlock(meta: Record<string, unknown>, patch: PatchFile | undefined): HTMLElement {
  const box = el('details', 'diff-file');
  box.dataset.path = str(meta['path'], patch?.path ?? '?');
  const summary = el('summary');
  summary.append(
    el('span', 'diff-path', str(meta['path'], patch?.path ?? '?')),
    el('span', 'diff-change', ` ${CHANGE[str(meta['change'])] ?? str(meta['change'], 'changed')} `),
    counts(meta['added'], meta['removed']),
  );
  box.append(summary);
  if (patch !== undefined) {
    const pre = el('pre', 'diff-lines');
    for (const l of patch.lines)
      pre.append(lineNode(l.kind, l.text), document.createTextNode('\n'));
    box.append(pre);
    box.open = patch.lines.length <= OPEN_LINES;
  } else box.append(el('div', 'muted', 'line counts only: the patch text was not published'));
  return box;
}

/** The patch section of a listed file: by its path, else by place when both lists agree. */
function patchOf(
  meta: Record<string, unknown>,
  index: number,
  listed: number,
  patched: readonly PatchFile[],
): PatchFile | undefined {
  const path = str(meta['path']);
  const found = patched.find((p) => p.path === path || p.path.endsWith(`/${path}`));
  return found ?? (patched.length === listed ? patched[index] : undefined);
}

const WITHHELD: Readonly<Record<string, string>> = {
  outside_workspace: 'the patch text was withheld: a file lies outside the workspace',
  too_large: 'the patch text was withheld: it is too large',
};

/** Draws (or redraws) a turn's diff entry from the latest `diff` event's data. */
export function drawDiff(node: HTMLElement, data: Record<string, unknown>): void {
  const files = Array.isArray(data['files']) ? data['files'].filter(isRecord) : [];
  const patched = typeof data['patch'] === 'string' ? splitPatch(data['patch']) : [];
  const head = el('div', 'diff-head');
  head.append(
    el('span', 'label', `changes · ${String(files.length)} file${files.length === 1 ? '' : 's'}`),
    counts(data['added'], data['removed']),
  );
  const blocks = files.map((meta, i) => fileBlock(meta, patchOf(meta, i, files.length, patched)));
  node.replaceChildren(head, ...blocks);
  if (data['truncated'] === true)
    node.append(el('div', 'muted', 'more files changed than are listed'));
  const withheld = WITHHELD[str(data['patchWithheld'])];
  if (withheld !== undefined) node.append(el('div', 'muted', withheld));
}
