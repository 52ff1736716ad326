/**
 * `createCodexProvider()`: the SPI's AgentProvider for `codex app-server`. This file assembles
 * the provider: its options, the transport factory, the abandoned-connection ledger, and the
 * session-less questions (account, models, rate limits) that each run on a connection of their
 * own. Opening a session (create, resume, fork) is `open-session.ts`.
 */
import type {
  AgentProvider,
  ProviderDescriptor,
  ProviderOptionSchemas,
  ProviderRecoveryRecord,
} from '@relvo-labs/agent-provider';
import { readCodexAccount, type CodexAccountStatus, type ReadAccountInit } from './account.js';
import {
  listCodexModels,
  listModelsInitSchema,
  type CodexModelList,
  type ListModelsInit,
} from './models.js';
import type { CodexProbe } from './probe.js';
import { loginWithApiKey, logoutOfCodex, type LoginInit, type LogoutInit } from './login.js';
import {
  startChatgptLogin,
  type ChatgptLoginInit,
  type CodexChatgptLogin,
} from './chatgpt-login.js';
import {
  readCodexRateLimits,
  type CodexRateLimitsRead,
  type ReadRateLimitsInit,
} from './rate-limits.js';
import { permissionsToolArgs } from './approval-policy.js';
import { buildCodexDescriptor } from './descriptor.js';
import {
  codexProviderOptionsSchema,
  codexSessionOptionsSchema,
  type CodexProviderOptions,
  type ResolvedCodexProviderOptions,
} from './options.js';
import { openConnection } from './connect.js';
import { AbandonedConnections, type ReleaseSummary } from './session/abandoned.js';
import { openSession, type CodexProviderSession, type CodexSessionInit } from './open-session.js';
import { parseOptions } from './shared/parse-options.js';
import { eventsArgs } from './events/schemas.js';
import { commandEnvironmentArgs, inheritedEnvironment } from './transport/environment.js';
import { createCodexStdioTransport } from './transport/stdio.js';
import type { CodexTransportFactory } from './transport/types.js';

export type { CodexProviderSession, CodexSessionInit } from './open-session.js';

export interface CodexProvider extends AgentProvider {
  createSession(init: CodexSessionInit): Promise<CodexProviderSession>;
  /** Present only with `persistence: 'thread'` (ADR-0016). */
  resumeSession?(
    record: ProviderRecoveryRecord,
    init: CodexSessionInit,
  ): Promise<CodexProviderSession>;
  /**
   * Present only with `persistence: 'thread'` (ADR-0041): a new persisted thread (`thread/fork`)
   * holding the record's thread through its last turn; the record's own thread is unchanged.
   */
  forkSession?(
    record: ProviderRecoveryRecord,
    init: CodexSessionInit,
  ): Promise<CodexProviderSession>;
  /**
   * Whether codex is logged in, asked of codex itself on a connection of its own (initialize,
   * `account/read`, close); nothing reaches a model. Rejects like `createSession` when codex
   * cannot be started or is outside the reviewed window.
   */
  readAccount(init?: ReadAccountInit): Promise<CodexAccountStatus>;
  /**
   * Logs codex in with an API key (`account/login/start`, stored in codex's CODEX_HOME) on a
   * connection of its own and resolves with the account state codex reports after. The key is
   * never logged or echoed; codex does not check it (a wrong key fails the first turn).
   */
  login(init: LoginInit): Promise<CodexAccountStatus>;
  /** Logs codex out (`account/logout`: its stored login is removed); the account state after. */
  logout(init?: LogoutInit): Promise<CodexAccountStatus>;
  /**
   * Starts codex's ChatGPT browser login: resolves with the address to open once codex gave it;
   * the login's connection stays open until `done` (codex ended it, `cancel()`, or `timeoutMs`).
   */
  startChatgptLogin(init?: ChatgptLoginInit): Promise<CodexChatgptLogin>;
  /**
   * The models codex offers (`model/list`, its bundled catalog: no login needed), on a
   * connection of its own; pages followed up to a cap, each model reduced to `CodexModel`.
   */
  listModels(init?: ListModelsInit): Promise<CodexModelList>;
  /**
   * The account's rate limits (`account/rateLimits/read`) on a connection of its own, or
   * `{ available: false, reason: 'not_chatgpt_login' }`: codex reads them for a ChatGPT login only.
   */
  readRateLimits(init?: ReadRateLimitsInit): Promise<CodexRateLimitsRead>;
  /** Retries the teardown of every connection a failed handshake could not close. */
  releaseAbandonedConnections(): Promise<ReleaseSummary>;
  readonly abandonedConnectionCount: number;
}

