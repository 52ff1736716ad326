/**
 * The built packages as a user's program loads them: with `import` and `require`, the same API
 * both ways, and a turn on the real codex from a project that sees only the build. Needs
 * `npm run build` first (`npm test` does it).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CODEX_APP_SERVER_VERSION } from '../../src/constants.js';
import { requireCodexBinary } from '../../src/testing/index.js';
import { REPO_ROOT } from '../support/paths.js';
import { nodeIn, requireBuiltEntries } from '../support/packing.js';
import { testEnv } from '../support/processes.js';

const SPI = join(REPO_ROOT, 'packages', 'agent-provider');

describe('built packages', () => {
  beforeAll(() => {
    requireBuiltEntries(SPI);
    requireBuiltEntries(REPO_ROOT);
  });

  it('load with import and require and expose the same API', () => {
    const script = `
      const cjsSpi = require('@relvo-labs/agent-provider');
      const cjsCodex = require('@relvo-labs/agent-provider-codex');
      const cjsTesting = require('@relvo-labs/agent-provider/testing');
      import('@relvo-labs/agent-provider').then(async (esmSpi) => {
        const esmCodex = await import('@relvo-labs/agent-provider-codex');
        const esmTesting = await import('@relvo-labs/agent-provider-codex/testing');
        const out = {
          wire: [cjsSpi.WIRE_VERSION, esmSpi.WIRE_VERSION],
          codes: [cjsSpi.AGENT_ERROR_CODES.length, esmSpi.AGENT_ERROR_CODES.length],
          provider: [typeof cjsCodex.createCodexProvider, typeof esmCodex.createCodexProvider],
          version: [cjsCodex.CODEX_APP_SERVER_VERSION, esmCodex.CODEX_APP_SERVER_VERSION],
          scripted: typeof cjsTesting.createScriptedProvider,
          modelServer: typeof esmTesting.ScriptedModelServer,
          descriptor: esmCodex.createCodexProvider({ transport: () => { throw new Error('unused'); } }).describe().providerId,
          keysEqual: JSON.stringify(Object.keys(cjsCodex).sort()) === JSON.stringify(Object.keys(esmCodex).filter(k => k !== 'default').sort()),
        };
        process.stdout.write(JSON.stringify(out));
      });`;
    const out = JSON.parse(nodeIn(REPO_ROOT, ['-e', script])) as Record<string, unknown>;
    expect(out).toEqual({
      wire: ['0.8', '0.8'],
      codes: [23, 23],
      provider: ['function', 'function'],
      version: [CODEX_APP_SERVER_VERSION, CODEX_APP_SERVER_VERSION],
      scripted: 'function',
      modelServer: 'function',
      descriptor: 'codex',
      keysEqual: true,
    });
  });
});

describe('the installed build drives the real codex', () => {
  it('runs one text turn through the built packages (ESM consumer, real codex under test)', () => {
    requireBuiltEntries(SPI);
    requireBuiltEntries(REPO_ROOT);
    const binary = requireCodexBinary({ kind: 'native' });
    const scratch = mkdtempSync(join(tmpdir(), 'relvo-consumer-run-'));
    try {
      // a consumer project that sees only the built output, as an installed dependency would be
      mkdirSync(join(scratch, 'node_modules', '@relvo-labs'), { recursive: true });
      symlinkSync(REPO_ROOT, join(scratch, 'node_modules', '@relvo-labs', 'agent-provider-codex'));
      symlinkSync(SPI, join(scratch, 'node_modules', '@relvo-labs', 'agent-provider'));
      writeFileSync(
        join(scratch, 'package.json'),
        JSON.stringify({ name: 'runner', private: true, type: 'module' }),
      );
      writeFileSync(
        join(scratch, 'run.mjs'),
        `import { createCodexProvider } from '@relvo-labs/agent-provider-codex';
import { ScriptedModelServer, codexConfigArgs, createIsolatedCodexHome, textStep, scriptedUsage } from '@relvo-labs/agent-provider-codex/testing';
const iso = createIsolatedCodexHome('relvo-consumer-home-');
const server = await ScriptedModelServer.start();
server.enqueue(textStep(['built ', 'output'], { usage: scriptedUsage(3, 2, 0, 0) }));
const provider = createCodexProvider({ executable: process.env.CODEX_BIN, extraArgs: codexConfigArgs({ baseUrl: server.baseUrl }), env: iso.env(process.env) });
const events = [];
const session = await provider.createSession({ options: {}, workspace: { root: iso.workspace, ownership: 'managed' }, sink: { emit() {} } });
const run = await session.startRun({ input: { parts: [{ type: 'text', text: 'hi' }] }, sink: { emit: (e) => events.push(e.payload) }, runRef: 'r' });
const outcome = await run.completion;
await session.dispose();
await server.close();
iso.dispose();
process.stdout.write(JSON.stringify({ outcome, text: events.filter((e) => e.type === 'run.message_delta').map((e) => e.text).join('') }));
`,
      );
      const out = execFileSync(process.execPath, ['run.mjs'], {
        cwd: scratch,
        env: testEnv({ CODEX_BIN: binary.path }),
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(JSON.parse(out)).toEqual({ outcome: { outcome: 'succeeded' }, text: 'built output' });
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }, 90_000);
});
