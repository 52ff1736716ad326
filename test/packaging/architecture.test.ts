/**
 * docs/architecture.md describes the tree as it is: its folder table names every source folder
 * of every package with its size, every path it cites exists, and every size it states for a
 * file is the file's, each within the tolerance the page states. Sections that record a past
 * measurement ("Before and after …", "Second reshape …") are left as measured.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  checkedText,
  lineCount,
  missingPaths,
  parseFolderTable,
  regenerate,
  sourceFolders,
  statedFileSizes,
  TABLE_BEGIN,
  TABLE_END,
  treeFiles,
  UNDESCRIBED,
  within,
} from '../../scripts/lib/architecture-tree.js';
import { REPO_ROOT } from '../support/paths.js';

const page = readFileSync(join(REPO_ROOT, 'docs', 'architecture.md'), 'utf8');
const files = treeFiles(REPO_ROOT);
const tree = sourceFolders(REPO_ROOT, files);

/** Source files (not tests) past this many lines must be named in "Files over 300 lines". */
const NAMED_ABOVE = 330;

function section(doc: string, heading: string): string {
  const start = doc.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`docs/architecture.md: no section "${heading}"`);
  const next = doc.indexOf('\n## ', start + 1);
  return doc.slice(start, next < 0 ? undefined : next);
}

describe('docs/architecture.md, the folder table', () => {
  const rows = parseFolderTable(page);

  it('has a described row for every source folder of every package, and none other', () => {
    expect(tree.length).toBeGreaterThan(20);
    expect(tree.map((f) => f.folder)).toContain('packages/agent-runtime/src/store/');
    expect(rows.map((r) => r.folder)).toEqual(tree.map((f) => f.folder));
    expect(
      rows.filter((r) => r.what === '' || r.what === UNDESCRIBED).map((r) => r.folder),
    ).toEqual([]);
  });

  it('states each folder’s files and lines within the tolerance (npm run docs:architecture)', () => {
    const off = rows.flatMap((row) => {
      const actual = tree.find((f) => f.folder === row.folder);
      if (actual === undefined) return [];
      const ok =
        within('files', row.files, actual.files) && within('lines', row.lines, actual.lines);
      return ok
        ? []
        : [`${row.folder}: ${row.files}/${row.lines}, tree ${actual.files}/${actual.lines}`];
    });
    expect(off).toEqual([]);
  });

  it('regenerating keeps the descriptions and writes the tree’s numbers', () => {
    const sample = `a\n${TABLE_BEGIN}\n| \`src/\` | 1 | 9 | the top |\n| \`src/gone/\` | 1 | 9 | old |\n${TABLE_END}\nz`;
    const out = regenerate(sample, [
      { folder: 'src/', files: 3, lines: 1200 },
      { folder: 'src/new/', files: 1, lines: 5 },
    ]);
    expect(parseFolderTable(out)).toEqual([
      { folder: 'src/', files: 3, lines: 1200, what: 'the top' },
      { folder: 'src/new/', files: 1, lines: 5, what: UNDESCRIBED },
    ]);
    expect(out.startsWith('a\n') && out.endsWith(`${TABLE_END}\nz`)).toBe(true);
  });

  it('the tolerance is the greater of its absolute and relative slack', () => {
    expect(within('lines', 100, 160)).toBe(true);
    expect(within('lines', 100, 161)).toBe(false);
    expect(within('lines', 3000, 3300)).toBe(true);
    expect(within('lines', 3000, 3400)).toBe(false);
    expect(within('files', 10, 13)).toBe(false);
  });
});

describe('docs/architecture.md, paths and sizes', () => {
  const text = checkedText(page);

  it('cites only paths that exist', () => {
    expect(text.length).toBeGreaterThan(page.length / 3);
    expect(missingPaths(text, files)).toEqual([]);
  });

  it('a moved file, a wrong relative name or a glob matching nothing would be caught', () => {
    const sample =
      'see `src/session/router.ts`, `src/session/gone.ts`, ├ nowhere.ts, store/{memory,sqlite}.ts, src/interactions/native-*.ts, src/nothing-*.ts';
    expect(missingPaths(sample, files)).toEqual([
      'src/session/gone.ts',
      'src/nothing-*.ts',
      'nowhere.ts',
    ]);
    expect(
      checkedText(
        '## Where\nsrc/a.ts\n## Before and after x\nsrc/b.ts\n### Sub\nsrc/c.ts\n## Tests\nsrc/d.ts',
      ),
    ).toBe('## Where\nsrc/a.ts\n## Tests\nsrc/d.ts');
  });

  it('states each file’s size within the tolerance', () => {
    const stated = statedFileSizes(text);
    expect(stated.length).toBeGreaterThan(5);
    const off = stated.flatMap(({ path, lines }) => {
      const matches = files.filter((f) => f === path || f.endsWith(`/${path}`));
      if (matches.length !== 1) return [`${path}: ${matches.length} files match`];
      const actual = lineCount(REPO_ROOT, matches[0]!);
      return within('fileLines', lines, actual) ? [] : [`${path}: ${lines}, tree ${actual}`];
    });
    expect(off).toEqual([]);
  });

  it(`names every source file past ${NAMED_ABOVE} lines in "Files over 300 lines"`, () => {
    const named = section(page, 'Files over 300 lines');
    const long = files.filter(
      (f) =>
        /^(?:(?:packages\/[\w-]+\/)?src|scripts|bench)\//.test(f) &&
        f.endsWith('.ts') &&
        lineCount(REPO_ROOT, f) > NAMED_ABOVE,
    );
    expect(long.filter((f) => !named.includes(`\`${f}\``))).toEqual([]);
  });
});
