/**
 * The repository explains itself and its public surface is deliberate: every section citation in
 * code points at a section of a file in docs/, the README's layout table names every folder
 * under src/, docs/testing.md every folder under test/, and every type the built entries export
 * is used by an exported signature. Needs `npm run build` first (`npm test` does it).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/paths.js';

function trackedCodeFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '-co', '--exclude-standard'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  });
  return out
    .split('\n')
    .filter((f) => /\.(ts|js|cjs|mjs)$/.test(f))
    .filter(
      (f) => !f.startsWith('fixtures/') && !f.includes('/dist/') && existsSync(join(REPO_ROOT, f)),
    );
}

/** The section sign, written as an escape so this file cites nothing itself. */
const SIGN = '\u00a7';
const SECTION = String.raw`${SIGN}\d+(?:\.\d+)*`;
const CITATION = new RegExp(
  String.raw`docs/([\w-]+)\.md (${SECTION}(?: step \d+)?(?:\s*(?:–|/|,|and)\s*${SECTION})*)`,
  'g',
);

/** The section numbers a doc defines with its `##`/`###` headings (`## 6. Runs`, `### 6.1 …`). */
function sectionsOf(doc: string): Set<string> {
  const text = readFileSync(join(REPO_ROOT, 'docs', `${doc}.md`), 'utf8');
  return new Set([...text.matchAll(/^#{2,4} (\d+(?:\.\d+)*)\.? /gm)].map((m) => m[1]!));
}

describe('citations point into docs/', () => {
  const files = trackedCodeFiles();
  const docs = new Map<string, Set<string>>();

  it('finds the code files it checks', () => {
    expect(files).toContain('src/session/admission.ts');
    expect(files.length).toBeGreaterThan(100);
  });

  it('every section sign in code is part of a docs/<file>.md citation of an existing section', () => {
    const problems: string[] = [];
    let cited = 0;
    for (const file of files) {
      const text = readFileSync(join(REPO_ROOT, file), 'utf8');
      if (!text.includes(SIGN)) continue;
      const covered = new Set<number>();
      for (const match of text.matchAll(CITATION)) {
        const doc = match[1]!;
        if (!docs.has(doc)) {
          docs.set(
            doc,
            existsSync(join(REPO_ROOT, 'docs', `${doc}.md`)) ? sectionsOf(doc) : new Set(),
          );
        }
        for (const section of match[2]!.matchAll(new RegExp(`${SIGN}(\\d+(?:\\.\\d+)*)`, 'g'))) {
          cited += 1;
          if (!docs.get(doc)!.has(section[1]!))
            problems.push(`${file}: docs/${doc}.md ${section[0]}`);
        }
        const start = match.index + match[0].indexOf(SIGN);
        for (let i = start; i < match.index + match[0].length; i += 1) covered.add(i);
      }
      for (let i = text.indexOf(SIGN); i >= 0; i = text.indexOf(SIGN, i + 1)) {
        if (!covered.has(i)) {
          const line = text.slice(0, i).split('\n').length;
          problems.push(`${file}:${line}: a section sign outside a docs/ citation`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(cited).toBeGreaterThan(40);
  });

  it('a citation of a missing section or a bare section sign would be caught', () => {
    const sample = `see docs/behaviour.md ${SIGN}6.1 and ${SIGN}99.9, and (${SIGN}4.2)`;
    const covered = [...sample.matchAll(CITATION)].map((m) => m[0]);
    expect(covered).toEqual([`docs/behaviour.md ${SIGN}6.1 and ${SIGN}99.9`]);
    expect(sectionsOf('behaviour').has('6.1')).toBe(true);
    expect(sectionsOf('behaviour').has('99.9')).toBe(false);
  });
});

describe('the README layout table', () => {
  it('names every folder under src/', () => {
    const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
    const folders = readdirSync(join(REPO_ROOT, 'src'), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    expect(folders.length).toBeGreaterThan(5);
    const missing = folders.filter((name) => !readme.includes(`| \`src/${name}\` |`));
    expect(missing).toEqual([]);
  });
});

describe('docs/testing.md', () => {
  /** The folders a row of the table in docs/testing.md §6 names (`| \`test/<name>\` |`). */
  const rows = (text: string): string[] =>
    [...text.matchAll(/^\| `test\/([\w-]+)` \|/gm)].map((m) => m[1]!);

  it('names every folder under test/ in its table, and no folder that is not there', () => {
    const folders = readdirSync(join(REPO_ROOT, 'test'), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
    expect(folders.length).toBeGreaterThan(10);
    const named = rows(readFileSync(join(REPO_ROOT, 'docs', 'testing.md'), 'utf8'));
    expect(named.filter((name) => !folders.includes(name))).toEqual([]);
    expect(folders.filter((name) => !named.includes(name))).toEqual([]);
  });

  it('a folder without a row would be caught', () => {
    expect(rows('| `test/session` | the mirror |\n| `test/e2e` | end to end |')).toEqual([
      'session',
      'e2e',
    ]);
    expect(rows('`test/session` is named in prose only\n| `src/session` | a src row |')).toEqual(
      [],
    );
  });
});

/** Names exported as types from a bundled declaration file, and the file's text. */
function declarationExports(entry: string): { types: string[]; all: string[]; text: string } {
  const text = readFileSync(join(REPO_ROOT, 'dist', `${entry}.d.ts`), 'utf8');
  // a shared chunk's names are re-exported (`export { a as Name } from './chunk';`)
  const list = [...text.matchAll(/^export \{([^}]*)\}(?: from '[^']*')?;?$/gm)].flatMap((m) =>
    m[1]!.split(','),
  );
  const names = list.map((n) => n.trim()).filter((n) => n.length > 0);
  const types = names.filter((n) => n.startsWith('type ')).map((n) => n.slice(5).trim());
  const all = names.map((n) =>
    n
      .replace(/^type /, '')
      .split(' as ')
      .pop()!
      .trim(),
  );
  return { types, all, text };
}

function unusedTypes(entry: string): string[] {
  const { types, text } = declarationExports(entry);
  const body = text.replace(/^export \{[^}]*\};?$/gm, '');
  return types.filter((name) => {
    const uses = body.match(new RegExp(String.raw`\b${name}\b`, 'g'))?.length ?? 0;
    // one occurrence is the declaration itself
    return uses < 2;
  });
}

describe('the public surface', () => {
  it('exports createCodexStdioTransport with its options type', () => {
    const { all } = declarationExports('index');
    expect(all).toEqual(
      expect.arrayContaining(['createCodexStdioTransport', 'CodexStdioTransportOptions']),
    );
  });

  it('exports no type that no exported signature uses', () => {
    expect(declarationExports('index').types.length).toBeGreaterThan(5);
    expect(unusedTypes('index')).toEqual([]);
    expect(unusedTypes('testing')).toEqual([]);
  });

  it('./testing holds what a host needs and no recording tooling', () => {
    const { all } = declarationExports('testing');
    expect(all).toEqual(
      expect.arrayContaining([
        'ScriptedModelServer',
        'codexConfigArgs',
        'createIsolatedCodexHome',
        'locateCodexBinary',
        'parseTranscript',
        'restorePlaceholders',
      ]),
    );
    for (const recordingOnly of ['sanitizeFrame', 'serializeTranscript']) {
      expect(all).not.toContain(recordingOnly);
    }
  });
});
