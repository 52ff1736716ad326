/**
 * Deliberately broken runs and emissions, each built by wrapping the scripted provider and
 * breaking exactly one property, so the kit's tests can assert that the matching check catches it.
 */
import { agentError, type AgentProvider, type ProviderRunTermination } from '../../src/index.js';
import { patchRuns } from './provider-patches.js';

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

/** Puts a native session identifier into a diagnostic on every run sink. */
export function leaksNativeId(provider: AgentProvider): AgentProvider {
  return patchRuns(provider, (run, sink) => {
    sink.emit({
      payload: { type: 'diagnostic', level: 'debug', message: 'native scripted-session-1' },
    });
    return run;
  });
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
