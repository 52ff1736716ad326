/**
 * All four packages as a host installs them: `npm pack` of each, installed together into an empty
 * project outside the repository (better-sqlite3 compiles from source there, as on a host that
 * cannot download its prebuilt binary), then the installed CLI's demo and a host program that
 * runs one turn through the installed runtime and provider. Needs `npm run build` first.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { npmIn, packInto } from '../support/packing.js';
import { REPO_ROOT } from '../support/paths.js';
import { testEnv } from '../support/processes.js';

const PACKAGES = [
  ['@relvo-labs/agent-provider', join(REPO_ROOT, 'packages', 'agent-provider')],
  ['@relvo-labs/agent-provider-codex', REPO_ROOT],
  ['@relvo-labs/agent-runtime', join(REPO_ROOT, 'packages', 'agent-runtime')],
  ['@relvo-labs/relvo-codex', join(REPO_ROOT, 'packages', 'cli')],
] as const;

/**
 * Compiling better-sqlite3 dominates: a minute or two on an idle machine; with 2 cores shared by
 * a dozen builds it was measured at over 14 minutes.
 */
const INSTALL_TIMEOUT_MS = 1_200_000;

const HOST = `import { createCodexProvider } from '@relvo-labs/agent-provider-codex';
import { codexConfigArgs, createIsolatedCodexHome, locateCodexBinary, ScriptedModelServer, textStep } from '@relvo-labs/agent-provider-codex/testing';
import { createAgentRuntime, openSqliteEventStore } from '@relvo-labs/agent-runtime';
const codex = locateCodexBinary({ kind: 'native' });
if (!codex.found) throw new Error('no codex installed: ' + codex.reason);
const iso = createIsolatedCodexHome('relvo-tarball-host-');
const server = await ScriptedModelServer.start();
server.enqueue(textStep(['from ', 'the tarballs']));
const runtime = await createAgentRuntime({
  providers: { codex: createCodexProvider },
  config: { defaultProfile: 'p', profiles: { p: { provider: 'codex', providerOptions: {
    executable: codex.path, extraArgs: codexConfigArgs({ baseUrl: server.baseUrl }), env: iso.env(process.env) } } } },
  store: openSqliteEventStore({ path: process.argv[2] }),
});
const session = await runtime.openSession({ workspace: iso.workspace });
const types = [];
let text = '';
const reading = (async () => {
  for await (const envelope of session.subscribe({ fromSequence: 1 })) {
    types.push(envelope.payload.type);
    if (envelope.payload.type === 'run.message_delta') text += envelope.payload.text;
  }
})();
const turn = await session.submitTurn({ input: 'hi' });
const { turnState } = await turn.done;
await session.close();
await reading;
await runtime.shutdown();
await server.close();
iso.dispose();
process.stdout.write(JSON.stringify({ turnState, text, closed: types.at(-1) }));
`;

function requireBuilt(dir: string): void {
  if (!existsSync(join(dir, 'dist'))) {
    throw new Error(`${join(dir, 'dist')} is missing: run \`npm run build\` before this test`);
  }
}

describe('the four tarballs installed into an empty project', () => {
  let scratch = '';
  const installed = (name: string): string => join(scratch, 'node_modules', ...name.split('/'));
  const env = (): NodeJS.ProcessEnv => {
    const base = testEnv();
    // the installed CLI and host find the codex their own install pinned
    Reflect.deleteProperty(base, 'RELVO_CODEX_EXECUTABLE');
    Reflect.deleteProperty(base, 'CODEX_EXECUTABLE');
    return { ...base, PATH: `${dirname(process.execPath)}:${base['PATH'] ?? ''}` };
  };

  beforeAll(() => {
    for (const [, dir] of PACKAGES) requireBuilt(dir);
    scratch = mkdtempSync(join(tmpdir(), 'relvo-tarballs-'));
    const tarballs = PACKAGES.map(([, dir]) => packInto(dir, scratch).tarball);
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
    npmIn(scratch, ['install', '--prefer-offline', '--no-audit', '--no-fund', ...tarballs], {
      timeoutMs: INSTALL_TIMEOUT_MS,
    });
  }, INSTALL_TIMEOUT_MS + 60_000);

  afterAll(() => {
    if (scratch !== '') rmSync(scratch, { recursive: true, force: true });
  });

  it('each installed manifest depends on registry versions, its siblings at their own version', () => {
    const versions = new Map(
      PACKAGES.map(([name]) => {
        const m = JSON.parse(readFileSync(join(installed(name), 'package.json'), 'utf8')) as {
          version: string;
          dependencies?: Record<string, string>;
        };
        return [name, m] as const;
      }),
    );
    for (const [name, manifest] of versions) {
      for (const [dep, range] of Object.entries(manifest.dependencies ?? {})) {
        const local = versions.get(dep as (typeof PACKAGES)[number][0]);
        // a library takes a caret range of its sibling, the CLI (an application) the exact one
        if (local !== undefined)
          expect([local.version, `^${local.version}`], `${name}: ${dep}`).toContain(range);
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
    writeFileSync(join(scratch, 'host.mjs'), HOST);
    const log = join(scratch, 'events.sqlite');
    const result = spawnSync(process.execPath, ['host.mjs', log], {
      cwd: scratch,
      env: env(),
      encoding: 'utf8',
      timeout: 120_000,
    });
    if (result.status !== 0) {
      throw new Error(`host.mjs exited ${String(result.status)}:\n${result.stderr}`);
    }
    expect(JSON.parse(result.stdout)).toEqual({
      turnState: 'completed',
      text: 'from the tarballs',
      closed: 'session.closed',
    });
    expect(existsSync(log)).toBe(true);
  }, 150_000);
});

describe('the published CLI', () => {
  it('never loads the provider testing entry: what it runs of that kit is bundled', () => {
    const root = join(REPO_ROOT, 'packages', 'cli');
    requireBuilt(root);
    const out = JSON.parse(npmIn(root, ['pack', '--dry-run', '--json'])) as {
      files: { path: string }[];
    }[];
    const code = (out[0]?.files ?? []).map((f) => f.path).filter((f) => f.endsWith('.js'));
    expect(code).toContain('bin/relvo-codex.js');
    for (const file of code) {
      expect(readFileSync(join(root, file), 'utf8'), file).not.toContain(
        'agent-provider-codex/testing',
      );
    }
  });
});
