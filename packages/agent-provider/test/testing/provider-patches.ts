/**
 * Wrappers around a provider that override part of what its sessions or runs do and pass the
 * rest through, so a broken provider breaks only what it means to break.
 */
import type {
  AgentProvider,
  ProviderEventSink,
  ProviderRun,
  ProviderSession,
} from '../../src/index.js';

type SessionPatch = (session: ProviderSession) => Partial<ProviderSession>;

/** Wraps every session the provider opens, overriding some of its methods. */
export function patchSessions(provider: AgentProvider, patch: SessionPatch): AgentProvider {
  const forkSession = provider.forkSession?.bind(provider);
  return {
    describe: () => provider.describe(),
    async createSession(init) {
      const session = await provider.createSession(init);
      return { ...bindSession(session), ...patch(session) };
    },
    // kept (and patched alike), so a wrapper breaks only what it means to break
    ...(forkSession === undefined
      ? {}
      : {
          async forkSession(record, init) {
            const session = await forkSession(record, init);
            return { ...bindSession(session), ...patch(session) };
          },
        }),
  };
}

/** The session's own methods, bound; an optional one only where the session has it. */
export function bindSession(session: ProviderSession): ProviderSession {
  const exportRecord = session.exportRecoveryRecord?.bind(session);
  const revert = session.revert?.bind(session);
  const history = session.history?.bind(session);
  return {
    startRun: (request) => session.startRun(request),
    respondToInteraction: (ref, response) => session.respondToInteraction(ref, response),
    dispose: () => session.dispose(),
    // Kept, so a wrapper breaks only what it means to break.
    ...(exportRecord === undefined ? {} : { exportRecoveryRecord: exportRecord }),
    ...(revert === undefined ? {} : { revert }),
    ...(history === undefined ? {} : { history }),
  };
}

/** Wraps every run: `sink` is the run's own sink, so a wrapper can emit on it. */
export function patchRuns(
  provider: AgentProvider,
  patch: (run: ProviderRun, sink: ProviderEventSink) => ProviderRun,
  mapSink: (sink: ProviderEventSink) => ProviderEventSink = (sink) => sink,
): AgentProvider {
  return patchSessions(provider, (session) => ({
    async startRun(request) {
      const run = await session.startRun({ ...request, sink: mapSink(request.sink) });
      return patch(run, request.sink);
    },
  }));
}
