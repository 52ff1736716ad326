/**
 * An older release's schema tree is not checked in: the review and the report refresh regenerate
 * it into the release cache from the release's binary, and use it only when it is the tree whose
 * digest the release's manifest pins. A stand-in codex writes the generator's output here.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RELEASE_CACHE_ENV } from '../../scripts/lib/release-binary.js';
import { cachedSchemaDir, schemaTreeOf } from '../../scripts/lib/review/schema-tree.js';
import { digestOf, digestTree } from '../../scripts/lib/schema-digest.js';
import { CODEX_APP_SERVER_VERSION } from '../../src/constants.js';
import { SCHEMAS_DIR } from '../support/paths.js';

const VERSION = '0.0.7';
const BASELINE_TREE = join(SCHEMAS_DIR, CODEX_APP_SERVER_VERSION, 'json');
const treeDigest = (dir: string): string => digestOf(digestTree(dir).files);

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'relvo-schema-tree-'));
  vi.stubEnv(RELEASE_CACHE_ENV, join(root, 'cache'));
});
afterEach(() => {
  vi.unstubAllEnvs();
  rmSync(root, { recursive: true, force: true });
});

/** A pinned manifest of VERSION (no tree) whose json digest is `jsonDigest`. */
function pinnedManifest(jsonDigest: string): string {
  const schemas = join(root, 'schemas');
  mkdirSync(join(schemas, VERSION), { recursive: true });
  writeFileSync(
    join(schemas, VERSION, 'manifest.json'),
    JSON.stringify({ codexVersion: VERSION, jsonDigest }),
  );
  return schemas;
}

/** A stand-in codex whose `generate-json-schema --out <dir>` copies `source` there. */
function standInCodex(source: string): string {
  const codex = join(root, 'codex');
  writeFileSync(
    codex,
    [
      '#!/bin/sh',
      'for a in "$@"; do [ -n "$next" ] && out="$a" && next=; [ "$a" = "--out" ] && next=1; done',
      `mkdir -p "$out" && cp -R '${source}/.' "$out"`,
      '',
    ].join('\n'),
  );
  chmodSync(codex, 0o755);
  return codex;
}

describe('schema trees regenerated on demand', () => {
  it('regenerates a missing tree into the release cache once, and reuses it', () => {
    const schemasRoot = pinnedManifest(treeDigest(BASELINE_TREE));
    const installs: string[] = [];
    const install = (version: string): string => {
      installs.push(version);
      return standInCodex(BASELINE_TREE);
    };
    const lines: string[] = [];
    const options = { schemasRoot, log: (l: string) => lines.push(l), install };
    const dir = schemaTreeOf(VERSION, options);
    expect(dir).toBe(cachedSchemaDir(VERSION));
    expect(treeDigest(dir)).toBe(treeDigest(BASELINE_TREE));
    expect(installs).toEqual([VERSION]);
    expect(lines).toEqual([expect.stringContaining(`regenerating the schema tree of ${VERSION}`)]);
    // the second call finds it in the cache without installing anything
    expect(schemaTreeOf(VERSION, options)).toBe(dir);
    expect(installs).toEqual([VERSION]);
  });

  it('refuses a regenerated tree that is not the pinned one, and keeps nothing of it', () => {
    const schemasRoot = pinnedManifest('0'.repeat(64));
    const install = (): string => standInCodex(BASELINE_TREE);
    expect(() => schemaTreeOf(VERSION, { schemasRoot, log: () => undefined, install })).toThrow(
      new RegExp(`regenerated schema of ${VERSION} .* is not the pinned one`),
    );
    expect(existsSync(cachedSchemaDir(VERSION))).toBe(false);
  });

  it('names the pin command for a release that was never pinned', () => {
    const install = (): string => {
      throw new Error('must not install');
    };
    expect(() =>
      schemaTreeOf('0.0.8', { schemasRoot: join(root, 'none'), log: () => undefined, install }),
    ).toThrow('npm run protocol:pin -- 0.0.8');
  });

  it("returns the baseline's checked-in tree without touching the cache", () => {
    const install = (): string => {
      throw new Error('must not install');
    };
    const dir = schemaTreeOf(CODEX_APP_SERVER_VERSION, {
      schemasRoot: SCHEMAS_DIR,
      log: () => undefined,
      install,
    });
    expect(dir).toBe(BASELINE_TREE);
    expect(existsSync(join(root, 'cache'))).toBe(false);
  });
});
