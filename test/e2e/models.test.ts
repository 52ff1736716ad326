/**
 * Models and rate limits on the real binary: `listModels` (codex's bundled catalog, no login, no
 * network; pages and hidden models), `readRateLimits` without a ChatGPT login (the typed
 * unavailable outcome), a bad executable (the start-up classification), and the live
 * `account/rateLimits/updated` codex sends when the model's response carries its rate-limit
 * headers, heard through the provider option `onRateLimits`. Nothing is left running.
 */
import { join } from 'node:path';
import { isProviderRejection } from '@relvo-labs/agent-provider';
import { describe, expect, it } from 'vitest';
import { createCodexProvider, type CodexRateLimits } from '../../src/index.js';
import { requireCodexBinary, textStep, type IsolatedCodexHome } from '../../src/testing/index.js';
import { textInput } from '../support/provider-harness.js';
import { apiKeyLogin, isolatedHomes, OFFLINE } from '../support/codex-login.js';
import { processesWithEnv } from '../support/proc-scan.js';
import { testEnv } from '../support/processes.js';
import { openRealCodex, recordingSink } from '../support/real-codex.js';
import { acceptUnderReview } from '../support/releases.js';

const binary = requireCodexBinary({ kind: 'native' });

function providerIn(home: IsolatedCodexHome, executable = binary.path) {
  return createCodexProvider({
    executable,
    extraArgs: OFFLINE,
    env: home.env(testEnv()),
    requestTimeoutMs: 20_000,
    additionalAppServerVersions: acceptUnderReview(binary.version),
  });
}

const freshHome = isolatedHomes('relvo-models-');

function expectNothingRunning(home: IsolatedCodexHome): void {
  expect(processesWithEnv(`CODEX_HOME=${home.codexHome}`)).toEqual([]);
}

describe('listModels (real binary)', () => {
  it('the catalog without a login: one default, nothing hidden, the same list page by page', async () => {
    const home = freshHome();
    const provider = providerIn(home);
    const whole = await provider.listModels({ cwd: home.workspace });
    expectNothingRunning(home);
    expect(whole.truncated).toBe(false);
    expect(whole.skipped).toBe(0);
    expect(whole.models.length).toBeGreaterThan(3);
    expect(whole.models.filter((m) => m.isDefault)).toHaveLength(1);
    expect(whole.models.every((m) => !m.hidden && m.efforts.includes(m.defaultEffort))).toBe(true);
    // three per page: several requests, each following codex's cursor, the same list in the end
    const paged = await provider.listModels({ cwd: home.workspace, pageSize: 3 });
    expect(paged).toEqual(whole);
    expectNothingRunning(home);
  }, 60_000);

  it('includeHidden adds the hidden models and keeps the others in order', async () => {
    const home = freshHome();
    const provider = providerIn(home);
    const visible = await provider.listModels({ cwd: home.workspace });
    const all = await provider.listModels({ cwd: home.workspace, includeHidden: true });
    expect(all.models.some((m) => m.hidden)).toBe(true);
    expect(all.models.filter((m) => !m.hidden)).toEqual(visible.models);
    expectNothingRunning(home);
  }, 60_000);

  it('a missing executable is spawn_failed for listModels and readRateLimits alike', async () => {
    const home = freshHome();
    const provider = providerIn(home, join(home.home, 'no-such-codex'));
    for (const call of [() => provider.listModels(), () => provider.readRateLimits()]) {
      const error: unknown = await call().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isProviderRejection(error) && error.agentError).toMatchObject({
        code: 'provider_rejected',
        providerCode: 'spawn_failed',
        details: { cause: 'ENOENT' },
      });
      expect(JSON.stringify(error)).not.toContain(home.home);
    }
    expect(provider.abandonedConnectionCount).toBe(0);
  }, 60_000);
});

describe('readRateLimits (real binary)', () => {
  it('no login, then an API-key login: unavailable, not a ChatGPT login', async () => {
    const home = freshHome();
    const provider = providerIn(home);
    const unavailable = { available: false, reason: 'not_chatgpt_login' };
    expect(await provider.readRateLimits({ cwd: home.workspace })).toEqual(unavailable);
    expect(await apiKeyLogin(binary.path, home)).toBe(0);
    expect(await provider.readRateLimits({ cwd: home.workspace })).toEqual(unavailable);
    expectNothingRunning(home);
  }, 60_000);
});

describe('onRateLimits on a live session (real binary, scripted model)', () => {
  it("the response's rate-limit headers reach the host; a turn without them says nothing", async () => {
    const heard: CodexRateLimits[] = [];
    const codex = await openRealCodex({ onRateLimits: (limits) => heard.push(limits) });
    codex.server.enqueue(
      textStep('plain'),
      textStep('limited', {
        headers: {
          'x-codex-primary-used-percent': '42.5',
          'x-codex-primary-window-minutes': '300',
          'x-codex-primary-reset-at': '1800000000',
          'x-codex-secondary-used-percent': '7',
          'x-codex-secondary-window-minutes': '10080',
        },
      }),
    );
    const first = await codex.session.startRun({
      input: textInput('one'),
      sink: recordingSink(),
      runRef: 'rl1',
    });
    expect(await first.completion).toEqual({ outcome: 'succeeded' });
    // measured: codex sends an all-null snapshot on such a turn; it carries nothing to pass on
    expect(heard).toEqual([]);
    const second = await codex.session.startRun({
      input: textInput('two'),
      sink: recordingSink(),
      runRef: 'rl2',
    });
    expect(await second.completion).toEqual({ outcome: 'succeeded' });
    expect(heard).toEqual([
      {
        limitId: 'codex',
        // codex rounds the header's 42.5
        primary: { usedPercent: 43, windowMinutes: 300, resetsAt: 1_800_000_000 },
        secondary: { usedPercent: 7, windowMinutes: 10080 },
      },
    ]);
  }, 60_000);
});
