/**
 * `run --effort` with no model named anywhere: the model checked against codex's catalog is the
 * one codex answers for a thread of the profile (here chosen by codex's own config).
 * run-effort-header.test.ts has the named model, the thread effort and the header.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createCodexProvider, type CodexModel } from '@relvo-labs/agent-provider-codex';
import { codexConfigArgs } from '@relvo-labs/agent-provider-codex/testing';
import { findCodex } from '../src/codex/locate.js';
import { cliEnv, runCli, survivorsAfter } from './support/cli.js';
import { scriptedRunSetup } from './support/scripted-config.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(codexExtra: readonly string[] = []) {
  const { env } = cliEnv();
  const s = await scriptedRunSetup(env, {}, codexExtra);
  cleanups.push(() => s.cleanup());
  return { ...s, env };
}

/** A model of the pinned codex's own catalog (what `relvo-codex models` lists). */
async function catalogModel(): Promise<CodexModel> {
  const s = await setup();
  const codex = findCodex({ env: s.env });
  if (!('path' in codex)) throw new Error('no codex to list the models of');
  const provider = createCodexProvider({
    executable: codex.path,
    extraArgs: codexConfigArgs({ baseUrl: s.server.baseUrl }),
    env: s.iso.env(s.env),
  });
  const list = await provider.listModels({ cwd: s.iso.workspace });
  const model = list.models[0];
  if (model === undefined) throw new Error('codex listed no models');
  return model;
}

// each test starts the CLI from its sources and a real codex, on a shared machine
describe('relvo-codex run --effort', { timeout: 120_000 }, () => {
  it('no model named: the one codex answers for the thread is the one checked', async () => {
    const model = await catalogModel();
    // codex's own config chooses the model; relvo names none
    const s = await setup([`model="${model.id}"`]);
    const result = await runCli(['run', 'hi', '--effort', 'nonesuch', ...s.runArgs], {
      env: s.env,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`--effort nonesuch: model ${model.id} offers `);
    expect(s.server.requests).toHaveLength(0);
    expect(await survivorsAfter(result.mark)).toEqual([]);
  });
});
