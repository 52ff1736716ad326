/**
 * `createAgentRuntime`: claims the store, settles what a dead process left open, and builds the
 * runtime object: the live sessions (one map, owned here), open, resume and fork of a session
 * (their checks are `resume.ts` and `fork.ts`), reads, subscriptions and shutdown. Its public
 * types are `runtime-api.ts`.
 */
import { systemClock, within } from './clock.js';
import { parseRuntimeConfig } from './config.js';
import { configError, rejection, RuntimeError } from './errors.js';
import { resolveWorkspace } from './workspace.js';
import { randomId } from './ids.js';
import { agentRuntimeOptionsSchema, checkOptions } from './options.js';
import { appendSettlement, settleAbandonedSessions, type AbandonedSessions } from './recovery.js';
import { ProviderRegistry } from './registry.js';
import type { AgentRuntime, AgentRuntimeOptions } from './runtime-api.js';
import { planFork } from './fork.js';
import { planResume, takeOverToResume, takeoverAbandoned, type ResumePlan } from './resume.js';
import { environmentSecrets } from './session/durable.js';
import { SessionLog } from './session/log.js';
import { EventWriter } from './session/writer.js';
import { SessionImpl, type RuntimeSession, type SessionContext } from './session/session.js';
import { WarmSessions } from './session/warm.js';
import { openTelemetry } from './telemetry/setup.js';
import { createMemoryEventStore } from './store/memory.js';
import { shutDownRuntime } from './shutdown.js';
import { checkCursor, parseMetadata } from './session-inputs.js';
import { routedMethods } from './commands/methods.js';
import { CommandRouter } from './commands/router.js';
import { settleDeadOwner } from './commands/dead-owner.js';
import {
  subscribeToSession,
  type EventSubscription,
  type SubscribeOptions,
} from './subscription.js';

/**
 * Creates a runtime: parses the host config, checks every profile names a registered
 * provider, claims the store and records sessions an earlier process left open as failed.
 */
