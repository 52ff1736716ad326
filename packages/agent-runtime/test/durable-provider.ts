/**
 * The hand-driven provider with recovery declared (export, resume and, unless `forks` is false,
 * fork): each session exports a record naming its thread and the provider's home;
 * `resumeSession` and `forkSession` refuse a record of another home with a provider code, as the
 * codex adapter does, and record what they were given. A fork opens a new thread.
 */
import {
  agentError,
  defineProviderDescriptor,
  ProviderRejection,
  WIRE_VERSION,
  type AgentProvider,
  type ProviderRecoveryRecord,
  type ProviderSessionInit,
} from '@relvo-labs/agent-provider';
import { createManualProvider, type ManualProviderControls } from './manual-provider.js';

export interface DurableControls {
  readonly manual: ManualProviderControls;
  readonly provider: AgentProvider;
  /** What a record names as the home; a resume of another home's record is refused. */
  home: string;
  /** Records handed to resumeSession, in order. */
  readonly resumed: ProviderRecoveryRecord[];
  /** Records handed to forkSession, in order. */
  readonly forked: ProviderRecoveryRecord[];
  /** What exportRecoveryRecord returns instead of the record, when set. */
  exportOverride?: unknown;
}

export function createDurableProvider(
  home = 'home-a',
  providerId = 'manual',
  forks = true,
): DurableControls {
  const descriptor = defineProviderDescriptor({
    providerId,
    providerVersion: '0.0.1',
    displayName: 'Durable manual provider',
    run: { interrupt: { mode: 'immediate' }, steer: true, streaming: { messageDeltas: true } },
    interaction: {
      approval: { supported: true, modes: ['once'], blocking: true },
      question: { supported: true, choices: true, freeText: true },
    },
    workspace: { requires: 'directory' },
    recovery: {
      exportsRecoveryRecord: true,
      resumesFromRecoveryRecord: true,
      forksFromRecoveryRecord: forks,
    },
  });
  const manual = createManualProvider(descriptor);
  let threads = 0;
  const withRecord = async (
    opening: Promise<Awaited<ReturnType<AgentProvider['createSession']>>>,
    thread: string,
  ) => {
    const session = await opening;
    const opened = manual.sessions.at(-1);
    return Object.assign(session, {
      // the record changes with each run, as codex's lastTurnId does
      exportRecoveryRecord: () =>
        Promise.resolve(
          controls.exportOverride ?? {
            providerId,
            providerVersion: '0.0.1',
            wireVersion: WIRE_VERSION,
            opaque: { thread, home: controls.home, runs: opened?.runs.length ?? 0 },
          },
        ),
    });
  };
  const otherHome = (record: ProviderRecoveryRecord): ProviderRejection | undefined =>
    (record.opaque as { home: string }).home === controls.home
      ? undefined
      : new ProviderRejection(
          agentError('invalid_request', 'another home', {
            providerCode: 'recovery_home_mismatch',
          }),
        );
  const controls: DurableControls = {
    manual,
    home,
    resumed: [],
    forked: [],
    provider: {
      describe: () => descriptor,
      createSession: (init) => {
        threads += 1;
        return withRecord(manual.provider.createSession(init), `thread-${threads}`);
      },
      resumeSession: (record, init) => {
        const opaque = record.opaque as { thread: string; home: string };
        if (opaque.home !== controls.home) {
          return Promise.reject(
            new ProviderRejection(
              agentError('invalid_request', 'another home', {
                providerCode: 'recovery_home_mismatch',
              }),
            ),
          );
        }
        controls.resumed.push(record);
        return withRecord(manual.provider.createSession(init), opaque.thread);
      },
      ...(forks
        ? {
            forkSession: (record: ProviderRecoveryRecord, init: ProviderSessionInit) => {
              const refused = otherHome(record);
              if (refused !== undefined) return Promise.reject(refused);
              controls.forked.push(record);
              threads += 1;
              return withRecord(manual.provider.createSession(init), `thread-${threads}`);
            },
          }
        : {}),
    },
  };
  return controls;
}
