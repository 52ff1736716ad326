/**
 * Pins one release's generated schema into fixtures/codex-app-server/<version>/: a manifest with
 * the digests of both generated trees (and of each JSON Schema file), plus the JSON Schema tree
 * (`json/`) itself for the baseline only. Any other release's tree is regenerated from the release
 * cache when a review needs it (schema-tree.ts). The generated TypeScript is only digested. A
 * release whose output is byte-identical to another pinned one names it (`identicalTo`).
 * Re-pinning the same output changes nothing.
 */
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createIsolatedCodexHome } from '../../../src/testing/index.js';
import { digestOf, digestTree, subtree, type SchemaManifest } from '../schema-digest.js';

export const GENERATED_WITH = [
  'codex app-server generate-json-schema --out <dir>',
  'codex app-server generate-ts --out <dir>',
] as const;

export interface PinResult {
  readonly manifest: SchemaManifest;
  /** Whether anything under fixtures/codex-app-server/<version>/ was written or removed. */
  readonly changed: boolean;
  /** The freshly generated tree (json/ and ts/); the caller removes it with `dispose`. */
  readonly generated: string;
  dispose(): void;
}

/** How long one `generate-*` run may take (it takes about a second). */
const GENERATE_TIMEOUT_MS = 60_000;

/** Runs codex's schema generators into `outRoot/json` (and `outRoot/ts` unless `jsonOnly`). */
export function generateSchema(binary: string, outRoot: string, jsonOnly = false): void {
  const iso = createIsolatedCodexHome('relvo-pin-');
  try {
    const steps = [
      ['generate-json-schema', 'json'],
      ['generate-ts', 'ts'],
    ] as const;
    for (const [sub, dir] of jsonOnly ? steps.slice(0, 1) : steps) {
      execFileSync(
        binary,
        ['-c', 'features.plugins=false', 'app-server', sub, '--out', join(outRoot, dir)],
        {
          cwd: iso.workspace,
          env: iso.env(),
          stdio: ['ignore', 'ignore', 'ignore'],
          timeout: GENERATE_TIMEOUT_MS,
          killSignal: 'SIGKILL',
        },
      );
    }
  } finally {
    iso.dispose();
  }
}

export function readManifest(schemasRoot: string, version: string): SchemaManifest | undefined {
  const path = join(schemasRoot, version, 'manifest.json');
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as SchemaManifest) : undefined;
}

/** The checked-in json/ folder of `version` (the baseline's); other trees are not checked in. */
export function schemaJsonDir(schemasRoot: string, version: string): string {
  if (readManifest(schemasRoot, version) === undefined)
    throw new Error(`no pinned schema for ${version}`);
  const dir = join(schemasRoot, version, 'json');
  if (!existsSync(dir)) throw new Error(`the schema tree of ${version} is not checked in`);
  return dir;
}

/**
 * Pins `version`'s schema. `keepTree` (true for the baseline) checks its json/ tree in; without
 * it only the manifest is written and a checked-in tree is removed.
 */
export function pinSchema(
  binary: string,
  version: string,
  schemasRoot: string,
  keepTree: boolean,
): PinResult {
  const work = mkdtempSync(join(tmpdir(), 'relvo-pin-out-'));
  const dispose = (): void => {
    rmSync(work, { recursive: true, force: true });
  };
  try {
    generateSchema(binary, work);
    const all = digestTree(work).files;
    const json = subtree(all, 'json');
    const ts = subtree(all, 'ts');
    const digest = digestOf(all);
    const previous = readManifest(schemasRoot, version);
    // keep an earlier twin choice when it still holds, else pick the first full tree that matches
    const twin =
      previous?.identicalTo !== undefined &&
      readManifest(schemasRoot, previous.identicalTo)?.digest === digest
        ? previous.identicalTo
        : previous !== undefined && previous.identicalTo === undefined && previous.digest === digest
          ? undefined
          : readdirSync(schemasRoot)
              .filter((v) => v !== version)
              .sort()
              .find((v) => {
                const m = readManifest(schemasRoot, v);
                return m !== undefined && m.identicalTo === undefined && m.digest === digest;
              });
    const common = {
      codexVersion: version,
      ...(twin === undefined ? {} : { identicalTo: twin }),
      generatedWith: [...GENERATED_WITH],
      fileCount: { json: Object.keys(json).length, ts: Object.keys(ts).length },
      digest,
      jsonDigest: digestOf(json),
      tsDigest: digestOf(ts),
    };
    const manifest: SchemaManifest =
      twin === undefined
        ? {
            ...common,
            files: Object.fromEntries(Object.entries(json).map(([k, v]) => [`json/${k}`, v])),
          }
        : common;
    const target = join(schemasRoot, version);
    const text = JSON.stringify(manifest, null, 2) + '\n';
    const manifestPath = join(target, 'manifest.json');
    const treeMatches = keepTree
      ? existsSync(join(target, 'json')) &&
        digestOf(digestTree(join(target, 'json')).files) === manifest.jsonDigest
      : !existsSync(join(target, 'json'));
    const unchanged =
      existsSync(manifestPath) &&
      readFileSync(manifestPath, 'utf8') === text &&
      treeMatches &&
      !existsSync(join(target, 'ts'));
    if (!unchanged) {
      rmSync(target, { recursive: true, force: true });
      mkdirSync(target, { recursive: true });
      if (keepTree) cpSync(join(work, 'json'), join(target, 'json'), { recursive: true });
      writeFileSync(manifestPath, text);
    }
    return { manifest, changed: !unchanged, generated: work, dispose };
  } catch (error) {
    dispose();
    throw error;
  }
}
