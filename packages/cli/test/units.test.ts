/** The CLI's pure pieces: version parsing, codex location, host config choice, answers, Ctrl-C. */
import { chmodSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { InteractionRequest } from '@relvo-labs/agent-provider';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CODEX_APP_SERVER_VERSION } from '@relvo-labs/agent-provider-codex';
import { loadRuntimeConfig, RuntimeError } from '@relvo-labs/agent-runtime';
import { findCodex, detectKind } from '../src/codex/locate.js';
import { isInWindow, parseCodexVersion } from '../src/codex/version.js';
import { CliExit, EXIT } from '../src/exit-codes.js';
import { BUILT_IN_CONFIG, chooseConfig } from '../src/host/config.js';
import { approvalChoices } from '../src/ui/prompt.js';
import { createAnswerer, narrowestMode } from '../src/turn/answers.js';
import { CtrlC } from '../src/turn/ctrl-c.js';
import { exitCodeFor } from '../src/turn/exit.js';
import { submitErrorToExit } from '../src/turn/submit-errors.js';
import { defaultEventLogPath } from '../src/paths.js';
import { REPO_ROOT } from './support/cli.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'relvo-cli-unit-'));
  dirs.push(d);
  return d;
}

describe('the pinned codex', () => {
  it('the CLI pins @openai/codex to the provider baseline, the same release as the root devDependency', () => {
    const cli = JSON.parse(readFileSync(join(REPO_ROOT, 'packages/cli/package.json'), 'utf8'));
    const root = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8'));
    expect(cli.dependencies['@openai/codex']).toBe(CODEX_APP_SERVER_VERSION);
    expect(cli.dependencies['@openai/codex']).toBe(root.devDependencies['@openai/codex']);
    expect(isInWindow(CODEX_APP_SERVER_VERSION)).toBe(true);
  });

  it('is found without any option: the native binary of the pinned package', () => {
    const found = findCodex({ env: { PATH: '' } });
    expect(found).toMatchObject({ found: true, source: 'pinned', kind: 'native' });
  });
});

describe('parseCodexVersion', () => {
  it.each([
    ['codex-cli 0.156.1\n', '0.156.1'],
    ['codex-cli 0.171.0', '0.171.0'],
    ['WARNING: something\ncodex-cli 0.168.0\n', '0.168.0'],
    ['codex 1.2.3', '1.2.3'],
    ['codex-cli 0.167.2-linux-x64', '0.167.2'],
  ])('%j → %s', (stdout, version) => {
    expect(parseCodexVersion(stdout)).toBe(version);
  });

  it.each(['', 'hello', 'codex-cli', 'codex-cli 0.156', 'version 0.156.1 and more'])(
    'refuses %j',
    (stdout) => {
      expect(parseCodexVersion(stdout)).toBeUndefined();
    },
  );

  it('only exact reviewed releases are in the window', () => {
    expect(isInWindow(`${CODEX_APP_SERVER_VERSION}-linux-x64`)).toBe(false);
    expect(isInWindow('0.0.1')).toBe(false);
  });
});

