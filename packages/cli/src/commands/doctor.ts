/**
 * `relvo-codex doctor`: which codex, whether it is in the reviewed window, how long a
 * handshake takes, what the app-server group costs, where the event log is — and one next
 * step per problem found. The handshake runs against the scripted model on 127.0.0.1 with a
 * throw-away CODEX_HOME; the login check asks codex itself (`account/read`, the person's own
 * CODEX_HOME, read only, plugin sync off) and sends nothing to a model. The one connection out is
 * the model host check (`codex/reach.ts`): TCP and TLS only, nothing sent. The report's shape and
 * rendering are `doctor-report.ts`.
 */
import { accessSync, constants, existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { createCodexProvider } from '@relvo-labs/agent-provider-codex';
import {
  codexConfigArgs,
  createIsolatedCodexHome,
  ScriptedModelServer,
} from '@relvo-labs/agent-provider-codex/demo-model';
import { checkLimits } from '../codex/limits.js';
import { CODEX_EXECUTABLE_ENV, findCodex } from '../codex/locate.js';
import { accountProvider, checkLogin, loginHint, NOT_LOGGED_IN } from '../codex/login.js';
import {
  describeProbeFailure,
  installHint,
  isInWindow,
  outsideWindowAdvice,
  probeCodexVersion,
  windowPosition,
  windowSummary,
} from '../codex/version.js';
import { checkReachable, modelBaseUrl, type ReachCheck } from '../codex/reach.js';
import { defaultEventLogPath } from '../paths.js';
import type { DoctorProblem, DoctorReport } from './doctor-report.js';

export const HANDSHAKE_TIMEOUT_MS = 30_000;

export interface DoctorOptions {
  readonly codex?: string | undefined;
  readonly env?: NodeJS.ProcessEnv;
}

function writableDir(path: string): boolean {
  // the nearest existing ancestor decides whether the log can be created
  let dir = dirname(path);
  for (;;) {
    if (existsSync(dir)) {
      try {
        accessSync(dir, constants.W_OK);
        return true;
      } catch {
        return false;
      }
    }
    const up = dirname(dir);
    if (up === dir) return false;
    dir = up;
  }
}

function errorToken(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const e = error as { code?: unknown; providerCode?: unknown; error?: unknown };
    const inner = (e.error ?? e) as { code?: unknown; providerCode?: unknown };
    const parts = [inner.code, inner.providerCode].filter((x) => typeof x === 'string');
    if (parts.length > 0) return parts.join(':');
  }
  return error instanceof Error ? error.name : 'unknown_error';
}

async function measureHandshake(
  executable: string,
  env: NodeJS.ProcessEnv,
): Promise<{
  handshake: DoctorReport['handshake'];
  resources: DoctorReport['resources'];
}> {
  const iso = createIsolatedCodexHome('relvo-doctor-');
  const server = await ScriptedModelServer.start();
  try {
    const provider = createCodexProvider({
      executable,
      extraArgs: codexConfigArgs({ baseUrl: server.baseUrl }),
      env: iso.env(env),
      requestTimeoutMs: HANDSHAKE_TIMEOUT_MS,
    });
    const started = performance.now();
    let session;
    try {
      session = await provider.createSession({
        options: {},
        workspace: { root: iso.workspace, ownership: 'borrowed' },
        sink: { emit: () => undefined },
      });
    } catch (error) {
      return { handshake: { ok: false, error: errorToken(error) }, resources: null };
    }
    const ms = Math.round(performance.now() - started);
    try {
      const usage = await session.resourceUsage();
      return {
        handshake: { ok: true, ms },
        resources:
          usage === undefined
            ? null
            : {
                rssBytes: usage.rssBytes,
                cpuPercent: Math.round(usage.cpuPercent * 10) / 10,
                processes: usage.processes,
              },
      };
    } finally {
      await session.dispose();
    }
  } finally {
    await server.close();
    iso.dispose();
  }
}

