/**
 * What a user installs is what we test: the packed tarballs install into a scratch project
 * outside the repository, ship only what they should, run the host guide's example and compile
 * against their published types. Needs `npm run build` first (`npm test` does it).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODEX_APP_SERVER_VERSION } from '../../src/constants.js';
import { REPO_ROOT } from '../support/paths.js';
import { nodeIn, npmIn, packedPackages, requireBuiltEntries } from '../support/packing.js';
import { testEnv } from '../support/processes.js';

const SPI = join(REPO_ROOT, 'packages', 'agent-provider');
const TSC = join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

describe('consumer check: packed tarballs in a scratch project', () => {
  let scratch = '';
  /** The codex release the published README tells a host to install. */
  let codexVersion = '';
  /** Files of each packed tarball, by package directory. */
  const packed = new Map<string, string[]>();

  beforeAll(async () => {
    requireBuiltEntries(SPI);
    requireBuiltEntries(REPO_ROOT);
    scratch = mkdtempSync(join(tmpdir(), 'relvo-consumer-'));
    const npm = (args: string[], cwd: string): string => npmIn(cwd, args);
    const packs = [...(await packedPackages()).values()];
    const pack = (dir: string): string => {
      const found = packs.find((p) => p.dir === dir);
      if (found === undefined) throw new Error(`no pack of ${dir}`);
      packed.set(dir, [...found.files]);
      return found.tarball;
    };
    const spiTarball = pack(SPI);
    const codexTarball = pack(REPO_ROOT);
    writeFileSync(
      join(scratch, 'package.json'),
      JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
    );
    npm(
      ['install', '--no-audit', '--no-fund', '--ignore-scripts', spiTarball, codexTarball],
      scratch,
    );
    // then the codex the published README's Install section names, as it says to install it;
    // `npm ci` cached its tarball but not the registry's metadata, which a fresh cache lacks
    const steps =
      /## Install\n+(?:<!-- check: \w+ -->\n)?```sh\n([\s\S]*?)```/.exec(publishedReadme())?.[1] ??
      '';
    const install = /npm i -E (@openai\/codex@([^\s`]+))/.exec(steps);
    if (install?.[1] === undefined) throw new Error('the README names no codex to install');
    codexVersion = install[2] ?? '';
    npm(['install', '--prefer-offline', '--no-audit', '--no-fund', '-E', install[1]], scratch);
  }, 240_000);

  function publishedReadme(): string {
    return publishedDoc('README.md');
  }

  function publishedDoc(...path: string[]): string {
    return readFileSync(
      join(scratch, 'node_modules', '@relvo-labs', 'agent-provider-codex', ...path),
      'utf8',
    );
  }

  afterAll(() => {
    if (scratch !== '') rmSync(scratch, { recursive: true, force: true });
  });

  it('ships only the build, schemas, docs, the scripted model bin and the licence', () => {
    for (const dir of [SPI, REPO_ROOT]) {
      const files = packed.get(dir) ?? [];
      for (const f of files)
        expect(f).toMatch(
          /^(dist\/|schemas\/|docs\/|adr\/|bin\/relvo-codex-scripted-model\.js$|package\.json$|README\.md$|LICENSE$)/,
        );
      // the licence ships with every package (Apache-2.0)
      expect(files).toContain('LICENSE');
    }
    const installed = JSON.parse(
      readFileSync(
        join(scratch, 'node_modules', '@relvo-labs', 'agent-provider-codex', 'package.json'),
        'utf8',
      ),
    ) as { dependencies: Record<string, string>; peerDependencies: Record<string, string> };
    // codex itself is never a runtime dependency
    expect(Object.keys(installed.dependencies).sort()).toEqual([
      '@relvo-labs/agent-provider',
      // validates a run's structured output against its outputSchema (ADR-0041)
      'ajv',
      'pidusage',
    ]);
    // the host's zod is the one the schemas and errors are made with
    expect(Object.keys(installed.peerDependencies)).toEqual(['zod']);
  });

  it('the host has one copy of zod, shared by both packages', () => {
    const copies = npmIn(scratch, ['ls', 'zod', '--all', '--parseable'])
      .split('\n')
      .filter((line) => line.trim() !== '');
    expect(copies).toHaveLength(1);
  });

  it('every relative link in a published README points at a file in the same tarball', () => {
    for (const dir of [SPI, REPO_ROOT]) {
      const files = new Set(packed.get(dir) ?? []);
      const readme = readFileSync(join(dir, 'README.md'), 'utf8');
      const targets = [...readme.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)]
        .map((m) => m[1]!)
        .filter((t) => !/^[a-z]+:/.test(t));
      // mentions like `docs/processes.md` or `ADR-0005` in prose are links too
      const mentioned = [...readme.matchAll(/`((?:docs|adr)\/[^`\s]+\.md)`/g)].map((m) => m[1]!);
      for (const target of [...targets, ...mentioned]) expect(files, target).toContain(target);
      for (const [, n] of readme.matchAll(/\bADR-(\d{4})\b/g)) {
        expect(
          [...files].some((f) => f.startsWith(`adr/ADR-${n}-`)),
          `ADR-${n}`,
        ).toBe(true);
      }
    }
  });

  it('the host guide example, as published, runs against the real codex and the scripted model', () => {
    // the README installs the baseline, and the command it gives finds that install's binary
    expect(codexVersion).toBe(CODEX_APP_SERVER_VERSION);
    const installed = join(scratch, 'node_modules', '@openai', 'codex-linux-x64', 'vendor');
    expect(existsSync(join(installed, 'x86_64-unknown-linux-musl', 'bin', 'codex'))).toBe(true);
    // only what the installed package's host guide says: its two titled code blocks and the
    // command that runs them, verbatim
    const readme = publishedDoc('docs', 'host-guide.md');
    for (const name of ['host.mjs', 'try-it.mjs']) {
      const block = new RegExp(
        '```js title="' + name.replace('.', '\\.') + '"\\n([\\s\\S]*?)\\n```',
      ).exec(readme);
      if (block?.[1] === undefined) throw new Error(`the host guide has no \`${name}\` block`);
      writeFileSync(join(scratch, name), block[1] + '\n');
    }
    const command = /```sh\n(CODEX_EXECUTABLE=[^\n]*node try-it\.mjs)\n```/.exec(readme)?.[1];
    if (command === undefined)
      throw new Error('the host guide has no command that runs try-it.mjs');
    const env = testEnv();
    Reflect.deleteProperty(env, 'CODEX_EXECUTABLE');
    // the scratch project sits outside the repository: require.resolve finds its own codex
    const result = spawnSync('/bin/sh', ['-c', command], {
      cwd: scratch,
      env: { ...env, PATH: `${dirname(process.execPath)}:${env['PATH'] ?? ''}` },
      encoding: 'utf8',
      timeout: 120_000,
    });
    if (result.status !== 0) {
      throw new Error(`try-it.mjs failed (${String(result.status)}):\n${result.stderr}`);
    }
    const lines = result.stdout.trim().split('\n');
    expect(JSON.parse(lines.at(-1)!)).toEqual({ first: 'succeeded', second: 'interrupted' });
    // the streamed text of both runs, the approval, and the usage reached the host
    expect(result.stdout).toContain('Here are the files.');
    expect(result.stdout).toContain('The build ');
    expect(result.stderr).toMatch(/\[approval\] .*ls/);
    expect(result.stderr).toContain('[usage]');
  }, 180_000);

  it('compiles a TypeScript consumer against the published types', () => {
    writeFileSync(
      join(scratch, 'consumer.ts'),
      `import { createCodexProvider, CODEX_SUPPORTED_APP_SERVER_VERSIONS, type CodexProvider, type CodexIterableTransport } from '@relvo-labs/agent-provider-codex';
import { checkResponseAgainstRequest, type AgentProvider, type InteractionRequest } from '@relvo-labs/agent-provider';
const transport = (): CodexIterableTransport => ({ send: () => true, incoming: (async function* () {})(), close: async () => {} });
const provider: CodexProvider = createCodexProvider({ approvals: 'bridge', transport });
const asSpi: AgentProvider = provider;
const request: InteractionRequest = { kind: 'approval', subject: { category: 'command', summary: 'run ls' }, allowedModes: ['once'], riskHint: 'high' };
const reason: string | undefined = checkResponseAgainstRequest(request, { kind: 'approval', decision: 'denied' });
const count: number = provider.abandonedConnectionCount;
export { asSpi, reason, count, CODEX_SUPPORTED_APP_SERVER_VERSIONS };
`,
    );
    writeFileSync(
      join(scratch, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          target: 'ES2022',
          noEmit: true,
          skipLibCheck: false,
          exactOptionalPropertyTypes: true,
          types: ['node'],
          typeRoots: [join(REPO_ROOT, 'node_modules', '@types')],
        },
        files: ['consumer.ts'],
      }),
    );
    let output: string;
    try {
      output = nodeIn(scratch, [TSC, '-p', 'tsconfig.json']);
    } catch (error) {
      const e = error as { stdout?: string; stderr?: string };
      throw new Error(`consumer type check failed:\n${e.stdout ?? ''}${e.stderr ?? ''}`, {
        cause: error,
      });
    }
    expect(output.trim()).toBe('');
  }, 180_000);
});
