import { agentError, ProviderRejection } from '../../errors.js';
import type { AgentProvider, ProviderSessionInit } from '../../interfaces.js';
import type { ProviderRecoveryRecord } from '../../schemas/recovery.js';
import type { RunOptions } from '../../schemas/turn.js';
import { isJsonObject } from '../../json.js';
import { canDeclareHostTools } from '../../host-capabilities.js';
import type { ProviderDescriptor } from '../../schemas/descriptor.js';
import type { ScriptedRun } from './run.js';
import { ScriptedSession } from './session.js';
import {
  SCRIPTED_PROVIDER_VERSION,
  scriptedDescriptor,
  scriptedProviderOptionsSchema,
  type ScriptedProviderOptions,
} from './steps.js';

/** Drain gives up after this many passes without reaching a quiescent state. */
export const MAX_DRAIN_PASSES = 64;

export interface ScriptedRunRecord {
  readonly runRef: string;
  readonly sessionRef: string;
  /** The turn's text parts joined together (the script key). */
  readonly text: string;
  /** The run's own model, effort and summary, when it set any. */
  readonly options?: RunOptions;
}

export interface ScriptedForkRecord {
  /** The new session. */
  readonly sessionRef: string;
  /** The session whose record it was forked from. */
  readonly from: string;
}

export interface ScriptedInterruptRecord {
  readonly runRef: string;
  readonly reason?: string;
}

export interface ScriptedSteerRecord {
  readonly runRef: string;
  /** The steer's text parts joined together. */
  readonly text: string;
}

export interface ScriptedController {
  /** Steps every run until each is finished or waiting on an interaction. */
  drain(): void;
  readonly startedRuns: readonly ScriptedRunRecord[];
  pendingInteractionRefs(): string[];
  readonly disposedSessions: readonly string[];
  readonly interruptedRuns: readonly ScriptedInterruptRecord[];
  /** Accepted steers, in order. */
  readonly steeredRuns: readonly ScriptedSteerRecord[];
  /** Sessions opened by `forkSession`, in order. */
  readonly forkedSessions: readonly ScriptedForkRecord[];
}

export interface ScriptedProvider {
  readonly provider: AgentProvider;
  readonly controller: ScriptedController;
}

/**
 * A deterministic AgentProvider for runtime tests (docs/spi.md §19.1): no timers, no I/O. Runs advance
 * only when the test calls `controller.drain()`.
 */
export function createScriptedProvider(input: ScriptedProviderOptions = {}): ScriptedProvider {
  const options = scriptedProviderOptionsSchema.parse(input);
  const descriptor: ProviderDescriptor = scriptedDescriptor(options);
  const sessions: ScriptedSession[] = [];
  const startedRuns: ScriptedRunRecord[] = [];
  const interruptedRuns: ScriptedInterruptRecord[] = [];
  const disposedSessions: string[] = [];
  const steeredRuns: ScriptedSteerRecord[] = [];
  const forkedSessions: ScriptedForkRecord[] = [];
  let sessionCounter = 0;

  const host = {
    providerId: options.providerId,
    providerVersion: SCRIPTED_PROVIDER_VERSION,
    interruptMode: options.interruptMode,
    supportsRecovery: options.supportsRecovery,
    supportsSteer: options.supportsSteer,
    supportsRevert: options.supportsRevert,
    supportsHistory: options.supportsHistory,
    supportsRunOptions: options.supportsRunOptions,
    scriptFor: (text: string) => options.scripts[text] ?? options.defaultScript,
    recordStarted: (run: ScriptedRun, sessionRef: string, text: string, set: RunOptions) => {
      const record = Object.keys(set).length === 0 ? {} : { options: Object.freeze({ ...set }) };
      startedRuns.push(Object.freeze({ runRef: run.runRef, sessionRef, text, ...record }));
    },
    recordInterrupted: (run: ScriptedRun, reason: string | undefined) => {
      interruptedRuns.push(
        Object.freeze(
          reason === undefined ? { runRef: run.runRef } : { runRef: run.runRef, reason },
        ),
      );
    },
    recordDisposed: (sessionRef: string) => {
      disposedSessions.push(sessionRef);
    },
    recordSteered: (run: ScriptedRun, text: string) => {
      steeredRuns.push(Object.freeze({ runRef: run.runRef, text }));
    },
  };

  const fork = (record: ProviderRecoveryRecord, init: ProviderSessionInit) => {
    const from = (record as { opaque?: { sessionRef?: unknown } } | undefined)?.opaque?.sessionRef;
    if (record.providerId !== options.providerId || typeof from !== 'string') {
      return Promise.reject(
        new ProviderRejection(
          agentError('invalid_request', 'the record was not exported by this scripted provider'),
        ),
      );
    }
    return open(init).then((session) => {
      forkedSessions.push(Object.freeze({ sessionRef: session.sessionRef, from }));
      return session;
    });
  };

  const provider: AgentProvider = {
    describe: () => descriptor,
    ...(options.supportsRecovery && options.supportsFork ? { forkSession: fork } : {}),
    createSession: (init: ProviderSessionInit) => open(init),
  };
  function open(init: ProviderSessionInit): Promise<ScriptedSession> {
    // Strict options: this provider defines none, so any key is unknown.
    if (!isJsonObject(init.options) || Object.keys(init.options).length > 0) {
      // keys are the host's own words: named so a typo can be found; values are never copied
      const keys = isJsonObject(init.options) ? Object.keys(init.options).slice(0, 16) : [];
      return Promise.reject(
        new ProviderRejection(
          agentError(
            'invalid_request',
            keys.length === 0
              ? 'the scripted provider accepts no session options'
              : `the scripted provider accepts no session options (unknown: ${keys.join(', ')})`,
            { details: { unknownKeys: keys } },
          ),
        ),
      );
    }
    // tools it does not declare are refused, never silently dropped
    const tools = canDeclareHostTools(descriptor, init.tools?.length ?? 0);
    if (!tools.ok) return Promise.reject(new ProviderRejection(tools.error));
    sessionCounter += 1;
    const session = new ScriptedSession(`scripted-session-${sessionCounter}`, init.sink, host);
    sessions.push(session);
    if (!options.supportsRecovery) {
      // Recovery not declared: the optional method is absent, not merely unused.
      Object.defineProperty(session, 'exportRecoveryRecord', { value: undefined });
    }
    if (!options.supportsRevert) Object.defineProperty(session, 'revert', { value: undefined });
    if (!options.supportsHistory) Object.defineProperty(session, 'history', { value: undefined });
    return Promise.resolve(session);
  }

  const controller: ScriptedController = {
    drain() {
      for (let pass = 0; pass < MAX_DRAIN_PASSES; pass += 1) {
        let progressed = false;
        for (const session of [...sessions]) {
          for (const run of session.liveRuns) {
            if (run.advance()) progressed = true;
          }
        }
        if (!progressed) return;
      }
      throw new Error(
        `scripted provider: no quiescent state after ${MAX_DRAIN_PASSES} drain passes`,
      );
    },
    startedRuns,
    pendingInteractionRefs: () => sessions.flatMap((s) => s.pendingRefs()),
    disposedSessions,
    interruptedRuns,
    steeredRuns,
    forkedSessions,
  };

  return { provider, controller };
}
