/**
 * `relvo-codex run` and `doctor` on codex's login, and a run that ends and says why: the login is
 * asked of codex itself before a turn, codex's retries are shown with their count and cause, and
 * an `unauthorized` failure or a stall after retries comes with the fix. Real codex, scripted
 * model on 127.0.0.1.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  createIsolatedCodexHome,
  httpErrorStep,
  responseFailedStep,
  type IsolatedCodexHome,
} from '@relvo-labs/agent-provider-codex/testing';
import { cliEnv, runCli, survivorsAfter } from './support/cli.js';
import { apiKeyLoggedInHome, loopbackModelHost } from './support/codex-login.js';
import { scriptedRunSetup } from './support/scripted-config.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(providerOptions: Record<string, unknown>, codexExtra: string[]) {
  const { env, mark } = cliEnv();
  const s = await scriptedRunSetup(env, providerOptions, codexExtra);
  cleanups.push(() => s.cleanup());
  return { ...s, env, mark };
}

function freshHome(): IsolatedCodexHome {
  const home = createIsolatedCodexHome('relvo-cli-login-');
  cleanups.push(() => {
    home.dispose();
  });
  return home;
}

describe('relvo-codex run: the login first, retries counted, failures with their fix', () => {
  it('codex not logged in: exit 1 before any turn, naming `codex login`; no model request', async () => {
    // the scripted provider, but one that needs an OpenAI login codex does not have
    const s = await setup({}, ['model_providers.scripted.requires_openai_auth=true']);
    const result = await runCli(['run', 'hi', ...s.runArgs], { env: s.env });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('codex is not logged in');
    expect(result.stderr).toContain('`codex login`');
    expect(s.server.requests).toHaveLength(0);
    expect(await survivorsAfter(result.mark)).toEqual([]);
  });

  it('codex retrying: each retry shown with its count and cause; the stall ends the run with what to do', async () => {
    const retries = 80;
    const s = await setup({ stallTimeoutMs: 1_500 }, [
      'model_providers.scripted.request_max_retries=0',
      `model_providers.scripted.stream_max_retries=${String(retries)}`,
    ]);
    for (let i = 0; i <= retries; i += 1) {
      s.server.enqueue(
        responseFailedStep('rate_limit_exceeded', 'Rate limit reached. Please try again in 200ms.'),
      );
    }
    const result = await runCli(['run', 'hi', ...s.runArgs], { env: s.env });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'codex: the model request failed (stream_disconnected); retrying — retry 1',
    );
    // and how long the turn has waited by then
    expect(result.stderr).toMatch(/retrying — retry 1 · \d+ s into the turn/);
    expect(result.stderr).toMatch(/turn\s+failed: provider_unavailable/);
    expect(result.stderr).toMatch(
      /what to do: codex retried the model request \d+ time\(s\) \(stream_disconnected\)/,
    );
    expect(s.server.requests.length).toBeLessThan(retries);
    expect(await survivorsAfter(result.mark)).toEqual([]);
  });

  it('an unauthorized failure (HTTP 401) comes with the login command', async () => {
    const s = await setup({}, []);
    s.server.enqueue(httpErrorStep(401));
    const result = await runCli(['run', 'hi', ...s.runArgs], { env: s.env });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      "what to do: codex's login was refused: log in with `codex login`",
    );
    expect(await survivorsAfter(result.mark)).toEqual([]);
  });
});

const NO_LIMITS = { checked: true, available: false, reason: 'not_chatgpt_login' };

describe('relvo-codex doctor: the login and the rate limits', () => {
  it('a CODEX_HOME with no login: a problem whose next step is `codex login`', async () => {
    const home = freshHome();
    const result = await runCli(['doctor', '--json'], {
      env: { HOME: home.home, CODEX_HOME: home.codexHome },
      unset: ['RELVO_CODEX_EXECUTABLE', 'OPENAI_API_KEY', 'CODEX_API_KEY'],
    });
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as {
      login: unknown;
      limits: unknown;
      problems: { problem: string; nextStep: string }[];
    };
    expect(report.login).toEqual({
      checked: true,
      loggedIn: false,
      requiresOpenaiAuth: true,
      authMode: null,
    });
    // codex reads rate limits for a ChatGPT login only: said, and not a problem
    expect(report.limits).toEqual(NO_LIMITS);
    expect(report.problems).toEqual([
      {
        problem: 'codex is not logged in (its model provider needs an OpenAI login)',
        nextStep: expect.stringContaining('`codex login`'),
      },
    ]);
    expect(await survivorsAfter(result.mark)).toEqual([]);
  });

  it('after `codex login --with-api-key`: logged in, no problem', async () => {
    const home = await apiKeyLoggedInHome();
    cleanups.push(() => {
      home.dispose();
    });
    const host = await loopbackModelHost();
    cleanups.push(() => host.close());
    const result = await runCli(['doctor', '--json'], {
      env: { HOME: home.home, CODEX_HOME: home.codexHome, ...host.env },
      unset: ['RELVO_CODEX_EXECUTABLE'],
    });
    const report = JSON.parse(result.stdout) as {
      login: unknown;
      limits: unknown;
      problems: unknown[];
    };
    expect(report.login).toEqual({
      checked: true,
      loggedIn: true,
      requiresOpenaiAuth: true,
      authMode: 'apiKey',
    });
    expect(report.limits).toEqual(NO_LIMITS);
    expect(report.problems).toEqual([]);
    expect(result.code).toBe(0);
  });
});
