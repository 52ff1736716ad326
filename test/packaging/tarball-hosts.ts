/**
 * The host programs the tarball test installs the packages for: what a host writes, in plain
 * ESM and in strict TypeScript compiled against the published types (never the sources).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../support/paths.js';

/** One real codex turn through the installed runtime and provider, logged in SQLite. */
export const CODEX_HOST = `import { createCodexProvider } from '@relvo-labs/agent-provider-codex';
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

/**
 * A host without pg (strict TypeScript): a turn on the memory store and on SQLite, and the
 * PostgreSQL store refused with what to install. The codex factory is only described.
 */
export const NO_PG_HOST = `import { createScriptedProvider } from '@relvo-labs/agent-provider/testing';
import { createCodexProvider } from '@relvo-labs/agent-provider-codex';
import {
  createAgentRuntime,
  createMemoryEventStore,
  isRuntimeError,
  openPostgresEventStore,
  openSqliteEventStore,
  type EventStore,
} from '@relvo-labs/agent-runtime';

async function turnOn(store: EventStore): Promise<{ turnState: string; events: number }> {
  const scripted = createScriptedProvider();
  const runtime = await createAgentRuntime({
    providers: { scripted: () => scripted.provider },
    config: { defaultProfile: 'p', profiles: { p: { provider: 'scripted' } } },
    store,
  });
  const session = await runtime.openSession({ workspace: process.cwd() });
  const turn = await session.submitTurn({ input: 'hi' });
  // the scripted provider plays its script when told to
  scripted.controller.drain();
  const { turnState } = await turn.done;
  await session.close();
  const events = (await runtime.readEvents(session.id)).length;
  await runtime.shutdown();
  return { turnState, events };
}

let refusal: unknown;
try {
  openPostgresEventStore({ connectionString: 'postgres://relvo@127.0.0.1:1/none' });
} catch (error) {
  refusal = error;
}
const codex = createCodexProvider({ transport: () => { throw new Error('unused'); } });
process.stdout.write(
  JSON.stringify({
    memory: await turnOn(createMemoryEventStore()),
    sqlite: await turnOn(openSqliteEventStore({ path: process.argv[2] ?? '' })),
    postgres: isRuntimeError(refusal)
      ? { code: refusal.code, reason: refusal.reason, message: refusal.message }
      : String(refusal),
    codex: codex.describe().providerId,
  }),
);
`;

/**
 * Every public entry point with types, imported by a host that has neither pg nor OpenTelemetry
 * nor vitest: each package's declarations compile with only its own dependencies. A profile's
 * provider options are typed by `codexProfile`, with no cast.
 */
export const EVERY_ENTRY_HOST = `import * as spi from '@relvo-labs/agent-provider';
import * as spiTesting from '@relvo-labs/agent-provider/testing';
import * as codex from '@relvo-labs/agent-provider-codex';
import * as codexTesting from '@relvo-labs/agent-provider-codex/testing';
import * as demoModel from '@relvo-labs/agent-provider-codex/demo-model';
import * as runtime from '@relvo-labs/agent-runtime';
import * as consolePage from '@relvo-labs/agent-runtime/console';
import type { CodexProviderOptions } from '@relvo-labs/agent-provider-codex';
import type { AgentRuntimeOptions, EventStore } from '@relvo-labs/agent-runtime';

