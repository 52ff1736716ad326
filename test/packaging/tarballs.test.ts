/**
 * All four packages as a host installs them: `npm pack` of each, installed into an empty project
 * outside the repository (better-sqlite3's install script runs there and finds a local prebuild,
 * see `offerSqlitePrebuild`). First a host without pg, holding the newest zod 4 itself, with
 * the SPI, the adapter and the runtime: strict TypeScript compiles against their types, memory
 * and SQLite stores run a turn and PostgreSQL is refused with `store_driver_missing`; every entry
 * point with types compiles there (NodeNext and Bundler resolution) without pg, OpenTelemetry or
 * vitest. Then pg 8 (newest), vitest (for the conformance entry) and the CLI join it: one copy
 * of zod and of pg in the tree, the installed CLI's demo and a host turn through the real codex.
 * Needs `npm run build` first.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { npmIn, packedPackages } from '../support/packing.js';
import { REPO_ROOT } from '../support/paths.js';
import { testEnv } from '../support/processes.js';
import {
  CODEX_HOST,
  compileStrict,
  EVERY_ENTRY_HOST,
  NO_PG_HOST,
  offerSqlitePrebuild,
  PG_HOST,
  type Resolution,
  VITEST_ENTRY_HOST,
} from './tarball-hosts.js';

const PACKAGES = [
  ['@relvo-labs/agent-provider', join(REPO_ROOT, 'packages', 'agent-provider')],
  ['@relvo-labs/agent-provider-codex', REPO_ROOT],
  ['@relvo-labs/agent-runtime', join(REPO_ROOT, 'packages', 'agent-runtime')],
  ['@relvo-labs/relvo-codex', join(REPO_ROOT, 'packages', 'cli')],
] as const;
const CLI = '@relvo-labs/relvo-codex';
/**
 * The host's vitest is this repository's (in the SPI's `^4.1.0` peer range), linked: its types
 * resolve as from an install (the vitest entry's declarations name none today) and `npm ls` checks
 * the peer is satisfied; installing it from the registry added only vite, rolldown and natives.
 */
const REPO_VITEST = join(REPO_ROOT, 'node_modules', 'vitest');
/**
 * The strict hosts of each installed state, one program each (a tsc run costs seconds of CPU
 * checking the same declarations again): before pg, OpenTelemetry and vitest join, then after.
 */
const WITHOUT_PEERS = { 'no-pg.ts': NO_PG_HOST, 'every-entry.ts': EVERY_ENTRY_HOST };
const WITH_PEERS = { 'vitest-entry.ts': VITEST_ENTRY_HOST, 'pg-host.ts': PG_HOST };

/**
 * Bounds a host install. Compiling better-sqlite3, should the local prebuild not match, dominates:
 * a minute or two on an idle machine; with 2 cores shared by a dozen builds it was measured at
 * over 14 minutes.
 */
const INSTALL_TIMEOUT_MS = 1_200_000;
/**
 * `--prefer-offline`, not `--offline`: what `npm ci` cached is reused, the registry asked only for
 * what is not (the host's newest zod 4 and pg 8 may be newer than the lockfile's).
 */
const INSTALL = ['install', '--prefer-offline', '--no-audit', '--no-fund'];

function requireBuilt(dir: string): void {
  if (!existsSync(join(dir, 'dist'))) {
    throw new Error(`${join(dir, 'dist')} is missing: run \`npm run build\` before this test`);
  }
}