export async function createAgentRuntime(options: AgentRuntimeOptions): Promise<AgentRuntime> {
  checkOptions(agentRuntimeOptionsSchema, options, 'createAgentRuntime options');
  const config = parseRuntimeConfig(options.config);
  const registry = new ProviderRegistry(options.providers, config);
  const clock = options.clock ?? systemClock;
  const ids = options.ids ?? randomId;
  const store = options.store ?? createMemoryEventStore();
  const closeGraceMs = options.closeGraceMs ?? 10_000;
  const warm = new WarmSessions(registry, config, clock);
  // before the store is claimed: a missing API refuses here, with nothing to give back
  const telemetry = openTelemetry(options.telemetry);
  await store.claim();
  const writer = new EventWriter(store, clock, ids, telemetry);
  let recovered: AbandonedSessions;
  let recordKey: Buffer | undefined;
  try {
    recordKey = store.recordKey?.();
    recovered = await settleAbandonedSessions(store, writer);
  } catch (error) {
    await store.close();
    throw error;
  }
  // a session settled here at start does not run here until resumed: its lease is given back, so
  // another process may resume it now, and a command for it is taken over by its caller
  for (const sessionId of recovered.resumable) await store.relinquish?.(sessionId);
  warm.fillAll();

  const live = new Map<string, { session: SessionImpl; log: SessionLog }>();
  const resuming = new Map<string, Promise<RuntimeSession>>();
  const secrets = environmentSecrets();
  let shutdownAttempt: Promise<void> | undefined;
  let shutDown = false;
  let refusing = false;

  // a session whose lease this runtime lost is another's now: a new reader follows the store
  const ownedLog = (sessionId: string): SessionLog | undefined => {
    const log = live.get(sessionId)?.log;
    return log?.failed?.reason === 'lease_lost' ? undefined : log;
  };
  const subscribe = (sessionId: string, opts?: SubscribeOptions): EventSubscription =>
    subscribeToSession(sessionId, () => Promise.resolve({ store, log: ownedLog(sessionId) }), opts);

  const refuseWhenShuttingDown = (): void => {
    if (refusing) {
      throw new RuntimeError('session_closed', 'runtime_shut_down', 'the runtime is shutting down');
    }
  };
  const sessionOf = (
    sessionId: string,
    log: SessionLog,
    profile: string,
    workspace: SessionContext['workspace'],
    resumeFrom?: SessionContext['resumeFrom'],
    forkFrom?: SessionContext['forkFrom'],
  ): SessionImpl => {
    const session = new SessionImpl({
      id: sessionId,
      log,
      clock,
      ids,
      registry,
      defaultProfile: profile,
      workspace,
      closeGraceMs,
      secrets,
      ...(recordKey === undefined ? {} : { recordKey }),
      warm,
      ...(resumeFrom === undefined ? {} : { resumeFrom }),
      ...(forkFrom === undefined ? {} : { forkFrom }),
      ...(options.toolFunctions === undefined ? {} : { toolFunctions: options.toolFunctions }),
      subscribe: (o) => subscribe(sessionId, o),
      onClosed: () => {
        live.delete(sessionId);
      },
    });
    // a log that failed for good records nothing more: its providers must not go on working,
    // and its lease must not keep the session from a runtime that can write it
    log.onFailed((error) => {
      void session.disposeAfterFailure(error);
      void store.relinquish?.(sessionId);
    });
    return session;
  };
  // sessions this runtime took over and holds; any other must be taken over first
  const settled = new Set<string>();
  // a lease lost under a live session ends it here: its readers get the typed error
  const stopLeaseWatch = store.onLeaseLost?.((sessionId, error) => {
    settled.delete(sessionId);
    live.get(sessionId)?.log.fail(error);
  });
  const resume = async (sessionId: string): Promise<RuntimeSession> => {
    const takeover = await takeOverToResume(store, writer, settled, sessionId);
    // a takeover that does not complete leaves the log as it found it, and the lease free
    const giveUp = async (): Promise<void> => {
      if (takeover !== undefined) await store.relinquish?.(sessionId);
    };
    let plan: ResumePlan;
    try {
      plan = await planResume(store, registry, config, sessionId, recordKey);
      refuseWhenShuttingDown();
    } catch (error) {
      await giveUp();
      throw error;
    }
    const log = new SessionLog(writer, sessionId, plan.lastSequence);
    if (takeover !== undefined) {
      // numbered first, written only once the provider sessions are open (ADR-0049)
      log.hold();
      appendSettlement(log, takeover.summary.state, takeover.history, true);
    }
    const { defaultProfile, workspace } = plan.opened;
    const session = sessionOf(sessionId, log, defaultProfile, workspace, new Map(plan.records));
    live.set(sessionId, { session, log });
    try {
      await session.resumeProviders([...plan.records.keys()]);
    } catch (error) {
      live.delete(sessionId);
      if (takeover === undefined) await log.durable().catch(() => undefined);
      else {
        log.discard(takeoverAbandoned());
        await giveUp();
      }
      throw error;
    }
    if (takeover !== undefined) {
      log.release();
      settled.add(sessionId);
    }
    await log.durable();
    // what the previous owner accepted and never settled is settled as unknown, then the
    // commands still pending for the session are carried out here
    // (also for a session this runtime took at its start: its owner had died then, too)
    await router.owner.settleOrphans(sessionId).catch(() => undefined);
    return session;
  };

  const fork = async (sourceId: string): Promise<RuntimeSession> => {
    await live.get(sourceId)?.session.recordProviders();
    const plan = await planFork(store, registry, config, sourceId, recordKey);
    refuseWhenShuttingDown();
    const sessionId = ids('ses');
    const log = new SessionLog(writer, sessionId);
    const { defaultProfile, workspace } = plan.opened;
    const session = sessionOf(sessionId, log, defaultProfile, workspace, undefined, plan.records);
    log.append({ type: 'session.opened', defaultProfile, workspace, forkedFrom: sourceId });
    log.append({ type: 'session.state_changed', from: 'opening', to: 'ready' });
    live.set(sessionId, { session, log });
    try {
      await session.resumeProviders([...plan.records.keys()]);
    } catch (error) {
      // the fork never became usable: it is closed, and says so in its own log
      await session.close().catch(() => undefined);
      throw error;
    }
    await log.durable();
    return session;
  };

  const router: CommandRouter = new CommandRouter({
    store,
    clock,
    ids,
    timeoutMs: options.commandTimeoutMs ?? 30_000,
    live: (id) => live.get(id)?.session,
    resume: (id) => runtime.resumeSession(id),
    liveIds: () => live.keys(),
    settleDead: (id): Promise<void> => settleDeadOwner(store, writer, router, id),
  });

  const runtime: AgentRuntime = {
    ...routedMethods(
      router,
      store,
      (id) => live.get(id)?.session,
      () => live.keys(),
    ),
    config,
    store,
    recoveredSessionIds: recovered.failed,
    resumableSessionIds: recovered.resumable,

    resumeSession(sessionId) {
      try {
        refuseWhenShuttingDown();
      } catch (error) {
        return rejection(error);
      }
      const known = live.get(sessionId)?.session;
      if (known !== undefined) return Promise.resolve(known);
      let attempt = resuming.get(sessionId);
      if (attempt === undefined) {
        attempt = resume(sessionId).finally(() => resuming.delete(sessionId));
        resuming.set(sessionId, attempt);
      }
      return attempt;
    },

    forkSession(sessionId) {
      try {
        refuseWhenShuttingDown();
      } catch (error) {
        return rejection(error);
      }
      return fork(sessionId);
    },

    async openSession(opts) {
      refuseWhenShuttingDown();
      const workspace = resolveWorkspace(opts.workspace);
      const profile = opts.profile ?? config.defaultProfile;
      if (!Object.hasOwn(config.profiles, profile)) {
        throw configError('unknown_profile', 'no such profile in the host config', {
          path: 'profile',
        });
      }
      const refused = warm.refusal(profile, workspace);
      if (refused !== undefined) throw refused;
      const metadata = parseMetadata(opts.metadata);
      const sessionId = ids('ses');
      const log = new SessionLog(writer, sessionId);
      const session = sessionOf(sessionId, log, profile, workspace);
      log.append(
        metadata === undefined
          ? { type: 'session.opened', defaultProfile: profile, workspace }
          : { type: 'session.opened', defaultProfile: profile, workspace, metadata },
      );
      log.append({ type: 'session.state_changed', from: 'opening', to: 'ready' });
      live.set(sessionId, { session, log });
      await log.durable();
      return session;
    },

    session(sessionId) {
      return live.get(sessionId)?.session;
    },

    listSessions() {
      return store.listSessions();
    },

    async readEvents(sessionId, opts = {}) {
      const { fromSequence, limit } = checkCursor(opts);
      if (!live.has(sessionId) && (await store.getSession(sessionId)) === undefined) {
        throw new RuntimeError('unknown_session', 'unknown_session', 'no such session');
      }
      return store.read(sessionId, { fromSequence, limit });
    },

    subscribe,

    warmPool: () => warm.state(),
    watchWarmPool: (listener) => warm.watch(listener),

    shutdown() {
      if (shutDown) return Promise.resolve();
      refusing = true;
      shutdownAttempt ??= shutDownRuntime({
        closeAll: () => [...live.values()].map(({ session }) => session.close()),
        closeWarm: () => warm.close((work) => within(clock, closeGraceMs, work)),
        router,
        writer,
        store,
        stopLeaseWatch,
        bounded: (work) => within(clock, closeGraceMs, work),
        onStoreClosed: () => {
          shutDown = true;
          telemetry?.close();
        },
      }).finally(() => {
        shutdownAttempt = undefined;
      });
      return shutdownAttempt;
    },
  };
  try {
    await router.start();
  } catch (error) {
    await store.close();
    throw error;
  }
  return runtime;
}
