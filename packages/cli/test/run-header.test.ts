/**
 * The policy `run`'s header names: the model the turn will use — the profile's `run.model` (what
 * `--model` sets) before the session's and the provider's — or codex's own default when nothing
 * sets one.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { Writable } from 'node:stream';
import { join } from 'node:path';
import type { RuntimeProfile } from '@relvo-labs/agent-runtime';
import { describe, expect, it } from 'vitest';
import { chooseConfig } from '../src/host/config.js';
import { printRunHeader, policyOf } from '../src/turn/header.js';
import { createOutput } from '../src/ui/output.js';

const base: RuntimeProfile = {
  provider: 'codex',
  providerOptions: { approvals: 'bridge', sandboxMode: 'workspace-write' },
  sessionOptions: {},
};

describe("run's header", () => {
  it('names the model the turn uses, in order of precedence', () => {
    expect(policyOf(base)).toMatchObject({ sandbox: 'workspace-write', approvals: 'bridge' });
    expect(policyOf(base)?.model).toBeUndefined();
    const provider = { ...base, providerOptions: { ...base.providerOptions, model: 'gpt-p' } };
    expect(policyOf(provider as RuntimeProfile)?.model).toBe('gpt-p');
    const session = { ...provider, sessionOptions: { model: 'gpt-s' } };
    expect(policyOf(session as RuntimeProfile)?.model).toBe('gpt-s');
    const run = { ...session, run: { model: 'gpt-r', effort: 'low' } };
    expect(policyOf(run as RuntimeProfile)).toMatchObject({ model: 'gpt-r', effort: 'low' });
  });

  it('says nothing of a profile of another provider', () => {
    expect(policyOf({ provider: 'scripted' } as RuntimeProfile)).toBeUndefined();
  });
});

describe('--model against a profile that sets its turns’ model', () => {
  it("wins over the profile's run.model, which the header then names", () => {
    const dir = mkdtempSync(join(tmpdir(), 'relvo-header-'));
    const file = join(dir, 'relvo.json');
    writeFileSync(
      file,
      JSON.stringify({
        defaultProfile: 'p',
        profiles: { p: { provider: 'codex', run: { model: 'gpt-profile', effort: 'low' } } },
      }),
    );
    const pick = (model: string | undefined) =>
      chooseConfig({
        configFile: file,
        profile: undefined,
        sandbox: undefined,
        approvals: undefined,
        model,
        cwd: dir,
      });
    const plain = pick(undefined);
    expect(policyOf(plain.config.profiles['p']!)?.model).toBe('gpt-profile');
    const chosen = pick('gpt-cli');
    expect(chosen.config.profiles['p']?.run).toMatchObject({ model: 'gpt-cli', effort: 'low' });
    expect(policyOf(chosen.config.profiles['p']!)?.model).toBe('gpt-cli');
    rmSync(dir, { recursive: true, force: true });
  });
});

/** An Output whose two streams write into `seen.text`. */
function capture(seen: { text: string }) {
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      seen.text += chunk.toString();
      done();
    },
  }) as unknown as NodeJS.WriteStream;
  return createOutput({ json: false, color: false, env: {}, stdout: sink, stderr: sink });
}

describe('the codex line when nothing names the model', () => {
  it('waits for the model codex reports for the thread, and prints it once', () => {
    const seen = { text: '' };
    const out = capture(seen);
    const pending = printRunHeader(out, { name: 'p', source: 'built-in', value: base }, '/w');
    expect(pending).toBeDefined();
    expect(seen.text).not.toContain('model');
    let cleared = 0;
    const clear = () => {
      cleared++;
    };
    expect(pending!({ type: 'diagnostic', detail: { kind: 'other' } }, clear)).toBe(false);
    const settings = {
      type: 'diagnostic',
      level: 'info',
      message: 'codex thread settings',
      detail: { kind: 'thread_settings', model: 'gpt-reported' },
    };
    expect(pending!(settings, clear)).toBe(true);
    expect(seen.text).toContain('model gpt-reported (codex’s default) · sandbox workspace-write');
    expect(pending!(settings, clear)).toBe(false);
    expect(cleared).toBe(1);
    expect(seen.text.match(/gpt-reported/g)).toHaveLength(1);
  });

  it('a named model is printed at once and nothing waits', () => {
    const seen = { text: '' };
    const out = capture(seen);
    const named = { ...base, providerOptions: { ...base.providerOptions, model: 'gpt-p' } };
    expect(
      printRunHeader(out, { name: 'p', source: 'built-in', value: named }, '/w'),
    ).toBeUndefined();
    expect(seen.text).toContain('model gpt-p · sandbox');
  });
});
