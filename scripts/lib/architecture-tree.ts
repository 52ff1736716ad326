/**
 * What docs/architecture.md states about the tree, and the tree itself: the table of source
 * folders (files and lines per folder), the sizes it states for single files, and the paths it
 * cites. `npm run docs:architecture` rewrites the table's numbers; the packaging test holds the
 * page to the tree within the tolerances below, so the page cannot drift far without failing.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';

export const TABLE_BEGIN = '<!-- source-folders:begin (npm run docs:architecture) -->';
export const TABLE_END = '<!-- source-folders:end -->';
/** What a new folder's row says until someone describes it; the test refuses it. */
export const UNDESCRIBED = '(not described yet)';

/** A folder's count may be off by this much: the greater of an absolute and a relative slack. */
export const TOLERANCE = {
  files: { absolute: 2, relative: 0.1 },
  lines: { absolute: 60, relative: 0.1 },
  fileLines: { absolute: 15, relative: 0.1 },
} as const;

export function within(kind: keyof typeof TOLERANCE, stated: number, actual: number): boolean {
  const { absolute, relative } = TOLERANCE[kind];
  return Math.abs(stated - actual) <= Math.max(absolute, Math.ceil(actual * relative));
}

/** Every file git tracks or would track (untracked, not ignored), as repository paths. */
export function treeFiles(root: string): string[] {
  const out = execFileSync('git', ['ls-files', '-co', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return [...new Set(out.split('\n'))].filter((f) => f.length > 0 && existsSync(join(root, f)));
}

export function lineCount(root: string, file: string): number {
  const text = readFileSync(join(root, file), 'utf8');
  // as `wc -l` counts: newline characters
  let lines = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lines += 1;
  return lines;
}

export interface FolderSize {
  /** `src/session/`, `packages/agent-runtime/src/store/`, … */
  readonly folder: string;
  readonly files: number;
  readonly lines: number;
}

const SOURCE_ROOT = /^(?:packages\/[\w-]+\/)?src\//;

/** Each folder under a package's `src/` that holds `.ts` files directly, with their count and lines. */
export function sourceFolders(root: string, files = treeFiles(root)): FolderSize[] {
  const sizes = new Map<string, { files: number; lines: number }>();
  for (const file of files) {
    if (!SOURCE_ROOT.test(file) || !file.endsWith('.ts')) continue;
    const folder = `${posix.dirname(file)}/`;
    const size = sizes.get(folder) ?? { files: 0, lines: 0 };
    size.files += 1;
    size.lines += lineCount(root, file);
    sizes.set(folder, size);
  }
  return (
    [...sizes]
      .map(([folder, size]) => ({ folder, ...size }))
      // the adapter's own folders first, then each package's
      .sort((a, b) => order(a.folder).localeCompare(order(b.folder)))
  );
}

function order(folder: string): string {
  return `${folder.startsWith('src/') ? 0 : 1}${folder}`;
}

export interface FolderRow extends FolderSize {
  readonly what: string;
}

const ROW = /^\| `([^`]+)` \| (\d[\d,]*) \| (\d[\d,]*) \| (.*) \|$/;
const HEADER = ['| folder | files | lines | what it holds |', '|---|---|---|---|'];

function tableSpan(doc: string): { start: number; end: number } {
  const start = doc.indexOf(TABLE_BEGIN);
  const end = doc.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error('docs/architecture.md: no source-folder table');
  return { start: start + TABLE_BEGIN.length, end };
}

export function parseFolderTable(doc: string): FolderRow[] {
  const { start, end } = tableSpan(doc);
  const rows: FolderRow[] = [];
  for (const line of doc.slice(start, end).split('\n')) {
    if (line.trim() === '' || HEADER.includes(line)) continue;
    const m = ROW.exec(line);
    if (m === null) throw new Error(`docs/architecture.md: unreadable folder row: ${line}`);
    const count = (s: string): number => Number(s.replaceAll(',', ''));
    rows.push({ folder: m[1]!, files: count(m[2]!), lines: count(m[3]!), what: m[4]!.trim() });
  }
  return rows;
}

/** The page with its folder table's numbers taken from the tree; descriptions are kept. */
export function regenerate(doc: string, tree: readonly FolderSize[]): string {
  const described = new Map(parseFolderTable(doc).map((row) => [row.folder, row.what]));
  const rows = tree.map(
    (f) =>
      `| \`${f.folder}\` | ${f.files} | ${f.lines.toLocaleString('en-US')} | ${described.get(f.folder) ?? UNDESCRIBED} |`,
  );
  const { start, end } = tableSpan(doc);
  return `${doc.slice(0, start)}\n${[...HEADER, ...rows].join('\n')}\n${doc.slice(end)}`;
}

