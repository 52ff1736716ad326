/**
 * A turn's file changes, from the provider's `diff` event (the turn's diff so far; each event
 * replaces the last): one block per file with its change and line counts, and, when the host
 * published the patch text, every line of it, added lines as `<ins>` and removed as `<del>`.
 */
import { el, isRecord, str } from './dom.js';

export type LineKind = 'add' | 'del' | 'ctx' | 'hunk' | 'note';

export interface PatchFile {
  readonly path: string;
  readonly lines: { readonly kind: LineKind; readonly text: string }[];
}

const HUNK = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/;
const GIT_HEADER = /^diff --git a\/(.*) b\/(.*)$/;

type Line = PatchFile['lines'][number];

/**
 * The body of one hunk, `before` old lines and `after` new lines long, read from `start`;
 * returns where the next line starts. A line is taken by its first character only.
 */
function readHunk(
  lines: readonly string[],
  start: number,
  before: number,
  after: number,
  out: Line[],
): number {
  let oldLeft = before;
  let newLeft = after;
  let at = start;
  while ((oldLeft > 0 || newLeft > 0) && at < lines.length) {
    const line = lines[at] ?? '';
    at += 1;
    if (line.startsWith('\\')) {
      out.push({ kind: 'note', text: line });
      continue;
    }
    const kind: LineKind = line.startsWith('+') ? 'add' : line.startsWith('-') ? 'del' : 'ctx';
    out.push({ kind, text: line.slice(1) });
    if (kind !== 'add') oldLeft -= 1;
    if (kind !== 'del') newLeft -= 1;
  }
  return at;
}

/**
 * A git-style patch split by file. A hunk's body is read by the line counts its `@@` header
 * gives, so a content line that looks like a header (`--- x`, `diff --git …`) is never taken
 * for one.
 */
export function splitPatch(patch: string): PatchFile[] {
  const lines = patch.split('\n');
  const files: PatchFile[] = [];
  let at = 0;
  while (at < lines.length) {
    const line = lines[at] ?? '';
    at += 1;
    const header = GIT_HEADER.exec(line);
    if (header !== null) {
      files.push({ path: header[2] ?? '', lines: [] });
      continue;
    }
    const file = files.at(-1);
    if (file === undefined) continue;
    const hunk = HUNK.exec(line);
    if (hunk === null) {
      // `\ No newline at end of file` follows the hunk's last line; file headers are not drawn
      if (line.startsWith('\\')) file.lines.push({ kind: 'note', text: line });
      continue;
    }
    file.lines.push({ kind: 'hunk', text: line });
    at = readHunk(lines, at, Number(hunk[1] ?? 1), Number(hunk[2] ?? 1), file.lines);
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
