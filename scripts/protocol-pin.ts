/**
 * npm run protocol:pin -- <X.Y.Z>
 * Installs @openai/codex@<version> into ~/.cache/relvo-codex/<version> (outside the repo; the
 * pinned devDependency is reused when the versions match), generates the stable app-server
 * JSON schema and TypeScript, and writes fixtures/codex-app-server/<version>/. A version whose
 * output is byte-identical to one already checked in gets only a manifest naming that version.
 */
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
  cpSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createIsolatedCodexHome } from '../src/testing/index.js';
import {
  findReleaseBinary,
  PLAIN_RELEASE,
  releaseCachePrefix,
  reportedVersion,
} from './lib/release-binary.js';
import { digestTree, type SchemaManifest } from './lib/schema-digest.js';

const FIXTURES = join('fixtures', 'codex-app-server');

function binaryFor(version: string): string {
  const found = findReleaseBinary(version);
  if (found !== undefined) return found;
  const prefix = releaseCachePrefix(version);
  mkdirSync(prefix, { recursive: true });
  console.log(`installing @openai/codex@${version} into ${prefix}`);
  execFileSync(
    'npm',
    [
      'install',
      '--prefix',
      prefix,
      '--no-save',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
      `@openai/codex@${version}`,
    ],
    { stdio: 'inherit' },
  );
  const installed = findReleaseBinary(version);
  if (installed === undefined) throw new Error(`install of ${version} did not produce a binary`);
  return installed;
}

function generate(binary: string, outRoot: string): readonly string[] {
  const iso = createIsolatedCodexHome('relvo-pin-');
  const commands = [
    ['app-server', 'generate-json-schema', '--out', join(outRoot, 'json')],
    ['app-server', 'generate-ts', '--out', join(outRoot, 'ts')],
  ];
  try {
    for (const args of commands) {
      execFileSync(binary, ['-c', 'features.plugins=false', ...args], {
        cwd: iso.workspace,
        env: iso.env(),
        stdio: ['ignore', 'ignore', 'ignore'],
      });
    }
  } finally {
    iso.dispose();
  }
  return commands.map((c) => `codex ${c.slice(0, 2).join(' ')} --out <dir>`);
}

function readManifest(version: string): SchemaManifest | undefined {
  const path = join(FIXTURES, version, 'manifest.json');
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as SchemaManifest) : undefined;
}

function main(): void {
  const version = process.argv.slice(2).find((a) => a !== '--');
  if (version === undefined || !PLAIN_RELEASE.test(version)) {
    throw new Error('usage: npm run protocol:pin -- <X.Y.Z> (plain releases only)');
  }
  const binary = binaryFor(version);
  if (reportedVersion(binary) !== version) throw new Error(`binary reports an unexpected version`);

  const work = mkdtempSync(join(tmpdir(), 'relvo-pin-out-'));
  try {
    const generatedWith = generate(binary, work);
    const { files, digest } = digestTree(work);
    const count = (prefix: string): number =>
      Object.keys(files).filter((k) => k.startsWith(prefix)).length;
    const fileCount = { json: count('json/'), ts: count('ts/') };
    const target = join(FIXTURES, version);
    const twin = existsSync(FIXTURES)
      ? readdirSync(FIXTURES)
          .filter((v) => v !== version)
          .find((v) => {
            const m = readManifest(v);
            return m !== undefined && m.identicalTo === undefined && m.digest === digest;
          })
      : undefined;
    rmSync(target, { recursive: true, force: true });
    mkdirSync(target, { recursive: true });
    const manifest: SchemaManifest =
      twin === undefined
        ? { codexVersion: version, generatedWith, fileCount, digest, files }
        : { codexVersion: version, identicalTo: twin, generatedWith, fileCount, digest };
    if (twin === undefined) {
      cpSync(join(work, 'json'), join(target, 'json'), { recursive: true });
      cpSync(join(work, 'ts'), join(target, 'ts'), { recursive: true });
    }
    writeFileSync(join(target, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
    console.log(
      `${version}: ${fileCount.json} json + ${fileCount.ts} ts files, digest ${digest}` +
        (twin === undefined ? '' : ` (identical to ${twin}; manifest only)`),
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main();
