/**
 * `run --effort` against the real codex and a scripted model: configured for the thread (so a
 * turn's effort can always be undone), checked before the turn against the levels codex's
 * catalog gives the model (the one named, else the one codex answers for a thread of the
 * profile); and the header naming the model codex chose when nothing set one.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { SCRIPTED_MODEL, scriptedUsage, textStep } from '@relvo-labs/agent-provider-codex/testing';
import { cliEnv, runCli, survivorsAfter } from './support/cli.js';
import { homeEnv } from './support/codex-login.js';
import { scriptedRunSetup } from './support/scripted-config.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(codexExtra: readonly string[] = []) {
  const { env } = cliEnv();
  const s = await scriptedRunSetup(env, {}, codexExtra);
  cleanups.push(() => s.cleanup());
  // runArgs without `--cwd <workspace>`: each test names the workspace its own way
  const args = s.runArgs.filter((a, i, all) => a !== '--cwd' && all[i - 1] !== '--cwd');
  return { ...s, env, args };
}

const usage = { usage: scriptedUsage(1, 1, 0, 0) };

interface CatalogModel {
  readonly id: string;
  readonly efforts: readonly string[];
}

/** The pinned codex's own catalog, as `relvo-codex models --json --all` lists it. */
async function catalogModels(s: Awaited<ReturnType<typeof setup>>): Promise<CatalogModel[]> {
  const list = await runCli(['models', '--json', '--all'], {
    env: { ...s.env, ...homeEnv(s.iso) },
  });
  expect(list.code).toBe(0);
  return (JSON.parse(list.stdout) as { models: CatalogModel[] }).models;
}
const bodyOf = (s: { server: { requests: readonly { body?: unknown }[] } }, i: number) =>
  s.server.requests[i]?.body as Record<string, unknown> | undefined;

describe('relvo-codex run: --effort and the model in the header', { timeout: 120_000 }, () => {
  it('nothing sets the model: the header names the one codex reported for the thread', async () => {
    const s = await setup();
    s.server.enqueue(textStep('ok', usage));
    const result = await runCli(['run', 'hi', '--cwd', s.iso.workspace, ...s.args], {
      env: s.env,
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`model ${SCRIPTED_MODEL} (codex’s default) · sandbox`);
    expect(result.stderr).not.toContain('default (your codex config)');
    expect(await survivorsAfter(result.mark)).toEqual([]);
  });

  it('--effort on a thread with no configured effort is configured for the thread, not refused', async () => {
    const s = await setup();
    s.server.enqueue(textStep('ok', usage));
    const result = await runCli(
      ['run', 'hi', '--cwd', s.iso.workspace, '--effort', 'high', ...s.args],
      { env: s.env },
    );
    expect(result.stderr).not.toContain('not known');
    expect(result.code).toBe(0);
    const reasoning = bodyOf(s, 0)?.['reasoning'] as { effort?: unknown } | undefined;
    expect(reasoning?.effort).toBe('high');
  });

  it('an --effort the model does not offer is one line listing its levels, exit 2, nothing sent', async () => {
    const s = await setup();
    const models = await catalogModels(s);
    const levels = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh'];
    const pick = models
      .map((m) => ({ m, missing: levels.find((l) => !m.efforts.includes(l)) }))
      .find((x) => x.missing !== undefined);
    expect(pick).toBeDefined();
    const { m, missing } = pick!;
    const result = await runCli(
      ['run', 'hi', '--cwd', s.iso.workspace, '-m', m.id, '--effort', missing!, ...s.args],
      { env: s.env },
    );
    expect(result.code).toBe(2);
    const line = result.stderr.split('\n').find((l) => l.includes('--effort'));
    expect(line).toMatch(/^relvo-codex: --effort \S+: model \S+ offers .*; pick one of those/);
    for (const e of m.efforts) expect(line).toContain(e);
    expect(s.server.requests).toHaveLength(0);
    expect(await survivorsAfter(result.mark)).toEqual([]);
  });
  it("a profile's run.effort on a profile that configures no thread effort is set for the thread too", async () => {
    const s = await setup();
    const config = JSON.parse(readFileSync(s.configFile, 'utf8')) as {
      profiles: Record<string, Record<string, unknown>>;
    };
    config.profiles['scripted'] = { ...config.profiles['scripted'], run: { effort: 'high' } };
    writeFileSync(s.configFile, JSON.stringify(config));
    s.server.enqueue(textStep('ok', usage));
    const result = await runCli(['run', 'hi', '--cwd', s.iso.workspace, ...s.args], {
      env: s.env,
    });
    expect(result.stderr).not.toContain('could not be undone');
    expect(result.code).toBe(0);
    const reasoning = bodyOf(s, 0)?.['reasoning'] as { effort?: unknown } | undefined;
    expect(reasoning?.effort).toBe('high');
    expect(await survivorsAfter(result.mark)).toEqual([]);
  });

  it('no model named: the one codex answers for the thread is the one checked', async () => {
    const model = (await catalogModels(await setup()))[0];
    expect(model).toBeDefined();
    // codex's own config chooses the model; relvo names none
    const s = await setup([`model="${model!.id}"`]);
    const result = await runCli(['run', 'hi', '--effort', 'nonesuch', ...s.runArgs], {
      env: s.env,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`--effort nonesuch: model ${model!.id} offers `);
    expect(s.server.requests).toHaveLength(0);
    expect(await survivorsAfter(result.mark)).toEqual([]);
  });
});
