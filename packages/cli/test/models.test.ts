/**
 * `relvo-codex models` and the limits line of `doctor`: the table and the limits line as pure
 * formatting (hostile catalog text shown, never obeyed), then the real pinned codex in a tmux
 * terminal as a person runs it, and `--json`, with nothing left running.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  createIsolatedCodexHome,
  type IsolatedCodexHome,
} from '@relvo-labs/agent-provider-codex/testing';
import type { CodexModel, CodexModelList } from '@relvo-labs/agent-provider-codex';
import { describeLimits, windowLength } from '../src/codex/limits.js';
import { formatModelTable } from '../src/commands/models.js';
import { cliEnv, runCli, survivorsAfter } from './support/cli.js';
import { openCliTerminal } from './support/cli-terminal.js';
import { homeEnv } from './support/codex-login.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function model(id: string, extra: Partial<CodexModel> = {}): CodexModel {
  return {
    id,
    model: id,
    displayName: id.toUpperCase(),
    isDefault: false,
    hidden: false,
    defaultEffort: 'medium',
    efforts: ['low', 'medium', 'high'],
    ...extra,
  };
}

const list = (models: CodexModel[], extra: Partial<CodexModelList> = {}): CodexModelList => ({
  models,
  truncated: false,
  skipped: 0,
  ...extra,
});

describe('formatModelTable', () => {
  it('one aligned row per model, the default model and each default effort marked', () => {
    const lines = formatModelTable(
      list([model('a-long-id', { isDefault: true }), model('b')]),
      false,
    );
    expect(lines).toEqual([
      '   MODEL      NAME       EFFORTS',
      '*  a-long-id  A-LONG-ID  low medium* high',
      '   b          B          low medium* high',
      '* codex’s default model; effort* the model’s default effort',
    ]);
  });

  it('--all adds whether codex shows the model; a cut or skipped list says so', () => {
    const lines = formatModelTable(
      list([model('a'), model('h', { hidden: true })], { truncated: true, skipped: 2 }),
      true,
    );
    expect(lines[0]).toBe('   MODEL  NAME  EFFORTS           SHOWN');
    expect(lines[2]).toBe('   h      H     low medium* high  hidden');
    expect(lines.slice(-2)).toEqual([
      '(more models than shown: the list was cut at the cap)',
      '(2 entry(ies) codex sent did not fit and are left out)',
    ]);
  });

  it('a display name carrying terminal escapes is written out, not obeyed', () => {
    const [, row] = formatModelTable(
      list([model('x', { displayName: 'ok\u001b[2J\u202eevil' })]),
      false,
    );
    expect(row).toContain('ok\\x1b[2J<U+202E>evil');
    expect(row).not.toContain('\u001b');
  });
});

describe('describeLimits', () => {
  it('the windows with their length and reset time; why there are none', () => {
    expect(windowLength(300)).toBe('5h');
    expect(windowLength(10080)).toBe('7d');
    expect(windowLength(90)).toBe('90m');
    expect(
      describeLimits({
        checked: true,
        available: true,
        limits: {
          primary: { usedPercent: 43, windowMinutes: 300, resetsAt: 1_800_000_000 },
          secondary: { usedPercent: 7, windowMinutes: 10080 },
        },
      }),
    ).toBe('primary 43% used of 5h, resets 2027-01-15 08:00 UTC; secondary 7% used of 7d');
    expect(describeLimits({ checked: true, available: true, limits: {} })).toBe(
      'no limit reported',
    );
    expect(describeLimits({ checked: true, available: false, reason: 'not_chatgpt_login' })).toBe(
      'unavailable (not a ChatGPT login: codex reads rate limits for ChatGPT logins only)',
    );
    expect(describeLimits({ checked: false, error: 'provider_rejected:spawn_failed' })).toBe(
      'not checked (provider_rejected:spawn_failed)',
    );
  });
});

function freshHome(): IsolatedCodexHome {
  const home = createIsolatedCodexHome('relvo-cli-models-');
  cleanups.push(() => {
    home.dispose();
  });
  return home;
}

describe(
  'relvo-codex models (real codex, no login, nothing sent to a model)',
  { timeout: 120_000 },
  () => {
    it('in a terminal: the table with the default marked; --all adds the hidden ones', async () => {
      const home = freshHome();
      const { env, mark } = cliEnv({ env: homeEnv(home), unset: ['RELVO_CODEX_EXECUTABLE'] });
      const term = await openCliTerminal(['models'], env);
      cleanups.push(() => term.close());
      expect(await term.exitStatus(60_000)).toBe(0);
      const screen = await term.screen();
      expect(screen).toMatch(/^\s+MODEL\s+NAME\s+EFFORTS\s*$/m);
      expect(screen.match(/^\* {2}\S+/gm)).toHaveLength(1);
      expect(screen).toContain('* codex’s default model');
      expect(screen).not.toContain('hidden');
      await term.close();

      const all = await openCliTerminal(['models', '--all'], env);
      cleanups.push(() => all.close());
      expect(await all.exitStatus(60_000)).toBe(0);
      expect(await all.screen()).toMatch(/\bSHOWN\b[\s\S]*\bhidden$/m);
      await all.close();
      expect(await survivorsAfter(mark)).toEqual([]);
    });

    it('--json: one object, the same models as the table, each in the published shape', async () => {
      const home = freshHome();
      const result = await runCli(['models', '--json'], {
        env: homeEnv(home),
        unset: ['RELVO_CODEX_EXECUTABLE'],
      });
      expect(result.code).toBe(0);
      const parsed = JSON.parse(result.stdout) as CodexModelList;
      expect(parsed.truncated).toBe(false);
      expect(parsed.models.filter((m) => m.isDefault)).toHaveLength(1);
      for (const m of parsed.models) {
        expect(Object.keys(m).sort()).toEqual(
          ['defaultEffort', 'displayName', 'efforts', 'hidden', 'id', 'isDefault', 'model'].sort(),
        );
      }
      expect(await survivorsAfter(result.mark)).toEqual([]);
    });
  },
);