describe('findCodex', () => {
  it('--codex wins over RELVO_CODEX_EXECUTABLE, which wins over the pinned one', () => {
    const dir = tempDir();
    const a = join(dir, 'a');
    const b = join(dir, 'b');
    for (const p of [a, b]) {
      writeFileSync(p, '#!/bin/sh\n');
      chmodSync(p, 0o755);
    }
    const env = { RELVO_CODEX_EXECUTABLE: b, PATH: '' };
    expect(findCodex({ option: a, env })).toMatchObject({ found: true, path: a, source: 'option' });
    expect(findCodex({ env })).toMatchObject({ found: true, path: b, source: 'env' });
  });

  it('a bare name is looked up on PATH; a relative path against cwd', () => {
    const dir = tempDir();
    const exe = join(dir, 'my-codex');
    writeFileSync(exe, '#!/bin/sh\n');
    chmodSync(exe, 0o755);
    expect(findCodex({ option: 'my-codex', env: { PATH: `/nonexistent:${dir}` } })).toMatchObject({
      found: true,
      path: exe,
    });
    expect(findCodex({ option: './my-codex', env: { PATH: '' }, cwd: dir })).toMatchObject({
      found: true,
      path: exe,
    });
  });

  it('a file that is not executable, or missing, is reported with what was asked for', () => {
    const dir = tempDir();
    const plain = join(dir, 'codex');
    writeFileSync(plain, 'not executable');
    expect(findCodex({ option: plain, env: {} })).toMatchObject({
      found: false,
      source: 'option',
      requested: plain,
    });
    expect(
      findCodex({ env: { RELVO_CODEX_EXECUTABLE: 'no-such-codex', PATH: dir } }),
    ).toMatchObject({ found: false, source: 'env' });
  });

  it('a script (the npm launcher, through its .bin symlink) is a launcher; a binary is native', () => {
    const dir = tempDir();
    const script = join(dir, 'codex.js');
    writeFileSync(script, '#!/usr/bin/env node\n');
    const link = join(dir, 'codex');
    symlinkSync(script, link);
    expect(detectKind(link)).toBe('launcher');
    const pinned = findCodex({ env: {} });
    if (!pinned.found) throw new Error('pinned codex missing');
    expect(detectKind(pinned.path)).toBe('native');
  });
});

describe('host config for run', () => {
  it('without --config or ./relvo.config.json: the built-in codex-readonly profile', () => {
    const chosen = chooseConfig({
      configFile: undefined,
      profile: undefined,
      sandbox: undefined,
      approvals: undefined,
      cwd: tempDir(),
    });
    expect(chosen.source).toBe('built-in');
    expect(chosen.profile).toBe('codex-readonly');
    expect(chosen.config.profiles['codex-readonly']?.providerOptions).toMatchObject({
      sandboxMode: 'read-only',
      approvals: 'bridge',
    });
    expect(Object.keys(BUILT_IN_CONFIG.profiles)).toContain('codex-workspace-write-with-approvals');
  });

  it('--config relvo.config.json (relative to the current folder) is used; --sandbox/--approvals override the chosen profile only', () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'relvo.config.json'),
      JSON.stringify({
        defaultProfile: 'mine',
        profiles: {
          mine: { provider: 'codex', providerOptions: { sandboxMode: 'read-only', model: 'm' } },
          other: { provider: 'codex' },
        },
      }),
    );
    const chosen = chooseConfig({
      configFile: 'relvo.config.json',
      profile: undefined,
      sandbox: 'workspace-write',
      approvals: 'none',
      cwd: dir,
    });
    expect(chosen.source).toBe(join(dir, 'relvo.config.json'));
    expect(chosen.profile).toBe('mine');
    expect(chosen.config.profiles.mine?.providerOptions).toEqual({
      sandboxMode: 'workspace-write',
      approvals: 'none',
      model: 'm',
    });
    expect(chosen.config.profiles.other?.providerOptions).toEqual({});
  });

  it('an unknown profile, an unreadable file and an invalid file are usage errors (exit 2)', () => {
    const dir = tempDir();
    const bad = join(dir, 'bad.json');
    writeFileSync(
      bad,
      JSON.stringify({ defaultProfile: 'x', profiles: { x: { provider: 'codex', bogus: 1 } } }),
    );
    const base = { profile: undefined, sandbox: undefined, approvals: undefined, cwd: dir };
    for (const attempt of [
      () => chooseConfig({ ...base, configFile: undefined, profile: 'nope' }),
      () => chooseConfig({ ...base, configFile: join(dir, 'missing.json') }),
      () => chooseConfig({ ...base, configFile: bad }),
    ]) {
      let caught: unknown;
      try {
        attempt();
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(CliExit);
      expect((caught as CliExit).code).toBe(EXIT.usage);
    }
  });
  it('a refusal from submitting the turn: an unreadable config file is a usage error like the other config refusals', () => {
    const dir = tempDir();
    let unreadable: unknown;
    try {
      loadRuntimeConfig(join(dir, 'missing.json'));
    } catch (error) {
      unreadable = error;
    }
    expect((unreadable as RuntimeError).reason).toBe('config_unreadable');
    expect(submitErrorToExit(unreadable).code).toBe(EXIT.usage);
    const refused = (reason: 'config_invalid' | 'unknown_profile' | 'session_busy') =>
      submitErrorToExit(new RuntimeError('invalid_request', reason, 'refused')).code;
    expect(refused('config_invalid')).toBe(EXIT.usage);
    expect(refused('unknown_profile')).toBe(EXIT.usage);
    expect(refused('session_busy')).toBe(EXIT.failed);
  });
});