const options: Omit<CodexProviderOptions, 'transport' | 'onRateLimits'> = {
  approvals: 'bridge',
  sandboxMode: 'workspace-write',
};
const profile = codex.codexProfile({ providerOptions: options });
const config: AgentRuntimeOptions['config'] = { defaultProfile: 'p', profiles: { p: profile } };
const store: EventStore = runtime.createMemoryEventStore();
const entries = {
  spi: typeof spi.providerEventInputSchema.parse,
  spiTesting: typeof spiTesting.createScriptedProvider,
  codex: typeof codex.createCodexProvider,
  codexTesting: typeof codexTesting.ScriptedModelServer,
  demoModel: typeof demoModel.ScriptedModelServer,
  runtime: typeof runtime.createAgentRuntime,
  console: typeof consolePage.startConsole,
};
await store.close();
process.stdout.write(JSON.stringify({ entries, provider: config.profiles['p']?.provider }));
`;

/** The optional vitest entry, for a host that has vitest. */
export const VITEST_ENTRY_HOST = `import { describeProviderConformance } from '@relvo-labs/agent-provider/testing/vitest';
process.stdout.write(JSON.stringify({ conformance: typeof describeProviderConformance }));
`;

/** A host with pg (and its types) hands the runtime its own pg.Pool. */
export const PG_HOST = `import { Pool } from 'pg';
import { openPostgresEventStore } from '@relvo-labs/agent-runtime';
const pool = new Pool({ connectionString: 'postgres://relvo@127.0.0.1:1/none', max: 1 });
const store = openPostgresEventStore({ pool });
await store.close();
await pool.end();
process.stdout.write(JSON.stringify({ kind: store.kind }));
`;

const TSC = join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
export type Resolution = 'NodeNext' | 'Bundler';

/**
 * Compiles `files` (written into `dir`) with the strictest options a host may use, checking the
 * installed packages' declarations too (`skipLibCheck: false`), as one program into `dir/out`
 * (`dir/out-bundler` for Bundler resolution); throws with tsc's output on any error. Node's types
 * come from this repository, nothing else does.
 */
export function compileStrict(
  dir: string,
  files: Record<string, string>,
  resolution: Resolution = 'NodeNext',
): void {
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const outDir = resolution === 'NodeNext' ? 'out' : 'out-bundler';
  const config = `tsconfig.${resolution}.json`;
  writeFileSync(
    join(dir, config),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        module: resolution === 'NodeNext' ? 'NodeNext' : 'ES2022',
        moduleResolution: resolution,
        target: 'ES2022',
        outDir,
        skipLibCheck: false,
        exactOptionalPropertyTypes: true,
        noUncheckedIndexedAccess: true,
        types: ['node'],
        typeRoots: [join(REPO_ROOT, 'node_modules', '@types')],
      },
      files: Object.keys(files),
    }),
  );
  rmSync(join(dir, outDir), { recursive: true, force: true });
  try {
    execFileSync(process.execPath, [TSC, '-p', config], {
      cwd: dir,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 120_000,
    });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string };
    throw new Error(`the host does not compile:\n${e.stdout ?? ''}${e.stderr ?? ''}`, {
      cause: error,
    });
  }
}

const SQLITE = join(REPO_ROOT, 'node_modules', 'better-sqlite3');

/**
 * Offers the host's better-sqlite3 install script (prebuild-install) a local prebuild
 * (`.prebuild-installrc` in `dir`), as a host that can download the prebuilt binary gets one:
 * this repository's copy, the same version built for this Node by `npm ci`. The install script
 * still runs (the host must approve it); only compiling SQLite again from source goes, a minute
 * or more of CPU that checked better-sqlite3's build rather than these packages. A host that
 * resolves another version (or another libc) finds no match and compiles as before.
 */
export function offerSqlitePrebuild(dir: string): void {
  const binary = join('build', 'Release', 'better_sqlite3.node');
  if (!existsSync(join(SQLITE, binary))) return;
  const { version } = JSON.parse(readFileSync(join(SQLITE, 'package.json'), 'utf8')) as {
    version: string;
  };
  const prebuilds = join(dir, '.prebuilds');
  mkdirSync(prebuilds, { recursive: true });
  // prebuild-install's name for a glibc Linux, macOS or Windows build
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  execFileSync('tar', ['-czf', join(prebuilds, name), '-C', SQLITE, binary], { timeout: 60_000 });
  writeFileSync(join(dir, '.prebuild-installrc'), `local-prebuilds=${prebuilds}\n`);
}
