/**
 * A hand-driven AgentProvider for the cases the scripted provider cannot express: the test
 * holds each run's sink, emits anything (withdrawals, invalid payloads, emissions during
 * startRun), settles runs, and makes dispose fail on demand. It records every call it gets.
 */
import {
  agentError,
  defineProviderDescriptor,
  ProviderRejection,
  type AgentProvider,
  type InteractionResponse,
  type ProviderDescriptor,
  type ProviderEventSink,
  type ProviderRun,
  type ProviderRunRequest,
  type ProviderRunTermination,
  type ProviderSession,
  type ProviderSessionInit,
  type TurnInput,
} from '@relvo-labs/agent-provider';
import type { AgentRuntimeOptions, RuntimeConfigInput } from '@relvo-labs/agent-runtime';

export interface ManualRun {
  readonly request: ProviderRunRequest;
  readonly sink: ProviderEventSink;
  complete(termination: ProviderRunTermination): void;
  readonly interrupts: (string | undefined)[];
  /** Input the run was steered with, in order. */
  readonly steers: TurnInput[];
}

export interface ManualSession {
  readonly init: ProviderSessionInit;
  readonly runs: ManualRun[];
  readonly responses: { ref: string; response: InteractionResponse }[];
  disposeCalls: number;
}

export interface ManualProviderControls {
  readonly provider: AgentProvider;
  readonly sessions: ManualSession[];
  /** Called inside startRun before it resolves (e.g. to emit early). */
  onStartRun?: (sink: ProviderEventSink) => void;
  /** Number of upcoming dispose calls that reject. */
  failDisposals: number;
  /** When set, respondToInteraction rejects with this. */
  respondFailure?: Error;
  /** When set, interrupt rejects with this. */
  interruptFailure?: Error;
  /** When true, createSession / dispose never settle (a provider that stopped answering). */
  hangCreateSession?: boolean;
  hangDispose?: boolean;
}

export function manualDescriptor(
  overrides: Partial<{ providerId: string; wireVersion: string }> = {},
): ProviderDescriptor {
  return {
    ...defineProviderDescriptor({
      providerId: overrides.providerId ?? 'manual',
      providerVersion: '0.0.1',
      displayName: 'Manual test provider',
      run: {
        interrupt: { mode: 'immediate' },
        steer: true,
        structuredOutput: true,
        options: { model: true, effort: true, summary: true },
        streaming: { messageDeltas: true, toolActivity: true },
      },
      interaction: {
        approval: { supported: true, modes: ['once', 'session'], blocking: true },
        question: { supported: true, choices: true, batch: true, freeText: true },
      },
      workspace: { requires: 'directory' },
    }),
    ...(overrides.wireVersion === undefined ? {} : { wireVersion: overrides.wireVersion }),
  };
}

export function createManualProvider(
  descriptor: ProviderDescriptor = manualDescriptor(),
): ManualProviderControls {
  const controls: ManualProviderControls = {
    sessions: [],
    failDisposals: 0,
    provider: {
      describe: () => descriptor,
      createSession(init) {
        if (controls.hangCreateSession === true) return new Promise<never>(() => undefined);
        const record: ManualSession = { init, runs: [], responses: [], disposeCalls: 0 };
        controls.sessions.push(record);
        const session: ProviderSession = {
          startRun(request) {
            let settle!: (t: ProviderRunTermination) => void;
            const completion = new Promise<ProviderRunTermination>((resolve) => {
              settle = resolve;
            });
            let done = false;
            const run: ManualRun = {
              request,
              sink: request.sink,
              interrupts: [],
              steers: [],
              complete(termination) {
                if (done) return;
                done = true;
                settle(termination);
              },
            };
            record.runs.push(run);
            controls.onStartRun?.(request.sink);
            const handle: ProviderRun = {
              completion,
              steer(input) {
                run.steers.push(input);
                return Promise.resolve();
              },
              interrupt(reason) {
                if (controls.interruptFailure !== undefined)
                  return Promise.reject(controls.interruptFailure);
                run.interrupts.push(reason);
                run.complete(
                  reason === undefined
                    ? { outcome: 'interrupted' }
                    : { outcome: 'interrupted', reason },
                );
                return Promise.resolve();
              },
            };
            return Promise.resolve(handle);
          },
          respondToInteraction(ref, response) {
            if (controls.respondFailure !== undefined)
              return Promise.reject(controls.respondFailure);
            record.responses.push({ ref, response });
            return Promise.resolve();
          },
          dispose() {
            record.disposeCalls += 1;
            if (controls.hangDispose === true) return new Promise<never>(() => undefined);
            if (controls.failDisposals > 0) {
              controls.failDisposals -= 1;
              return Promise.reject(
                new ProviderRejection(agentError('provider_unavailable', 'dispose failed')),
              );
            }
            for (const run of record.runs)
              run.complete({ outcome: 'interrupted', reason: 'disposed' });
            return Promise.resolve();
          },
        };
        return Promise.resolve(session);
      },
    },
  };
  return controls;
}

/** Profile `m` on the provider `manual`: what most runtimes of these tests run. */
export const MANUAL_CONFIG: RuntimeConfigInput = {
  defaultProfile: 'm',
  profiles: { m: { provider: 'manual' } },
};

/** Profile `m` with a warm pool of `count` sessions in `workspace`, and a `cold` profile beside it. */
export function warmPoolConfig(
  count: number,
  idleMs: number,
  workspace: string,
): RuntimeConfigInput {
  return {
    defaultProfile: 'm',
    profiles: {
      m: { provider: 'manual', prewarm: { count, idleMs, workspace } },
      cold: { provider: 'manual' },
    },
  };
}

/**
 * createAgentRuntime's options for a runtime whose provider `manual` is `provider` (a manual or
 * durable one): MANUAL_CONFIG unless `rest` names another config, and the rest of `rest`.
 */
export function manualOptions(
  provider: AgentProvider,
  rest: Partial<AgentRuntimeOptions> = {},
): AgentRuntimeOptions {
  return { providers: { manual: () => provider }, config: MANUAL_CONFIG, ...rest };
}
