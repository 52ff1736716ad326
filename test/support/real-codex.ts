/**
 * The real pinned codex behind `createCodexProvider()`, pointed at a scripted model server on
 * 127.0.0.1 with a throw-away HOME/CODEX_HOME. Everything is torn down after each test.
 */
import type {
  ProviderEventInput,
  ProviderRecoveryRecord,
  ProviderSessionInit,
} from '@relvo-labs/agent-provider';
import {
  createCodexProvider,
  type CodexProvider,
  type CodexProviderOptions,
  type CodexProviderSession,
} from '../../src/index.js';
import {
  codexConfigArgs,
  execCommandStep,
  scriptedUsage,
  textStep,
  type IsolatedCodexHome,
  type ScriptedModelServer,
} from '../../src/testing/index.js';
import { useCleanups } from './cleanups.js';
import { realCodexParts } from './codex-runtime.js';
import { testEnv } from './processes.js';
import { acceptUnderReview } from './releases.js';
import { recordingSink, type RecordingSink } from './provider-harness.js';

export interface RealCodex {
  readonly provider: CodexProvider;
  readonly server: ScriptedModelServer;
  readonly iso: IsolatedCodexHome;
  readonly sessionSink: RecordingSink;
  readonly session: CodexProviderSession;
}

/** The provider options that decide what codex and the commands it runs inherit. */
export type HostEnvironment = Pick<
  CodexProviderOptions,
  'env' | 'inheritEnv' | 'commandEnvironment'
>;

const cleanups = useCleanups();

export async function openRealCodex(
  options: Omit<CodexProviderOptions, 'executable' | 'extraArgs' | 'env' | 'transport'> = {},
  config: {
    readonly extra?: readonly string[];
    /** `codexConfigArgs`' `reasoningEffort` (`null`: the thread reports none). */
    readonly reasoningEffort?: string | null;
    readonly kind?: 'native' | 'launcher';
    /** Point codex at this model URL instead of the scripted server (e.g. a silent listener). */
    readonly baseUrl?: string;
    /** Runs on the fresh HOME before anything is spawned (e.g. to write a `.bashrc`). */
    readonly prepareHome?: (home: string) => void;
    /**
     * Where codex's environment comes from, on the fresh HOME (default: `iso.env(testEnv())`);
     * without an `env` codex inherits the host's own, as for a host that sets none.
     */
    readonly environment?: (iso: IsolatedCodexHome) => HostEnvironment;
    /** The session's host tools (`ProviderSessionInit.tools`). */
    readonly tools?: ProviderSessionInit['tools'];
  } = {},
): Promise<RealCodex> {
  const { binary, iso, server } = await realCodexParts(cleanups, 'relvo-e2e-', config.kind);
  config.prepareHome?.(iso.home);
  const provider = createCodexProvider({
    ...options,
    executable: binary.path,
    extraArgs: codexConfigArgs({
      baseUrl: config.baseUrl ?? server.baseUrl,
      ...(config.extra ? { extra: config.extra } : {}),
      ...(config.reasoningEffort === undefined ? {} : { reasoningEffort: config.reasoningEffort }),
    }),
    ...(config.environment?.(iso) ?? { env: iso.env(testEnv()) }),
    requestTimeoutMs: 20_000,
    additionalAppServerVersions: acceptUnderReview(binary.version),
  });
  const sessionSink = recordingSink();
  const session = await provider.createSession({
    ...sessionInit(iso.workspace, sessionSink),
    ...(config.tools !== undefined ? { tools: config.tools } : {}),
  });
  cleanups.push(() => session.dispose());
  return { provider, server, iso, sessionSink, session };
}

/**
 * The session's thread resumed in a new app-server, as a host does after its process ended: the
 * recovery record exported, the session disposed, `resumeSession` on the same workspace. The
 * caller disposes what it gets.
 */
export async function resumeAfterDispose(codex: RealCodex): Promise<CodexProviderSession> {
  const record = await codex.session.exportRecoveryRecord!();
  await codex.session.dispose();
  return codex.provider.resumeSession!(record, sessionInit(codex.iso.workspace));
}

/** What a session is opened, resumed or forked with: no options, a borrowed workspace. */
export function sessionInit(root: string, sink: RecordingSink = recordingSink()) {
  return { options: {}, workspace: { root, ownership: 'borrowed' as const }, sink };
}

/** A thread id codex never handed out, for refusals of unknown threads. */
export const UNKNOWN_THREAD_ID = '01a22fcf-0000-7000-8000-000000000000';

/** `record` pointing at a thread codex does not know. */
export function withUnknownThread(record: ProviderRecoveryRecord): ProviderRecoveryRecord {
  return { ...record, opaque: { ...(record.opaque as object), threadId: UNKNOWN_THREAD_ID } };
}

/** Resolves with the first event that matches, or fails after a bounded number of polls. */
export async function waitForEvent(
  sink: RecordingSink,
  predicate: (e: ProviderEventInput) => boolean,
  label: string,
  timeoutMs = 15_000,
): Promise<ProviderEventInput> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = sink.events.find(predicate);
    if (found !== undefined) return found;
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${label}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

type InteractionRequested = Extract<
  ProviderEventInput['payload'],
  { type: 'interaction.requested' }
>;

/** Waits for the run's interaction request (an approval, in these tests) and returns it. */
export async function waitForApproval(
  sink: RecordingSink,
  label = 'the approval',
): Promise<InteractionRequested> {
  const requested = await waitForEvent(
    sink,
    (e) => e.payload.type === 'interaction.requested',
    label,
  );
  if (requested.payload.type !== 'interaction.requested') throw new Error('unreachable');
  return requested.payload;
}

/** Answers an approval `approved` for this request only. */
export function approveOnce(codex: RealCodex, providerRef: string): Promise<void> {
  return codex.session.respondToInteraction(providerRef, {
    kind: 'approval',
    decision: 'approved',
    mode: 'once',
  });
}

/** An answer of `count` deltas (`<word><i> `) `delayMs` apart: a run still streaming when the test acts. */
export function slowTextStep(count: number, delayMs: number, word: string) {
  return textStep(
    Array.from({ length: count }, (_, i) => `${word}${String(i)} `),
    { delayMs },
  );
}

/** The model's last answer of a turn, with a small usage of its own. */
export function closingStep(text: string) {
  return textStep(text, { usage: scriptedUsage(5, 1, 0, 0) });
}

/** An `echo <marker>` the model asks to run outside the sandbox: the approvals bridge asks. */
export function escalatedEcho(marker: string, callId: string) {
  return execCommandStep(`echo ${marker}`, {
    callId,
    escalate: true,
    justification: 'test wants echo',
  });
}

export { recordingSink };
