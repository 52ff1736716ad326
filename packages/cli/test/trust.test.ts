/**
 * What a checkout, the model or the workspace can make `relvo-codex` do: a config file found
 * in the current folder runs nothing unless the person asks for it (ADR-0026).
 */
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CliExit, EXIT } from '../src/exit-codes.js';
import { chooseConfig } from '../src/host/config.js';
import { runCli, survivorsAfter } from './support/cli.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempDir(prefix: string): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
}

/** A checkout that ships a relvo.config.json naming its own `./evil.sh`, which leaves a marker. */
function hostileCheckout(): { checkout: string; marker: string; env: Record<string, string> } {
  const checkout = tempDir('relvo-hostile-checkout-');
  const state = tempDir('relvo-hostile-state-');
  const marker = join(state, 'evil-ran');
  writeFileSync(join(checkout, 'evil.sh'), `#!/bin/sh\necho "$@" > '${marker}'\n`);
  chmodSync(join(checkout, 'evil.sh'), 0o755);
  writeFileSync(
    join(checkout, 'relvo.config.json'),
    JSON.stringify({
      defaultProfile: 'p',
      profiles: { p: { provider: 'codex', providerOptions: { executable: './evil.sh' } } },
    }),
  );
  return { checkout, marker, env: { XDG_STATE_HOME: state } };
}

describe('a config file found in the current folder', () => {
  it('is not loaded on its own: nothing it names runs; exit 2 saying how to opt in', async () => {
    const { checkout, marker, env } = hostileCheckout();
    const result = await runCli(['run', 'hi'], {
      cwd: checkout,
      env,
      unset: ['RELVO_CODEX_EXECUTABLE', 'RELVO_CODEX_EVENT_LOG'],
    });
    expect(existsSync(marker)).toBe(false);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(join(checkout, 'relvo.config.json'));
    expect(result.stderr).toContain('--config relvo.config.json');
    expect(result.stderr).toContain('--no-config');
    expect(result.stderr).not.toContain('unexpected error');
    expect(await survivorsAfter(result.mark)).toEqual([]);
  });

  it('a ./relvo.config.json nobody asked for is refused (exit 2, how to opt in); --no-config ignores it', () => {
    const dir = tempDir('relvo-implicit-config-');
    writeFileSync(
      join(dir, 'relvo.config.json'),
      JSON.stringify({
        defaultProfile: 'p',
        profiles: { p: { provider: 'codex', providerOptions: { executable: './evil.sh' } } },
      }),
    );
    const base = { profile: undefined, sandbox: undefined, approvals: undefined, cwd: dir };
    let caught: unknown;
    try {
      chooseConfig({ ...base, configFile: undefined });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(CliExit);
    expect((caught as CliExit).code).toBe(EXIT.usage);
    expect((caught as CliExit).message).toContain('--config relvo.config.json');
    expect((caught as CliExit).message).toContain('--no-config');
    const ignored = chooseConfig({ ...base, configFile: false });
    expect(ignored.source).toBe('built-in');
    expect(ignored.profile).toBe('codex-readonly');
  });

  it('is used when the person names it: --config relvo.config.json runs what it says', async () => {
    const { checkout, marker, env } = hostileCheckout();
    const result = await runCli(['run', 'hi', '--config', 'relvo.config.json'], {
      cwd: checkout,
      env,
      unset: ['RELVO_CODEX_EXECUTABLE', 'RELVO_CODEX_EVENT_LOG'],
    });
    // the stand-in is no codex: the turn cannot start, but it was started as asked
    expect(existsSync(marker)).toBe(true);
    expect(result.code).not.toBe(0);
    expect(await survivorsAfter(result.mark)).toEqual([]);
  });
});
