/**
 * Reads the marked code blocks and the marked export lists of the repository's documentation
 * (the conventions are in docs/testing.md, "Documentation that runs").
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './paths.js';

/** What a test does with a block; `shape` blocks are illustrations and are not run. */
export const BLOCK_CHECKS = [
  'commands',
  'run',
  'typecheck',
  'config',
  'consumer',
  'shape',
] as const;
export type BlockCheck = (typeof BLOCK_CHECKS)[number];

export interface DocBlock {
  readonly file: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  readonly lang: string;
  /** The marker's kind, or undefined when the block has no marker. */
  readonly check: string | undefined;
  readonly code: string;
}

/** The files whose code blocks must all be marked: the READMEs and the guides people copy from. */
export const CHECKED_DOCS = [
  'README.md',
  'packages/agent-provider/README.md',
  'packages/agent-runtime/README.md',
  'packages/cli/README.md',
  'docs/cli.md',
  'docs/host-guide.md',
  'docs/options.md',
  'docs/testing.md',
] as const;

const MARKER = /^<!-- check: ([\w-]+) -->$/;
const FENCE = /^(`{3,})(\S*)/;

export function blocksOf(file: string, text: string): DocBlock[] {
  const lines = text.split('\n');
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const open = FENCE.exec(lines[i]!);
    if (open === null) continue;
    const close = lines.findIndex(
      (l, j) => j > i && l.startsWith(open[1]!) && l.trim() === open[1],
    );
    if (close < 0) throw new Error(`${file}:${i + 1}: a code block that never closes`);
    const marker = i > 0 ? MARKER.exec(lines[i - 1]!.trim()) : null;
    blocks.push({
      file,
      line: i + 1,
      lang: open[2] ?? '',
      check: marker?.[1],
      code: lines.slice(i + 1, close).join('\n'),
    });
    i = close;
  }
  return blocks;
}

export function readDoc(file: string): string {
  return readFileSync(join(REPO_ROOT, file), 'utf8');
}

export function checkedBlocks(): DocBlock[] {
  return CHECKED_DOCS.flatMap((file) => blocksOf(file, readDoc(file)));
}

/**
 * The names listed between `<!-- exports: <entry> -->` and `<!-- /exports -->`: every
 * identifier written in backticks, in order.
 */
export function exportLists(text: string): Map<string, string[]> {
  const lists = new Map<string, string[]>();
  for (const m of text.matchAll(/<!-- exports: (\S+) -->\n([\s\S]*?)<!-- \/exports -->/g)) {
    const names = [...m[2]!.matchAll(/`([A-Za-z_$][\w$]*)`/g)].map((n) => n[1]!);
    lists.set(m[1]!, names);
  }
  return lists;
}

/** One shell command line split into its commands, with comments and env assignments gone. */
export function commandsOf(code: string): string[][] {
  const out: string[][] = [];
  for (const raw of code.split('\n')) {
    const line = raw.replace(/(^|\s)#.*$/, '').trim();
    if (line === '') continue;
    for (const part of line.split(/&&|\|\||;|\|/)) {
      const words = [...part.matchAll(/"[^"]*"|'[^']*'|\S+/g)].map((w) => w[0]);
      while (words.length > 0 && /^[A-Z_][A-Z0-9_]*=/.test(words[0]!)) words.shift();
      if (words.length > 0) out.push(words);
    }
  }
  return out;
}