describe('answers', () => {
  const approval: InteractionRequest = {
    kind: 'approval',
    subject: { category: 'command', summary: 'run ls' },
    allowedModes: ['once'],
    riskHint: 'medium',
  };

  it('--yes approves with the narrowest mode offered; --no denies', async () => {
    const signal = new AbortController().signal;
    expect((await createAnswerer('approve', undefined)(approval, signal)).response).toEqual({
      kind: 'approval',
      decision: 'approved',
      mode: 'once',
    });
    expect((await createAnswerer('deny', undefined)(approval, signal)).response).toEqual({
      kind: 'approval',
      decision: 'denied',
    });
    expect(narrowestMode(['session', 'once'])).toBe('once');
    expect(narrowestMode(['session'])).toBe('session');
  });

  it('with no terminal an approval is denied, never approved; a question cannot be answered', async () => {
    const signal = new AbortController().signal;
    expect(await createAnswerer('ask', undefined)(approval, signal)).toEqual({
      response: { kind: 'approval', decision: 'denied' },
      how: 'no_terminal',
    });
    expect(
      await createAnswerer('ask', undefined)(
        { kind: 'question', prompt: 'why?', multiSelect: false },
        signal,
      ),
    ).toEqual({ response: undefined, how: 'no_terminal' });
  });

  it('the prompt offers approve-for-session only where the request allows it', () => {
    expect(approvalChoices(['once']).map((c) => c.key)).toEqual(['y', 'n']);
    expect(approvalChoices(['once', 'session']).map((c) => c.key)).toEqual(['y', 's', 'n']);
  });
});

describe('Ctrl-C and exit codes', () => {
  it('first press interrupts, second quits, later presses do nothing more', () => {
    const interrupt = vi.fn();
    const quit = vi.fn();
    const ctrlC = new CtrlC({ interrupt, quit });
    ctrlC.press();
    expect([interrupt.mock.calls.length, quit.mock.calls.length]).toEqual([1, 0]);
    ctrlC.press();
    ctrlC.press();
    expect([interrupt.mock.calls.length, quit.mock.calls.length]).toEqual([1, 1]);
  });

  it('maps outcomes to 0 / 1 / 130', () => {
    const at = '2026-12-01T00:00:00.000Z';
    expect(exitCodeFor({ outcome: 'succeeded', at })).toBe(0);
    expect(
      exitCodeFor({
        outcome: 'failed',
        at,
        error: { code: 'provider_unavailable', message: 'x', retryable: true },
      }),
    ).toBe(1);
    expect(exitCodeFor({ outcome: 'interrupted', at })).toBe(130);
  });

  it('the event log defaults under XDG_STATE_HOME, or RELVO_CODEX_EVENT_LOG', () => {
    expect(defaultEventLogPath({ XDG_STATE_HOME: '/s', HOME: '/h' })).toBe(
      '/s/relvo-codex/events.sqlite',
    );
    expect(defaultEventLogPath({ HOME: '/h' })).toBe('/h/.local/state/relvo-codex/events.sqlite');
    expect(defaultEventLogPath({ RELVO_CODEX_EVENT_LOG: '/x.db' })).toBe('/x.db');
  });
});