describe('the four tarballs installed into an empty project', () => {
  let scratch = '';
  const tarballs = new Map<string, string>();
  const installed = (name: string): string => join(scratch, 'node_modules', ...name.split('/'));
  const env = (): NodeJS.ProcessEnv => {
    const base = testEnv();
    // the installed CLI and host find the codex their own install pinned
    Reflect.deleteProperty(base, 'RELVO_CODEX_EXECUTABLE');
    Reflect.deleteProperty(base, 'CODEX_EXECUTABLE');
    return { ...base, PATH: `${dirname(process.execPath)}:${base['PATH'] ?? ''}` };
  };
  // each strict program compiles once: the hosts of one installed state and resolution share it
  const programs = new Map<string, Error | undefined>();
  const compiled = (files: Record<string, string>, resolution: Resolution = 'NodeNext'): void => {
    const key = `${resolution} ${Object.keys(files).join(' ')}`;
    if (!programs.has(key)) {
      let failure: Error | undefined;
      try {
        compileStrict(scratch, files, resolution);
      } catch (error) {
        failure = error instanceof Error ? error : new Error(String(error));
      }
      programs.set(key, failure);
    }
    const failure = programs.get(key);
    if (failure !== undefined) throw failure;
  };
  const run = (file: string, args: string[]): string => {
    const result = spawnSync(process.execPath, [file, ...args], {
      cwd: scratch,
      env: env(),
      encoding: 'utf8',
      timeout: 120_000,
    });
    if (result.status !== 0)
      throw new Error(`${file} exited ${String(result.status)}:\n${result.stderr}`);
    return result.stdout;
  };

  beforeAll(async () => {
    for (const [, dir] of PACKAGES) requireBuilt(dir);
    scratch = mkdtempSync(join(tmpdir(), 'relvo-tarballs-'));
    for (const [name, packed] of await packedPackages()) tarballs.set(name, packed.tarball);
    // a host approves better-sqlite3's install script, as this repository does
    writeFileSync(
      join(scratch, 'package.json'),
      JSON.stringify({
        name: 'host',
        private: true,
        type: 'module',
        allowScripts: { 'better-sqlite3': true },
      }),
    );
    offerSqlitePrebuild(scratch);
    const libraries = PACKAGES.filter(([name]) => name !== CLI).map(
      ([name]) => tarballs.get(name) ?? '',
    );
    npmIn(scratch, [...INSTALL, 'zod@4', ...libraries], {
      timeoutMs: INSTALL_TIMEOUT_MS,
    });
  }, INSTALL_TIMEOUT_MS + 60_000);

  afterAll(() => {
    if (scratch !== '') rmSync(scratch, { recursive: true, force: true });
  });

  it('without pg: strict TypeScript compiles against the types; memory and SQLite run, PostgreSQL is refused with what to install', () => {
    expect(existsSync(installed('pg'))).toBe(false);
    compiled(WITHOUT_PEERS);
    const out = JSON.parse(run('out/no-pg.js', [join(scratch, 'no-pg.sqlite')])) as Record<
      string,
      unknown
    >;
    // the same turn, the same log, in memory and in SQLite
    const turn = { turnState: 'completed', events: expect.any(Number) as number };
    expect(out).toMatchObject({ memory: turn, sqlite: turn, codex: 'codex' });
    expect(out['sqlite']).toEqual(out['memory']);
    expect(out['postgres']).toEqual({
      code: 'store_unavailable',
      reason: 'store_driver_missing',
      message: expect.stringMatching(/npm install pg@\^8\b/) as string,
    });
    expect(existsSync(join(scratch, 'no-pg.sqlite'))).toBe(true);
  }, 150_000);

  it.each(['NodeNext', 'Bundler'] as const)(
    'every entry point with types compiles in a strict host (%s resolution, no skipLibCheck) without the optional peers, and codexProfile types a profile with no cast',
    (resolution) => {
      for (const optional of ['pg', '@opentelemetry/api', 'vitest'])
        expect(existsSync(installed(optional))).toBe(false);
      if (resolution === 'Bundler') {
        compiled({ 'every-entry.ts': EVERY_ENTRY_HOST }, resolution);
        expect(existsSync(join(scratch, 'out-bundler', 'every-entry.js'))).toBe(true);
        return;
      }
      compiled(WITHOUT_PEERS);
      const out = JSON.parse(run('out/every-entry.js', [])) as Record<string, unknown>;
      expect(out).toEqual({
        entries: {
          spi: 'function',
          spiTesting: 'function',
          codex: 'function',
          codexTesting: 'function',
          demoModel: 'function',
          runtime: 'function',
          console: 'function',
        },
        provider: 'codex',
      });
    },
    150_000,
  );

  describe('pg 8, vitest and the CLI join the host', () => {
    beforeAll(() => {
      npmIn(
        scratch,
        [...INSTALL, 'pg@8', '@types/pg@8', `file:${REPO_VITEST}`, tarballs.get(CLI) ?? ''],
        { timeoutMs: INSTALL_TIMEOUT_MS },
      );
    }, INSTALL_TIMEOUT_MS + 60_000);

    it('the vitest entry compiles in a strict host once vitest is there', () => {
      expect(existsSync(installed('vitest'))).toBe(true);
      compiled(WITH_PEERS);
      expect(existsSync(join(scratch, 'out', 'vitest-entry.js'))).toBe(true);
    }, 150_000);

    it("one copy of zod and one of pg: every package shares the host's", () => {
      // exits non-zero on a missing or invalid peer
      const copies = npmIn(scratch, ['ls', '--all', '--parseable', 'zod', 'pg'])
        .trim()
        .split('\n')
        .sort();
      expect(copies).toEqual([installed('pg'), installed('zod')]);
    });

    it('a strict TypeScript host hands the runtime its own pg.Pool', () => {
      compiled(WITH_PEERS);
      expect(JSON.parse(run('out/pg-host.js', []))).toEqual({ kind: 'postgres' });
    }, 150_000);

    it('the libraries take caret ranges of each other, the CLI exact versions', () => {
      const manifests = new Map<string, { version: string; dependencies?: Record<string, string> }>(
        PACKAGES.map(([name]) => {
          const m = JSON.parse(readFileSync(join(installed(name), 'package.json'), 'utf8')) as {
            version: string;
            dependencies?: Record<string, string>;
          };
          return [name, m] as const;
        }),
      );
      for (const [name, manifest] of manifests) {
        for (const [dep, range] of Object.entries(manifest.dependencies ?? {})) {
          const local = manifests.get(dep)?.version;
          if (local !== undefined)
            expect(range, `${name}: ${dep}`).toBe(name === CLI ? local : `^${local}`);
          expect(range, `${name}: ${dep}`).not.toMatch(/^(file|link|workspace):/);
        }
      }
    });

    it('relvo-codex demo --yes runs one real codex turn from the installed CLI', () => {
      const result = spawnSync(
        join(scratch, 'node_modules', '.bin', 'relvo-codex'),
        ['demo', '--yes'],
        {
          cwd: scratch,
          env: env(),
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'pipe'],
          timeout: 120_000,
        },
      );
      if (result.status !== 0) {
        throw new Error(`demo exited ${String(result.status)}:\n${result.stderr}`);
      }
      expect(result.stderr).toMatch(/the command ran/);
      expect(result.stderr).toMatch(/turn\s+succeeded/);
      expect(result.stdout).toContain('That was one real codex turn.');
    }, 150_000);

    it('a host program runs a turn through the installed runtime, provider and SQLite log', () => {
      writeFileSync(join(scratch, 'host.mjs'), CODEX_HOST);
      const log = join(scratch, 'events.sqlite');
      expect(JSON.parse(run('host.mjs', [log]))).toEqual({
        turnState: 'completed',
        text: 'from the tarballs',
        closed: 'session.closed',
      });
      expect(existsSync(log)).toBe(true);
    }, 150_000);
  });
});

describe('the published CLI', () => {
  it("carries none of the testing kit: the demo and doctor load the provider's demo-model entry", async () => {
    const root = join(REPO_ROOT, 'packages', 'cli');
    requireBuilt(root);
    const files = [...((await packedPackages()).get(CLI)?.files ?? [])];
    const code = files.filter((f) => f.endsWith('.js'));
    expect(code).toContain('bin/relvo-codex.js');
    const texts = code.map((file) => readFileSync(join(root, file), 'utf8'));
    for (const [i, text] of texts.entries())
      expect(text, code[i]).not.toContain('agent-provider-codex/testing');
    expect(texts.some((t) => t.includes('@relvo-labs/agent-provider-codex/demo-model'))).toBe(true);
    // nothing of the kit's sources was bundled into the CLI's own code
    const bundled = files
      .filter((f) => f.endsWith('.js.map'))
      .flatMap(
        (f) => (JSON.parse(readFileSync(join(root, f), 'utf8')) as { sources: string[] }).sources,
      );
    expect(bundled.length).toBeGreaterThan(0);
    expect(bundled.filter((source) => source.includes('testing'))).toEqual([]);
  });
});