export async function runDoctorChecks(options: DoctorOptions = {}): Promise<DoctorReport> {
  const env = options.env ?? process.env;
  const problems: DoctorProblem[] = [];
  const window = windowSummary();
  const eventLogPath = defaultEventLogPath(env);
  const eventLog = {
    path: eventLogPath,
    exists: existsSync(eventLogPath),
    writable: writableDir(eventLogPath),
  };
  if (!eventLog.writable) {
    problems.push({
      problem: 'the event log directory is not writable',
      nextStep: `set RELVO_CODEX_EVENT_LOG to a writable file path (now: ${eventLogPath})`,
    });
  }

  const located = findCodex({ option: options.codex, env });
  if (!located.found) {
    problems.push({
      problem:
        located.source === 'pinned'
          ? `the pinned @openai/codex is not installed (${located.reason})`
          : `${located.source === 'option' ? '--codex' : CODEX_EXECUTABLE_ENV} does not name an executable`,
      nextStep:
        located.source === 'pinned'
          ? 'run `npm ci` (or reinstall @relvo-labs/relvo-codex) so @openai/codex is installed'
          : `point it at a codex executable, or run \`${installHint()}\``,
    });
    return {
      codex: {
        found: false,
        path: located.requested ?? null,
        kind: null,
        source: located.source,
        version: null,
      },
      inWindow: false,
      windowPosition: null,
      window,
      installHint: installHint(),
      handshake: { ok: false, skipped: 'no codex' },
      resources: null,
      login: { checked: false, skipped: 'no codex' },
      limits: { checked: false, skipped: 'no codex' },
      reach: { checked: false, skipped: 'no codex' },
      eventLog,
      problems,
    };
  }

  const probe = await probeCodexVersion(located.path, env);
  const version = probe.ok ? probe.version : null;
  const inWindow = version !== null && isInWindow(version);
  if (!probe.ok) {
    problems.push({
      problem: describeProbeFailure(located.path, probe.reason),
      nextStep: `check the executable, or install a reviewed codex: \`${installHint()}\``,
    });
  } else if (!inWindow) {
    problems.push(outsideWindowAdvice(probe.version));
  }

  let handshake: DoctorReport['handshake'] = { ok: false, skipped: 'outside the window' };
  let resources: DoctorReport['resources'] = null;
  if (inWindow) {
    ({ handshake, resources } = await measureHandshake(located.path, env));
    if (!handshake.ok) {
      problems.push({
        problem: `the app-server handshake failed (${'error' in handshake ? handshake.error : ''})`,
        nextStep: 'run it by hand to see its stderr: `' + located.path + ' app-server --help`',
      });
    }
  }

  const asked = inWindow ? accountProvider(located.path, env, HANDSHAKE_TIMEOUT_MS) : undefined;
  const skipped = { checked: false, skipped: 'outside the window' } as const;
  const login: DoctorReport['login'] = asked ? await checkLogin(asked, process.cwd()) : skipped;
  const limits: DoctorReport['limits'] = asked ? await checkLimits(asked, process.cwd()) : skipped;
  if (login.checked && !login.loggedIn) {
    problems.push({ problem: NOT_LOGGED_IN, nextStep: loginHint(located.path) });
  } else if (!login.checked && 'error' in login) {
    problems.push({
      problem: `codex could not say whether it is logged in (${login.error})`,
      nextStep: `run \`${located.path} login status\``,
    });
  }

  const reach = await checkModelHost(env, login);
  if (reach.checked && !reach.ok) {
    problems.push({
      problem: `the model provider's host ${reach.url} cannot be reached (${reach.stage}: ${reach.error}); a turn would retry for minutes`,
      nextStep:
        'check the network, a proxy or firewall, and OPENAI_BASE_URL; `relvo-codex run --timeout 2m` bounds a run meanwhile',
    });
  }

  return {
    login,
    limits,
    reach,
    codex: {
      found: true,
      path: located.path,
      kind: located.kind,
      source: located.source,
      version,
      ...(probe.ok ? {} : { versionError: describeProbeFailure(located.path, probe.reason) }),
    },
    inWindow,
    windowPosition: version === null ? null : windowPosition(version),
    window,
    installHint: inWindow ? null : installHint(),
    handshake,
    resources,
    eventLog,
    problems,
  };
}

/** The host the model requests go to, when doctor can tell which (see `codex/reach.ts`). */
function checkModelHost(env: NodeJS.ProcessEnv, login: DoctorReport['login']): Promise<ReachCheck> {
  const authMode = login.checked && 'authMode' in login ? login.authMode : undefined;
  const url = modelBaseUrl(env, authMode);
  if (url === undefined) {
    return Promise.resolve({
      checked: false,
      skipped: 'no OPENAI_BASE_URL and no OpenAI login to tell the host by',
    } as const);
  }
  return checkReachable(url);
}
