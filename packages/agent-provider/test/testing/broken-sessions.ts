/**
 * Deliberately broken sessions: each wraps the scripted provider's sessions and breaks exactly
 * one property, so the kit's tests can assert that the matching check catches it.
 */
import {
  agentError,
  ProviderRejection,
  type AgentProvider,
  type ProviderEventSink,
  type ProviderRun,
} from '../../src/index.js';
import { patchSessions } from './provider-patches.js';

/** Starts runs as the session does until disposal begins, and from then on as `disposing` says. */
function onceDisposing(
  provider: AgentProvider,
  disposing: () => Promise<ProviderRun>,
): AgentProvider {
  return patchSessions(provider, (session) => {
    let disposed = false;
    return {
      startRun: (request) => (disposed ? disposing() : session.startRun(request)),
      dispose() {
        disposed = true;
        return session.dispose();
      },
    };
  });
}

/** Hands out a run even after dispose (from the moment disposal begins). */
export function startsAfterDispose(provider: AgentProvider): AgentProvider {
  return onceDisposing(provider, () => {
    const run: ProviderRun = {
      completion: Promise.resolve({ outcome: 'succeeded' }),
      interrupt: () => Promise.resolve(),
    };
    return Promise.resolve(run);
  });
}

/** startRun throws synchronously instead of rejecting. */
export function throwsSynchronously(provider: AgentProvider): AgentProvider {
  return onceDisposing(provider, () => {
    throw new ProviderRejection(agentError('session_closed', 'closed'));
  });
}

/** A repeated response resumes the run a second time (one extra delta per repeat). */
export function repeatedResponseHasEffect(provider: AgentProvider): AgentProvider {
  return patchSessions(provider, (session) => {
    const sinksByRef = new Map<string, ProviderEventSink>();
    const answered = new Set<string>();
    return {
      startRun(request) {
        const sink: ProviderEventSink = {
          emit(input) {
            if (input.payload.type === 'interaction.requested')
              sinksByRef.set(input.payload.providerRef, request.sink);
            request.sink.emit(input);
          },
        };
        return session.startRun({ ...request, sink });
      },
      async respondToInteraction(ref, response) {
        if (answered.has(ref))
          sinksByRef
            .get(ref)
            ?.emit({ payload: { type: 'run.message_delta', text: 'resumed again' } });
        await session.respondToInteraction(ref, response);
        answered.add(ref);
      },
    };
  });
}

/** A second dispose() is refused instead of being a no-op. */
export function disposeNotIdempotent(provider: AgentProvider): AgentProvider {
  return patchSessions(provider, (session) => {
    let calls = 0;
    return {
      dispose() {
        calls += 1;
        if (calls > 1)
          return Promise.reject(
            new ProviderRejection(agentError('session_closed', 'already disposed')),
          );
        return session.dispose();
      },
    };
  });
}

/** Refuses startRun after dispose with a message that echoes the caller's runRef. */
export function echoesRunRef(provider: AgentProvider): AgentProvider {
  return patchSessions(provider, (session) => ({
    startRun(request) {
      return session.startRun(request).catch((error: unknown) => {
        if (error instanceof ProviderRejection) {
          throw new ProviderRejection(
            agentError(error.agentError.code, `run ${request.runRef} refused`),
          );
        }
        throw error;
      });
    },
  }));
}

/** A response for a ref that is not pending fails with a plain Error (an unknown outcome). */
export function unknownRefThrows(provider: AgentProvider, pending: () => string[]): AgentProvider {
  return patchSessions(provider, (session) => ({
    respondToInteraction(ref, response) {
      if (!pending().includes(ref)) return Promise.reject(new Error('no such interaction'));
      return session.respondToInteraction(ref, response);
    },
  }));
}

/** Swallows every refusal of respondToInteraction. */
export function acceptsInvalidResponses(provider: AgentProvider): AgentProvider {
  return patchSessions(provider, (session) => ({
    respondToInteraction: (ref, response) =>
      session.respondToInteraction(ref, response).catch(() => undefined),
  }));
}

/** Refuses startRun on a closed session with retryable: true (not a retryable code). */
export function wrongRetryable(provider: AgentProvider): AgentProvider {
  return patchSessions(provider, (session) => ({
    startRun: (request) =>
      session.startRun(request).catch((error: unknown) => {
        if (error instanceof ProviderRejection)
          throw new ProviderRejection({ ...error.agentError, retryable: true });
        throw error;
      }),
  }));
}

/** Declares per-run options (the scripted harness does) but refuses a run that sets a model. */
export function refusesRunModel(provider: AgentProvider): AgentProvider {
  return patchSessions(provider, (session) => ({
    startRun: (request) =>
      request.model === undefined
        ? session.startRun(request)
        : Promise.reject(
            new ProviderRejection(agentError('invalid_request', 'no model for a run here')),
          ),
  }));
}

/** Reverts whatever it is asked, even while a run is active and beyond the history. */
export function revertsAnything(provider: AgentProvider): AgentProvider {
  return patchSessions(provider, () => ({
    revert: (request) => Promise.resolve({ turns: request.turns, files: 'kept' }),
  }));
}

/** Lists one page whatever the limit, and never a cursor. */
export function historyWithoutCursor(provider: AgentProvider): AgentProvider {
  return patchSessions(provider, (session) => ({
    history: async (request) => {
      const page = await (session.history?.({ ...request, limit: 100 }) ??
        Promise.resolve({ turns: [] }));
      return { turns: page.turns };
    },
  }));
}

/** Declares injected context and refuses every item, well-formed or not. */
export function refusesEveryInjection(provider: AgentProvider): AgentProvider {
  const patched = patchSessions(provider, () => ({
    injectContext: () =>
      Promise.reject(new ProviderRejection(agentError('invalid_request', 'no context taken'))),
  }));
  return {
    ...patched,
    describe: () => {
      const d = provider.describe();
      return { ...d, run: { ...d.run, injectContext: true } };
    },
  };
}
