import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import {
  createManualProvider,
  manualOptions,
  type ManualProviderControls,
  type ManualRun,
} from './manual-provider.js';
import type { AgentProvider } from '@relvo-labs/agent-provider';
import {
  createScriptedProvider,
  type ScriptedProvider,
  type ScriptedProviderOptions,
} from '@relvo-labs/agent-provider/testing';
import {
  createAgentRuntime,
  isRuntimeError,
  openSqliteEventStore,
  type AgentRuntime,
  type AgentRuntimeOptions,
  type EventEnvelope,
  type EventStore,
  type RuntimeClock,
  type RuntimeConfigInput,
  type RuntimeError,
  type RuntimeSession,
} from '@relvo-labs/agent-runtime';
import { onCleanup, runCleanups } from './cleanups.js';

// an isolated file's hook; the in-memory project adds one per file (cleanup-hook.ts)
afterEach(runCleanups);

export { onCleanup };

export function tempDir(prefix = 'relvo-runtime-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  onCleanup(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

export const TWO_SCRIPTED_PROFILES: RuntimeConfigInput = {
  defaultProfile: 'alpha',
  profiles: {
    alpha: { provider: 'scripted' },
    beta: { provider: 'scripted' },
  },
};

export interface ScriptedRuntime {
  readonly runtime: AgentRuntime;
  readonly scripted: ScriptedProvider;
  readonly session: RuntimeSession;
  readonly workspace: string;
}

export async function scriptedRuntime(
  options: {
    scripted?: ScriptedProviderOptions;
    config?: RuntimeConfigInput;
    store?: EventStore;
    clock?: RuntimeClock;
  } = {},
): Promise<ScriptedRuntime> {
  const scripted = createScriptedProvider(options.scripted ?? {});
  const runtime = await createAgentRuntime({
    providers: { scripted: () => scripted.provider },
    config: options.config ?? TWO_SCRIPTED_PROFILES,
    ...(options.store === undefined ? {} : { store: options.store }),
    ...(options.clock === undefined ? {} : { clock: options.clock }),
  });
  onCleanup(() => runtime.shutdown().catch(() => undefined));
  const workspace = tempDir();
  const session = await runtime.openSession({ workspace });
  return { runtime, scripted, session, workspace };
}

/** A runtime with the two scripted profiles on the SQLite event log at `path`; shut down after the test. */
export async function sqliteRuntime(
  path: string,
  scripted: ScriptedProvider = createScriptedProvider(),
): Promise<{ runtime: AgentRuntime; scripted: ScriptedProvider }> {
  const runtime = await createAgentRuntime({
    providers: { scripted: () => scripted.provider },
    config: TWO_SCRIPTED_PROFILES,
    store: openSqliteEventStore({ path }),
  });
  onCleanup(() => runtime.shutdown());
  return { runtime, scripted };
}

/** Every envelope stored for the session so far. */
export async function history(runtime: AgentRuntime, sessionId: string): Promise<EventEnvelope[]> {
  const out: EventEnvelope[] = [];
  for (let from = 1; ;) {
    const page = await runtime.readEvents(sessionId, { fromSequence: from, limit: 500 });
    out.push(...page);
    if (page.length < 500) return out;
    from = (page.at(-1) as EventEnvelope).sequence + 1;
  }
}

export function types(events: readonly EventEnvelope[]): string[] {
  return events.map((e) => e.payload.type);
}

export function expectGapless(events: readonly EventEnvelope[]): void {
  events.forEach((e, i) => {
    if (e.sequence !== i + 1) throw new Error(`sequence ${e.sequence} at index ${i}`);
  });
}

/** Polls (bounded) until the predicate holds; fails with the label. */
export async function until(
  predicate: () => boolean,
  label: string,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${label}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

export interface ManualRuntime {
  readonly manual: ManualProviderControls;
  readonly runtime: AgentRuntime;
  readonly session: RuntimeSession;
  readonly events: () => Promise<EventEnvelope[]>;
}

/** A runtime on the hand-driven provider, with profiles `m` and `n` and one open session. */
export async function manualRuntime(): Promise<ManualRuntime> {
  const manual = createManualProvider();
  const runtime = await runtimeOnManual(manual.provider, {
    config: {
      defaultProfile: 'm',
      profiles: { m: { provider: 'manual' }, n: { provider: 'manual' } },
    },
    closeGraceMs: 2_000,
  });
  const session = await runtime.openSession({ workspace: tempDir() });
  return { manual, runtime, session, events: () => history(runtime, session.id) };
}

/** A runtime on `provider` as its provider `manual` (see manualOptions), shut down after the test. */
export async function runtimeOnManual(
  provider: AgentProvider,
  rest: Partial<AgentRuntimeOptions> = {},
): Promise<AgentRuntime> {
  const runtime = await createAgentRuntime(manualOptions(provider, rest));
  onCleanup(() => runtime.shutdown().catch(() => undefined));
  return runtime;
}

/** Submits a turn of `input` and waits for the run it starts on the manual provider's first session. */
export async function turnWithRun(
  manual: ManualProviderControls,
  session: RuntimeSession,
  input = 'x',
): Promise<{ turn: Awaited<ReturnType<RuntimeSession['submitTurn']>>; run: ManualRun }> {
  const turn = await session.submitTurn({ input });
  await until(() => manual.sessions[0]?.runs.length === 1, 'the run');
  return { turn, run: manual.sessions[0]!.runs[0]! };
}

/** A runtime on the hand-driven provider (profile `m`) over the SQLite file at `path`. */
export async function sqliteManualRuntime(path: string, leaseMs?: number): Promise<AgentRuntime> {
  const manual = createManualProvider();
  const store = openSqliteEventStore({
    path,
    pollMs: 10,
    ...(leaseMs === undefined ? {} : { leaseMs }),
  });
  const runtime = await createAgentRuntime(manualOptions(manual.provider, { store }));
  onCleanup(() => runtime.shutdown());
  return runtime;
}

/** The RuntimeError `fn` throws synchronously. */
export function thrownRuntimeError(fn: () => unknown): RuntimeError {
  try {
    fn();
  } catch (error) {
    if (isRuntimeError(error)) return error;
    throw error;
  }
  throw new Error('expected a throw');
}

/** `promise`, or a failure naming `label` once `timeoutMs` passed (never a silent hang). */
export async function settlesWithin<T>(
  promise: Promise<T>,
  label: string,
  timeoutMs = 5_000,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      reject(new Error(`${label} did not settle within ${timeoutMs} ms`));
    }, timeoutMs);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** What `promise` settled as: 'resolved', or the error it was rejected with. */
export function settledAs(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => 'resolved',
    (error: unknown) => error,
  );
}

/** The RuntimeError `promise` is rejected with; anything else fails the test. */
export async function rejection(promise: Promise<unknown>): Promise<RuntimeError> {
  const error = await settledAs(promise);
  if (!isRuntimeError(error)) throw new Error(`expected a RuntimeError, got ${String(error)}`);
  return error;
}
