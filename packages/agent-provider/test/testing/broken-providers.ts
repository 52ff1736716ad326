/**
 * Deliberately broken providers, broken in what they describe or offer rather than in a
 * session or run, so the kit's tests can assert that the matching check catches it.
 */
import type { AgentProvider } from '../../src/index.js';
import { bindSession } from './provider-patches.js';

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

/** Only the provider's describe and createSession (no resume or fork), with `members` over them. */
function bare(provider: AgentProvider, members: Partial<AgentProvider> = {}): AgentProvider {
  return {
    describe: () => provider.describe(),
    createSession: (init) => provider.createSession(init),
    ...members,
  };
}

/** Ignores the session options instead of parsing them strictly. */
export function acceptsUnknownOptions(provider: AgentProvider): AgentProvider {
  return bare(provider, {
    createSession: (init) => provider.createSession({ ...init, options: {} }),
  });
}

/** Mirrors every run emission onto the session sink. */
export function runEventsOnSessionSink(provider: AgentProvider): AgentProvider {
  return bare(provider, {
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
  });
}

/** Declares no message deltas but still streams them. */
export function undeclaredDeltas(provider: AgentProvider): AgentProvider {
  return bare(provider, {
    describe() {
      const d = provider.describe();
      return { ...d, run: { ...d.run, streaming: { ...d.run.streaming, messageDeltas: false } } };
    },
  });
}

/** Offers resumeSession although the descriptor does not declare resume. */
export function undeclaredResume(provider: AgentProvider): AgentProvider {
  return bare(provider, { resumeSession: (_record, init) => provider.createSession(init) });
}

/** Declares fork (the scripted harness does) but has no forkSession. */
export function missingFork(provider: AgentProvider): AgentProvider {
  return bare(provider);
}

/** Forks any record, another provider's included, into a fresh session. */
export function forksForeignRecords(provider: AgentProvider): AgentProvider {
  return bare(provider, { forkSession: (_record, init) => provider.createSession(init) });
}