/**
 * The page without the sections that record a past measurement ("Before and after …",
 * "Second reshape …" and their subsections): those name files and sizes as they were.
 */
export function checkedText(doc: string): string {
  let past = false;
  const kept: string[] = [];
  for (const line of doc.split('\n')) {
    const heading = /^## (.*)$/.exec(line);
    if (heading !== null) past = /^(?:Before and after|Second reshape)/.test(heading[1]!);
    if (!past) kept.push(line);
  }
  return kept.join('\n');
}

/** `a/{b,c}.ts` → `a/b.ts`, `a/c.ts`. */
function expandBraces(token: string): string[] {
  const m = /\{([^{}]*)\}/.exec(token);
  if (m === null) return [token];
  return m[1]!
    .split(',')
    .flatMap((alt) =>
      expandBraces(token.slice(0, m.index) + alt + token.slice(m.index + m[0].length)),
    );
}

function globRegex(glob: string): RegExp {
  const escaped = glob.replace(/[.+?^$()|[\]\\]/g, '\\$&').replaceAll('*', '[^/]*');
  return new RegExp(`(?:^|/)${escaped}$`);
}

/** Repository paths the text cites (`src/…`, `packages/…/src/…`, `test/…`, …). */
const FULL_PATH =
  /(?<![\w./-])((?:packages\/[\w-]+\/)?(?:src|test|scripts|bench|docs|adr|fixtures)\/[\w./{},*-]*[\w*}/])/g;
/** A file named relative to the folder a diagram or sentence is in: `proc-probe.ts`, `store/{memory,sqlite}.ts`. */
const RELATIVE_FILE = /(?<![\w./{},*-])([\w{},*-]+(?:\/[\w{},*-]+)*\.ts)\b/g;

/** The cited paths that name nothing in the tree, each as it was written. */
export function missingPaths(text: string, files: readonly string[]): string[] {
  const folders = new Set(
    files.flatMap((f) =>
      f
        .split('/')
        .slice(0, -1)
        .map((_, i, parts) => `${parts.slice(0, i + 1).join('/')}/`),
    ),
  );
  const names = new Set(files);
  const missing = new Set<string>();
  const exists = (path: string, relative: boolean): boolean => {
    if (path.includes('*')) return files.some((f) => globRegex(path).test(f));
    if (!relative) return names.has(path) || folders.has(path.endsWith('/') ? path : `${path}/`);
    return names.has(path) || files.some((f) => f.endsWith(`/${path}`));
  };
  for (const m of text.matchAll(FULL_PATH)) {
    if (!expandBraces(m[1]!).every((p) => exists(p, false))) missing.add(m[1]!);
  }
  for (const m of text.replaceAll(FULL_PATH, ' ').matchAll(RELATIVE_FILE)) {
    if (!expandBraces(m[1]!).every((p) => exists(p, true))) missing.add(m[1]!);
  }
  return [...missing];
}

/** Sizes the text states for single files: `` `path` (312 lines`` or `` `path` (312: ``. */
export function statedFileSizes(text: string): { path: string; lines: number }[] {
  return [...text.matchAll(/`([\w./-]+\.ts)`\s+\((\d[\d,]*)(?: lines|:|\))/g)].map((m) => ({
    path: m[1]!,
    lines: Number(m[2]!.replaceAll(',', '')),
  }));
}
