/**
 * A host that `require`s the provider and `import`s the runtime loads two copies of the SPI (its
 * CommonJS and its ESM build), so two `ProviderRejection` classes. The runtime must still read a
 * definite refusal as definite: it tells errors apart by brand, not by class. The built packages
 * are mixed for real in a child Node process. Needs `npm run build` first (`npm test` does it).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/paths.js';

const BUILT = [
  'dist/index.cjs',
  'packages/agent-provider/dist/index.cjs',
  'packages/agent-provider/dist/index.js',
  'packages/agent-provider/dist/testing.cjs',
  'packages/agent-runtime/dist/index.js',
  'packages/agent-runtime/dist/index.cjs',
];

// Runs with `node -e` from the repository, so the packages resolve as a host's would: the
// provider and the scripted provider through `require` (CommonJS), the runtime through `import`.
// The codex factory is wrapped so that it carries no option schemas: the provider's own refusal,
// not the runtime's parse, must reach the runtime. Its transport cannot start (nothing spawns).
const HOST = `
const codex = require('@relvo-labs/agent-provider-codex');
const cjsSpi = require('@relvo-labs/agent-provider');
const cjsTesting = require('@relvo-labs/agent-provider/testing');
const cjsRuntime = require('@relvo-labs/agent-runtime');
(async () => {
  const esmSpi = await import('@relvo-labs/agent-provider');
  const runtimeModule = await import('@relvo-labs/agent-runtime');
  const cjsRejection = new cjsSpi.ProviderRejection(cjsSpi.agentError('provider_rejected', 'no'));
  const out = {
    twoClasses: cjsSpi.ProviderRejection !== esmSpi.ProviderRejection,
    esmReadsCjs: [
      esmSpi.isProviderRejection(cjsRejection),
      cjsRejection instanceof esmSpi.ProviderRejection,
      esmSpi.certaintyOf(cjsRejection),
      esmSpi.toAgentError(cjsRejection).code,
    ],
    turns: {},
  };
  const runtime = await runtimeModule.createAgentRuntime({
    providers: {
      codex: (options) =>
        codex.createCodexProvider({ ...options, transport: () => { throw new Error('no codex'); } }),
      scripted: () => cjsTesting.createScriptedProvider().provider,
    },
    config: {
      defaultProfile: 'codex',
      profiles: {
        codex: { provider: 'codex' },
        'codex-options': { provider: 'codex', providerOptions: { sandboxMode: 'nowhere' } },
        'scripted-session-options': { provider: 'scripted', sessionOptions: { colour: 'red' } },
      },
    },
    store: runtimeModule.createMemoryEventStore(),
  });
  for (const profile of ['codex', 'codex-options', 'scripted-session-options']) {
    const session = await runtime.openSession({ workspace: process.argv[1] });
    const error = await session.submitTurn({ input: 'hello', profile }).then(() => undefined, (e) => e);
    out.turns[profile] = error === undefined ? 'accepted' : {
      runtimeError: [runtimeModule.isRuntimeError(error), cjsRuntime.isRuntimeError(error)],
      reason: error.reason,
      code: error.code,
      providerCode: error.error.providerCode,
    };
  }
  await runtime.shutdown();
  process.stdout.write(JSON.stringify(out));
})().catch((e) => {
  process.stderr.write(String(e && e.stack));
  process.exit(1);
});
`;

describe('the CommonJS provider with the ESM runtime', () => {
  let workspace: string;

  beforeAll(() => {
    for (const file of BUILT) {
      if (!existsSync(join(REPO_ROOT, file))) {
        throw new Error(`${file} is missing: run \`npm run build\` before this test`);
      }
    }
    workspace = mkdtempSync(join(tmpdir(), 'relvo-mixed-'));
  });

  afterAll(() => {
    rmSync(workspace, { recursive: true, force: true });
  });

  it('reads a definite refusal as definite', () => {
    const stdout = execFileSync(process.execPath, ['-e', HOST, workspace], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      timeout: 60_000,
      killSignal: 'SIGKILL',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out = JSON.parse(stdout) as Record<string, unknown>;
    // the premise: two classes, one brand
    expect(out['twoClasses']).toBe(true);
    expect(out['esmReadsCjs']).toEqual([true, true, 'definite', 'provider_rejected']);
    expect(out['turns']).toEqual({
      // createSession refused (the transport could not be created): a refusal, not an unknown
      // outcome (which would read provider_unknown_outcome)
      codex: {
        runtimeError: [true, true],
        reason: 'provider_rejected',
        code: 'provider_unavailable',
      },
      // the factory refused its options: named as such, not provider_factory_failed
      'codex-options': {
        runtimeError: [true, true],
        reason: 'provider_options_refused',
        code: 'invalid_request',
        providerCode: 'invalid_options',
      },
      // createSession refused its options: not provider_unknown_outcome
      'scripted-session-options': {
        runtimeError: [true, true],
        reason: 'session_options_refused',
        code: 'invalid_request',
      },
    });
  });
});
