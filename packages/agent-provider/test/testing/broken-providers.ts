/**
 * Deliberately broken providers, each built by wrapping the scripted provider and breaking
 * exactly one property, so the kit's tests can assert that the matching check catches it.
 */
import {
  agentError,
  ProviderRejection,
  type AgentProvider,
  type ProviderEventSink,
  type ProviderRun,
  type ProviderRunTermination,
  type ProviderSession,
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

function bindSession(session: ProviderSession): ProviderSession {
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
function patchRuns(
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

/** completion is a fresh promise on every read, and later reads tell a different story. */
export function completionSettlesTwice(provider: AgentProvider): AgentProvider {
  return patchRuns(provider, (run) => {
    let reads = 0;
    return {
      get completion(): Promise<ProviderRunTermination> {
        reads += 1;
        if (reads === 1) return run.completion;
        return run.completion.then(() => ({
          outcome: 'failed',
          error: agentError('internal', 'settled again'),
        }));
      },
      interrupt: (reason) => run.interrupt(reason),
    };
  });
}

/** Emits a trailing delta on the run's sink one event-loop turn after completion settled. */
export function emitsAfterCompletion(provider: AgentProvider): AgentProvider {
  return patchRuns(provider, (run, sink) => {
    void run.completion.then(() => {
      setImmediate(() => {
        sink.emit({ payload: { type: 'run.message_delta', text: 'late' } });
      });
    });
    return run;
  });
}

/** Hands out a run even after dispose (from the moment disposal begins). */
export function startsAfterDispose(provider: AgentProvider): AgentProvider {
  return patchSessions(provider, (session) => {
    let disposing = false;
    return {
      startRun(request) {
        if (!disposing) return session.startRun(request);
        const run: ProviderRun = {
          completion: Promise.resolve({ outcome: 'succeeded' }),
          interrupt: () => Promise.resolve(),
        };
        return Promise.resolve(run);
      },
      dispose() {
        disposing = true;
        return session.dispose();
      },
    };
  });
}

/** Message deltas lose their text: the emission fails the ProviderEventInput schema. */
export function emitsInvalidEvent(provider: AgentProvider): AgentProvider {
  return patchRuns(
    provider,
    (run) => run,
    (sink) => ({
      emit(input) {
        if (input.payload.type === 'run.message_delta')
          sink.emit({ payload: { ...input.payload, text: '' } });
        else sink.emit(input);
      },
    }),
  );
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

/** A repeated interrupt() fails with an unknown outcome. */
export function interruptNotIdempotent(provider: AgentProvider): AgentProvider {
  return patchRuns(provider, (run) => {
    let calls = 0;
    return {
      completion: run.completion,
      interrupt(reason) {
        calls += 1;
        if (calls > 1) return Promise.reject(new Error('interrupt already sent'));
        return run.interrupt(reason);
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

/** startRun throws synchronously instead of rejecting. */
export function throwsSynchronously(provider: AgentProvider): AgentProvider {
  return patchSessions(provider, (session) => {
    let disposed = false;
    return {
      startRun(request) {
        if (disposed) throw new ProviderRejection(agentError('session_closed', 'closed'));
        return session.startRun(request);
      },
      dispose() {
        disposed = true;
        return session.dispose();
      },
    };
  });
}

/**
 * Writes into the descriptor it returned when a session opens, through Reflect.set, which
 * fails silently (no throw) once the object is frozen: only an unfrozen pass can see it.
 */
export function mutatesDescriptor(provider: AgentProvider): AgentProvider {
  let returned: unknown;
  return {
    describe: () => {
      returned = provider.describe();
      return returned as ReturnType<AgentProvider['describe']>;
    },
    async createSession(init) {
      if (typeof returned === 'object' && returned !== null)
        Reflect.set(returned, 'displayName', 'changed after registration');
      return provider.createSession(init);
    },
  };
}

/** Ignores the session options instead of parsing them strictly. */
export function acceptsUnknownOptions(provider: AgentProvider): AgentProvider {
  return {
    describe: () => provider.describe(),
    createSession: (init) => provider.createSession({ ...init, options: {} }),
  };
}

/** Mirrors every run emission onto the session sink. */
export function runEventsOnSessionSink(provider: AgentProvider): AgentProvider {
  return {
    describe: () => provider.describe(),
    async createSession(init) {
      const session = await provider.createSession(init);
      return {
        ...bindSession(session),
        startRun: (request) =>
          session.startRun({
            ...request,
            sink: {
              emit(input) {
                request.sink.emit(input);
                init.sink.emit(input);
              },
            },
          }),
      };
    },
  };
}

/** Declares no message deltas but still streams them. */
export function undeclaredDeltas(provider: AgentProvider): AgentProvider {
  return {
    describe() {
      const d = provider.describe();
      return { ...d, run: { ...d.run, streaming: { ...d.run.streaming, messageDeltas: false } } };
    },
    createSession: (init) => provider.createSession(init),
  };
}

/** Raises every hang run's interaction under one providerRef. */
export function reusesProviderRefs(provider: AgentProvider): AgentProvider {
  return patchRuns(
    provider,
    (run) => run,
    (sink) => ({
      emit(input) {
        const p = input.payload;
        if (p.type === 'interaction.requested' && p.providerRef.startsWith('hang-'))
          sink.emit({ payload: { ...p, providerRef: 'hang' } });
        else sink.emit(input);
      },
    }),
  );
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

/** Puts a native session identifier into a diagnostic on every run sink. */
export function leaksNativeId(provider: AgentProvider): AgentProvider {
  return patchRuns(provider, (run, sink) => {
    sink.emit({
      payload: { type: 'diagnostic', level: 'debug', message: 'native scripted-session-1' },
    });
    return run;
  });
}

/** Offers resumeSession although the descriptor does not declare resume. */
export function undeclaredResume(provider: AgentProvider): AgentProvider {
  return {
    describe: () => provider.describe(),
    createSession: (init) => provider.createSession(init),
    resumeSession: (_record, init) => provider.createSession(init),
  };
}

/** Emits a run.extension under another provider's namespace on every run. */
export function foreignExtensionNamespace(provider: AgentProvider): AgentProvider {
  return patchRuns(provider, (run, sink) => {
    sink.emit({
      payload: { type: 'run.extension', namespace: 'someone.else', kind: 'plan', data: {} },
    });
    return run;
  });
}

/** Emits a run.extension whose data is over the SPI's bound. */
export function oversizeExtension(provider: AgentProvider): AgentProvider {
  return patchRuns(provider, (run, sink) => {
    sink.emit({
      payload: {
        type: 'run.extension',
        namespace: provider.describe().providerId,
        kind: 'blob',
        data: { text: 'x'.repeat(200_001) },
      },
    });
    return run;
  });
}

/** Declares fork (the scripted harness does) but has no forkSession. */
export function missingFork(provider: AgentProvider): AgentProvider {
  return {
    describe: () => provider.describe(),
    createSession: (init) => provider.createSession(init),
  };
}

/** Forks any record, another provider's included, into a fresh session. */
export function forksForeignRecords(provider: AgentProvider): AgentProvider {
  return {
    describe: () => provider.describe(),
    createSession: (init) => provider.createSession(init),
    forkSession: (_record, init) => provider.createSession(init),
  };
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