export type CodexProviderFactory = ((options?: CodexProviderOptions) => CodexProvider) & {
  /** The option schemas, so a runtime refuses a bad profile when it loads its config. */
  readonly optionSchemas: ProviderOptionSchemas;
};

const create = (input: CodexProviderOptions = {}): CodexProvider => {
  const parsed = parseOptions(codexProviderOptionsSchema, input, 'invalid codex provider options');
  if (!parsed.ok) throw parsed.rejection;
  const options = parsed.data;
  const descriptor = buildCodexDescriptor(options);
  const abandoned = new AbandonedConnections();
  const spawning = options.transport === undefined;
  const factory: CodexTransportFactory = options.transport ?? defaultTransportFactory(options);
  /** A session-less question's connection (src/probe.ts). */
  const probeOf = (cwd: string | undefined): CodexProbe => ({
    connect: () => openConnection(factory, cwd ?? process.cwd(), options),
    handshake: {
      clientName: options.clientName,
      clientVersion: options.clientVersion,
      additionalVersions: options.additionalAppServerVersions,
    },
    abandoned,
  });

  const resume =
    options.persistence === 'thread'
      ? {
          resumeSession(
            record: ProviderRecoveryRecord,
            init: CodexSessionInit,
          ): Promise<CodexProviderSession> {
            return openSession(init, options, factory, spawning, abandoned, { record });
          },
          forkSession(
            record: ProviderRecoveryRecord,
            init: CodexSessionInit,
          ): Promise<CodexProviderSession> {
            return openSession(init, options, factory, spawning, abandoned, {
              record,
              fork: true,
            });
          },
        }
      : {};
  return {
    ...resume,
    describe(): ProviderDescriptor {
      return descriptor;
    },
    createSession(init: CodexSessionInit): Promise<CodexProviderSession> {
      return openSession(init, options, factory, spawning, abandoned);
    },
    readAccount: (init = {}) => readCodexAccount(probeOf(init.cwd)),
    login: (init) => loginWithApiKey(probeOf, init),
    logout: (init = {}) => logoutOfCodex(probeOf, init),
    startChatgptLogin: (init = {}) => startChatgptLogin(probeOf, init),
    listModels: async (init = {}) => {
      const parsed = parseOptions(listModelsInitSchema, init, 'invalid listModels options');
      if (!parsed.ok) throw parsed.rejection;
      const { cwd, ...rest } = parsed.data;
      return listCodexModels(probeOf(cwd), rest);
    },
    readRateLimits: (init = {}) => readCodexRateLimits(probeOf(init.cwd)),
    releaseAbandonedConnections: () => abandoned.releaseAll(),
    get abandonedConnectionCount() {
      return abandoned.count;
    },
  };
};

export const createCodexProvider: CodexProviderFactory = Object.assign(create, {
  optionSchemas: {
    providerOptions: codexProviderOptionsSchema,
    sessionOptions: codexSessionOptionsSchema,
  },
});

function defaultTransportFactory(options: ResolvedCodexProviderOptions): CodexTransportFactory {
  return ({ cwd }) =>
    createCodexStdioTransport({
      executable: options.executable,
      // after the host's arguments, right before the subcommand (a host that wants its own
      // shell_environment_policy sets commandEnvironment: 'inherit')
      extraArgs: [
        ...options.extraArgs,
        ...commandEnvironmentArgs(options.commandEnvironment),
        ...eventsArgs(options.events),
        ...permissionsToolArgs(options),
      ],
      cwd,
      parentDeathSignal: options.parentDeathSignal,
      env: options.env ?? inheritedEnvironment(process.env, options.inheritEnv),
    });
}
