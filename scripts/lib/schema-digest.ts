/**
 * sha256 digests of a generated schema tree, for fixtures/codex-app-server/<version>/manifest.json.
 * Only the JSON Schema tree is checked in; the generated TypeScript is digested, never stored.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

export interface SchemaManifest {
  readonly codexVersion: string;
  /** Set when this version's generated schema and TypeScript are byte-identical to another's. */
  readonly identicalTo?: string;
  readonly generatedWith: readonly string[];
  readonly fileCount: { readonly json: number; readonly ts: number };
  /** sha256 over the sorted `path\tsha256\n` lines of every generated file (json/ and ts/). */
  readonly digest: string;
  /** The same over json/ only, and over ts/ only. */
  readonly jsonDigest: string;
  readonly tsDigest: string;
  /** sha256 of each checked-in json/ file (absent with identicalTo). */
  readonly files?: Readonly<Record<string, string>>;
}

export const sha256 = (data: string | Buffer): string =>
  createHash('sha256').update(data).digest('hex');

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    return entry.isDirectory() ? walk(full) : [full];
  });
}

/** Digest of every file below `root`, keyed by its POSIX path relative to `root`. */
export function digestTree(root: string): { files: Record<string, string>; digest: string } {
  const files: Record<string, string> = {};
  for (const path of walk(root).sort()) {
    files[relative(root, path).split(sep).join('/')] = sha256(readFileSync(path));
  }
  const sorted = Object.keys(files).sort();
  return {
    files: Object.fromEntries(sorted.map((k) => [k, files[k] ?? ''])),
    digest: digestOf(files),
  };
}

/** The overall digest of a `path -> sha256` map (the manifest's `digest`). */
export function digestOf(files: Readonly<Record<string, string>>): string {
  const sorted = Object.keys(files).sort();
  return sha256(sorted.map((k) => `${k}\t${files[k] ?? ''}\n`).join(''));
}

/** The files of `all` under `prefix/`, keyed without it. */
export function subtree(
  all: Readonly<Record<string, string>>,
  prefix: string,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(all)
      .filter(([k]) => k.startsWith(`${prefix}/`))
      .map(([k, v]) => [k.slice(prefix.length + 1), v]),
  );
}
